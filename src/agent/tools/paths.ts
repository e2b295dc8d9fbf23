import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isInside } from "../../kernel/fs/path-inside.js";
import { realPathOrSelf } from "../../kernel/fs/stat.js";

/** A tool's path argument as an absolute path: `~` is the home folder, relative is under the workdir. */
export function resolveToolPath(workdir: string, path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(workdir, path);
}

/** A path for messages: relative to the workdir when inside it, absolute otherwise. */
export function showPath(workdir: string, absolute: string): string {
  const rel = relative(workdir, absolute);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? absolute : rel;
}

/**
 * Whether an absolute path stays inside the workdir, both lexically and after following symlinks
 * of its nearest existing ancestor (a link inside the workdir may point anywhere).
 */
export function isInsideWorkdir(workdir: string, absolute: string): boolean {
  if (!isInside(absolute, workdir)) return false;
  const real = realLocation(absolute);
  return real !== null && isInside(real, realPathOrSelf(workdir));
}

/**
 * Where an absolute path really is: its nearest existing ancestor with symlinks followed, and the
 * rest of the path below that; null when not even the root can be resolved.
 */
export function realLocation(absolute: string): string | null {
  let probe = absolute;
  for (;;) {
    try {
      return join(realpathSync(probe), relative(probe, absolute));
    } catch {
      const parent = dirname(probe);
      if (parent === probe) return null;
      probe = parent;
    }
  }
}

/** The folders where writing is routine: the system temp folder, /tmp and /var/tmp. */
export function scratchFolders(): string[] {
  return [tmpdir(), "/tmp", "/var/tmp"];
}

/** Scratch locations where writing is routine: the system temp folder and /tmp. */
export function isScratchPath(absolute: string): boolean {
  return scratchFolders().some((dir) => isInside(absolute, dir));
}

import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isInside } from "../../fs/path-inside.js";
import { realPathOrSelf } from "../../fs/stat.js";

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
  return isInside(absolute, workdir) && isInside(realOfNearest(absolute), realPathOrSelf(workdir));
}

/**
 * An absolute path with the symlinks of its nearest existing ancestor followed (the rest, which
 * does not exist yet, appended as it is): where a write to it would land.
 */
export function realOfNearest(absolute: string): string {
  let probe = absolute;
  for (;;) {
    try {
      return join(realpathSync(probe), relative(probe, absolute));
    } catch {
      const parent = dirname(probe);
      if (parent === probe) return absolute;
      probe = parent;
    }
  }
}

/** Scratch locations where writing is routine: the system temp folder and /tmp. */
export function isScratchPath(absolute: string): boolean {
  return [tmpdir(), "/tmp", "/var/tmp"].some((dir) => isInside(absolute, dir));
}

import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

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

/** Whether `path` is `dir` or below it, lexically. */
export function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Whether an absolute path stays inside the workdir, both lexically and after following symlinks
 * of its nearest existing ancestor (a link inside the workdir may point anywhere).
 */
export function isInsideWorkdir(workdir: string, absolute: string): boolean {
  if (!isWithin(workdir, absolute)) return false;
  const realWorkdir = realOrSelf(workdir);
  let probe = absolute;
  for (;;) {
    try {
      const real = realpathSync(probe);
      return isWithin(realWorkdir, join(real, relative(probe, absolute)));
    } catch {
      const parent = dirname(probe);
      if (parent === probe) return false;
      probe = parent;
    }
  }
}

/** Scratch locations where writing is routine: the system temp folder and /tmp. */
export function isScratchPath(absolute: string): boolean {
  return [tmpdir(), "/tmp", "/var/tmp"].some((dir) => isWithin(dir, absolute));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

import { lstatSync, realpathSync, statSync, type Stats } from "node:fs";

/** `stat` that answers `undefined` for a path that is missing or cannot be inspected. */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** `lstat` (a symlink is reported as itself) that answers `undefined` for a missing path. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (isMissingPathError(error)) return undefined;
    throw error;
  }
}

/** ENOENT, or ENOTDIR when a parent on the path is a file: the path does not exist. */
export function isMissingPathError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The path with its symlinks resolved, or the path as given when it cannot be (it is missing, a link leads nowhere). */
export function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

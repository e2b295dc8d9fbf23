import * as nodeFs from "node:fs";
import { dirname, join, sep } from "node:path";
import { asFolderError } from "./folder-error.js";

type DirFs = Pick<typeof nodeFs, "mkdirSync" | "statSync">;

/**
 * Creates one of bosun's own folders readable by the user only (0700), leaving the mode of any
 * parent it has to create (`~/.local`, `~/.config`…) to the umask, as other programs expect. A
 * path that cannot be that folder (a file in the way, a read-only disk…) is a FolderError.
 */
export function ensurePrivateDir(dir: string, fs: DirFs = nodeFs): void {
  try {
    fs.mkdirSync(dirname(dir), { recursive: true });
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST" && isFolder(fs, dir)) return;
    throw asFolderError(error, dir);
  }
}

/**
 * Creates `root` (one of bosun's four folders) and each folder of the relative path `below` under
 * it, all private; only the parents of `root` take the umask. Returns the deepest folder.
 */
export function ensurePrivateDirs(root: string, below: string): string {
  ensurePrivateDir(root);
  let dir = root;
  for (const part of below.split(sep).filter((name) => name !== "")) {
    dir = join(dir, part);
    ensurePrivateDir(dir);
  }
  return dir;
}

function isFolder(fs: DirFs, dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

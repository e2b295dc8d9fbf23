import type * as nodeFs from "node:fs";
import { dirname } from "node:path";
import { readRegularFile } from "../../kernel/fs/regular-file.js";
import { isMissingPathError } from "../../kernel/fs/stat.js";

/**
 * The file-system calls the installer makes, all synchronous. Tests wrap them: to fail the k-th
 * write (fault injection), to kill the process at a random change (crash recovery), or to record
 * every path touched (hostile paths).
 */
export type InstallFs = Pick<
  typeof nodeFs,
  | "closeSync"
  | "copyFileSync"
  | "fsyncSync"
  | "fstatSync"
  | "linkSync"
  | "lstatSync"
  | "mkdirSync"
  | "openSync"
  | "readFileSync"
  | "readSync"
  | "readdirSync"
  | "readlinkSync"
  | "realpathSync"
  | "renameSync"
  | "rmdirSync"
  | "statSync"
  | "symlinkSync"
  | "unlinkSync"
  | "writeSync"
  | "chmodSync"
>;

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** Creates a folder and its missing parents, adding each one it creates to `created` (top first) as it goes. */
export function makeDirs(fs: InstallFs, dir: string, created: string[], mode?: number): void {
  const missing: string[] = [];
  for (let current = dir; !exists(fs, current); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing) {
    try {
      fs.mkdirSync(path, mode === undefined ? {} : { mode });
      created.push(path);
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
  }
}

/**
 * A file's text, or null when nothing is there. Read through `fs` without blocking, so a FIFO is
 * refused rather than waited on forever; anything but a regular file throws NotRegularFileError
 * (its `kind` says what is there).
 */
export function readFileText(fs: InstallFs, path: string): string | null {
  try {
    return readRegularFile(path, Number.POSITIVE_INFINITY, { fs }).toString("utf8");
  } catch (error) {
    if (isMissingPathError(error)) return null;
    throw error;
  }
}

/** A file's text, or null when it is absent, not a regular file, or unreadable. */
export function readOrNull(fs: InstallFs, path: string): string | null {
  try {
    return readFileText(fs, path);
  } catch {
    return null;
  }
}

export function exists(fs: InstallFs, path: string): boolean {
  return fs.lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** Something other than a folder is at `path` (a symlink followed when `follow`); false when nothing is there or it cannot be looked at. */
export function isNonFolder(fs: InstallFs, path: string, follow = false): boolean {
  try {
    return (follow ? fs.statSync(path, { throwIfNoEntry: false }) : fs.lstatSync(path, { throwIfNoEntry: false }))?.isDirectory() === false;
  } catch {
    return false;
  }
}

export function tryRmdir(fs: InstallFs, dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty, or gone: either way it stays as it is
  }
}

export function tryUnlink(fs: InstallFs, path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // already gone
  }
}

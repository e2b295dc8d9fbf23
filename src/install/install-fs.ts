import type * as nodeFs from "node:fs";
import { dirname } from "node:path";

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

export function readOrNull(fs: InstallFs, path: string): string | null {
  try {
    return fs.readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export function exists(fs: InstallFs, path: string): boolean {
  return fs.lstatSync(path, { throwIfNoEntry: false }) !== undefined;
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

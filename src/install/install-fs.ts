import type * as nodeFs from "node:fs";

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

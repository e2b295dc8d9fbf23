import { accessSync, constants, lstatSync } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../errors.js";
import { statOrUndefined } from "./stat.js";

/** Why bosun cannot create or write in one of its folders. */
export type FolderProblem = "file" | "not-a-folder" | "read-only" | "not-writable" | "full";

const PROBLEM_TEXT: Record<FolderProblem, string> = {
  file: "is a file, not a folder",
  "not-a-folder": "is not a folder",
  "read-only": "is on a read-only file system",
  "not-writable": "is not writable for you",
  full: "is on a full disk",
};

const FIX_TEXT: Record<FolderProblem, string> = {
  file: "move it away",
  "not-a-folder": "move it away",
  "read-only": "remount it read-write",
  "not-writable": "give yourself write access to it",
  full: "free some space",
};

/**
 * A folder bosun needs cannot be used: something that is not a folder is in the way, or it cannot
 * be written. `folder` is the path to fix (the file in the way, or the nearest folder that exists),
 * which may lie above the folder bosun wanted. `variables` name the settings that would point
 * bosun elsewhere; the CLI fills them in from the environment (see `withVariables`).
 */
export class FolderError extends UserError {
  override name = "FolderError";
  constructor(
    readonly folder: string,
    readonly problem: FolderProblem,
    readonly variables: readonly string[] = [],
  ) {
    const elsewhere = variables.length > 0 ? `, or choose another folder with ${orList(variables)}` : "";
    super(`${folder} ${PROBLEM_TEXT[problem]}: ${FIX_TEXT[problem]}${elsewhere}`);
  }

  /** The same problem, naming the variables that choose this folder in its fix. */
  withVariables(variables: readonly string[]): FolderError {
    return new FolderError(this.folder, this.problem, variables);
  }
}

/**
 * What an error from creating or writing something in `folder` means for the user: a FolderError
 * when the file system says the folder is unusable (a file in the way, read-only, not writable,
 * full), else the error itself. Only reads the disk, to find the path to name.
 */
export function asFolderError(error: unknown, folder: string): unknown {
  if (error instanceof UserError) return error;
  const errno = error as NodeJS.ErrnoException | null;
  const failed = String(errno?.path ?? folder);
  switch (errno?.code) {
    case "EEXIST":
      // Only mkdir's EEXIST says something is in a folder's place; a file that exists is not ours to judge.
      if (errno.syscall !== "mkdir") return error;
    // falls through
    case "ENOTDIR": {
      const blocker = findNonFolder(failed) ?? findNonFolder(folder);
      return blocker ? new FolderError(blocker.path, blocker.problem) : error;
    }
    case "EROFS":
      return new FolderError(nearestExisting(failed), "read-only");
    case "EACCES":
    case "EPERM":
      return new FolderError(nearestExisting(failed), "not-writable");
    case "ENOSPC":
    case "EDQUOT":
      return new FolderError(nearestExisting(failed), "full");
    default:
      return error;
  }
}

/**
 * Whether bosun could create and write `dir`, judged by reading only (for `bosun status`): the
 * problem a write would meet, or null. Permission bits do not stop root, so as root only a file in
 * the way and a read-only file system are seen here.
 */
export function inspectFolder(dir: string): FolderError | null {
  const blocker = findNonFolder(dir);
  if (blocker) return new FolderError(blocker.path, blocker.problem);
  const existing = nearestExisting(dir);
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EROFS") return new FolderError(existing, "read-only");
    if (code === "EACCES" || code === "EPERM") return new FolderError(existing, "not-writable");
  }
  return null;
}

/** The first path from `path` upwards that exists but is not a folder (a symlink to one is). */
function findNonFolder(path: string): { path: string; problem: FolderProblem } | null {
  for (let current = path; ; current = dirname(current)) {
    const info = statOrUndefined(current);
    if (info) return info.isDirectory() ? null : { path: current, problem: info.isFile() ? "file" : "not-a-folder" };
    // Missing, or under a file: unless it is a dangling symlink, look one level up.
    if (isThere(current)) return { path: current, problem: "not-a-folder" };
    if (dirname(current) === current) return null;
  }
}

function nearestExisting(path: string): string {
  let current = path;
  while (!isThere(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/** Whether anything (a dangling symlink too) is at `path`; an error answers no. */
function isThere(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

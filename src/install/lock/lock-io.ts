import * as nodeFs from "node:fs";
import { join } from "node:path";
import { findProject } from "../../kernel/project.js";
import { LockFileError } from "./lock-errors.js";
import { LOCK_FILE_NAME, parseLock, serializeLock, type Lock } from "./lock-file.js";

/** Where a project's lock is: the project's root (a git repository's top, or a bosun project's folder). */
export interface LockPlace {
  root: string;
  file: string;
  /** The root is a git repository's top: a new lock gets its merge attribute in `.gitattributes`. */
  git: boolean;
}

/** What writing the lock did. */
export type LockWrite = "created" | "updated" | "removed" | "unchanged";

const MAX_LOCK_BYTES = 1024 * 1024;
const MERGE_ATTRIBUTE = `${LOCK_FILE_NAME} merge=union`;

/**
 * The project around `cwd` (see `findProject`): the git repository's top, else the bosun
 * project's folder (with `bosun.json` or `.bosun/`); null when there is neither, or it is the
 * home folder (which is never a project).
 */
export function projectRootOf(cwd: string, home: string): { root: string; git: boolean } | null {
  const lookup = findProject(cwd, home);
  if (lookup.gitRoot !== null) return { root: lookup.gitRoot, git: true };
  return lookup.project ? { root: lookup.project.root, git: false } : null;
}

/** The lock of the project whose root is `cwd`; null when `cwd` is not a project's root. */
export function lockPlaceAt(cwd: string, home: string): LockPlace | null {
  const project = projectRootOf(cwd, home);
  if (!project || project.root !== cwd) return null;
  return { root: project.root, file: join(project.root, LOCK_FILE_NAME), git: project.git };
}

/** The lock's text and what it says; null when there is no lock. A lock bosun cannot read is a `LockFileError`. */
export function readLock(place: LockPlace): { lock: Lock; text: string } | null {
  const info = nodeFs.lstatSync(place.file, { throwIfNoEntry: false });
  if (!info) return null;
  if (!info.isFile()) throw new LockFileError(place.file, null, null, `is ${info.isDirectory() ? "a folder" : info.isSymbolicLink() ? "a symlink" : "not a regular file"}, not a lock bosun wrote; move it out of the way`);
  if (info.size > MAX_LOCK_BYTES) throw new LockFileError(place.file, null, null, `is ${info.size} bytes, more than a lock ever holds (1 MiB); restore it from git`);
  const bytes = nodeFs.readFileSync(place.file);
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) throw new LockFileError(place.file, null, null, "is not UTF-8 text; restore it from git, or delete it and run bosun install to write it again");
  return { lock: parseLock(text, place.file), text };
}

/**
 * Writes the lock atomically (a temp file next to it, then a rename), only when its bytes change;
 * a lock with nothing in it is removed. A new lock in a git repository gets `bosun.lock
 * merge=union` in the root's `.gitattributes`, unless that file already names the lock.
 */
export function writeLock(place: LockPlace, before: string | null, lock: Lock): { write: LockWrite; attributes: boolean } {
  const empty = lock.packs.length === 0 && lock.installs.length === 0;
  if (empty) {
    if (before === null) return { write: "unchanged", attributes: false };
    nodeFs.unlinkSync(place.file);
    return { write: "removed", attributes: false };
  }
  const text = serializeLock(lock);
  if (text === before) return { write: "unchanged", attributes: false };
  writeAtomically(place.file, text, 0o644);
  const attributes = before === null && place.git ? addMergeAttribute(join(place.root, ".gitattributes")) : false;
  return { write: before === null ? "created" : "updated", attributes };
}

/** Adds the lock's merge attribute to `.gitattributes` (made when missing; left alone when it names the lock, or is not a regular file). */
function addMergeAttribute(file: string): boolean {
  const info = nodeFs.lstatSync(file, { throwIfNoEntry: false });
  if (info && !info.isFile()) return false;
  const text = info ? nodeFs.readFileSync(file, "utf8") : "";
  if (text.split("\n").some((line) => line.trim().split(/\s+/)[0]?.replace(/^\//, "") === LOCK_FILE_NAME)) return false;
  const joined = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  writeAtomically(file, `${joined}${MERGE_ATTRIBUTE}\n`, info ? info.mode & 0o777 : 0o644);
  return true;
}

function writeAtomically(file: string, text: string, mode: number): void {
  const temp = `${file}.${process.pid}.bosun-tmp`;
  try {
    nodeFs.writeFileSync(temp, text, { mode, flag: "wx" });
    nodeFs.renameSync(temp, file);
  } catch (error) {
    nodeFs.rmSync(temp, { force: true });
    throw error;
  }
}

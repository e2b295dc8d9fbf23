import type { Stats } from "node:fs";
import { hashRegularFile, hashSymlink } from "../apply/file-hash.js";
import type { InstallFs } from "../apply/install-fs.js";
import type { FileStatRecord } from "../records/manifest.js";

/**
 * Ownership of a path, decided by the manifest's hash: `managed-pristine` (bosun wrote it and it
 * is unchanged), `managed-modified` (changed since), `managed-missing` (listed, gone), `missing`
 * (not listed, absent), `unknown` (not listed, present: never deleted without your say), and
 * `user-owned` (declared by the baseline scan; never even hashed).
 */
export type Classification = "managed-pristine" | "managed-modified" | "managed-missing" | "missing" | "unknown" | "user-owned";

/** What is at a path, looked at without following a symlink. */
export interface Inspection {
  kind: "absent" | "file" | "symlink" | "dir" | "other";
  /** SHA-256 of a file's bytes, or of a symlink's target text; null otherwise. */
  hash: string | null;
  /** `size:ctime:mtime:inode` of a regular file (for the manifest's stat cache). */
  statKey: string | null;
  mode: number;
}

export const ABSENT: Inspection = { kind: "absent", hash: null, statKey: null, mode: 0 };

/**
 * Looks at a path (lstat, never following a symlink). A regular file whose stat matches what
 * bosun recorded right after writing it is not read again: its hash is the manifest's. Any
 * change to the file's bytes changes its ctime, which no tool can set back.
 */
export function inspectPath(fs: InstallFs, path: string, cached?: { hash: string | undefined; stat: FileStatRecord | undefined }): Inspection {
  const info = fs.lstatSync(path, { throwIfNoEntry: false });
  if (!info) return ABSENT;
  const mode = info.mode & 0o7777;
  if (info.isSymbolicLink()) return { kind: "symlink", hash: hashSymlink(fs.readlinkSync(path, "utf8")), statKey: null, mode };
  if (info.isDirectory()) return { kind: "dir", hash: null, statKey: null, mode };
  if (!info.isFile()) return { kind: "other", hash: null, statKey: null, mode };
  const statKey = installedStatKey(info);
  if (cached?.hash && cached.stat?.installed === statKey && trustworthy(info)) return { kind: "file", hash: cached.hash, statKey, mode };
  return { kind: "file", hash: hashRegularFile(fs, path), statKey, mode };
}

/**
 * `size:ctime:mtime:inode` of an installed file. Times are milliseconds with their fraction (as
 * the plain stat gives them: a fraction of a microsecond is kept; the big-integer stat would
 * cost an allocation-heavy object per file, and there are thousands).
 */
export function installedStatKey(info: Stats): string {
  return `${info.size}:${info.ctimeMs}:${info.mtimeMs}:${info.ino}`;
}

/** `size:mtime:inode` of a pack file: unchanged means its bytes are the ones planned with. */
export function packStatKey(info: Stats): string {
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

// On a file system with whole-second timestamps, an edit in the same second as bosun's write
// would keep the stat; only sub-second timestamps (or an old enough file) make it a proof.
export function trustworthy(info: Stats): boolean {
  return info.ctimeMs % 1000 !== 0 || Date.now() - info.ctimeMs > 2_000;
}

/** Classifies an inspected path against the manifest's hash for it. */
export function classifyInspection(manifestHash: string | undefined, inspection: Inspection): Classification {
  if (manifestHash === undefined) return inspection.kind === "absent" ? "missing" : "unknown";
  if (inspection.kind === "absent") return "managed-missing";
  return inspection.hash === manifestHash ? "managed-pristine" : "managed-modified";
}

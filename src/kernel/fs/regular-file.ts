import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import type * as nodeFs from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../errors.js";
import { asFolderError } from "./folder-error.js";

/**
 * A file bosun will not use: not a regular file (a FIFO would block a read or write forever), or
 * too large. Its message names the file; moving it away is the fix, since bosun writes a new one
 * when it needs to. Callers that say more (whose file it is) build their line from `problem`.
 */
export class UnusableFileError extends UserError {
  override name = "UnusableFileError";
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly reason: "not-regular" | "too-large",
  ) {
    super(`${file} ${problem}: move it away`);
  }
}

/** A folder, FIFO, socket, device or (where not followed) symlink where a file should be. */
export class NotRegularFileError extends UnusableFileError {
  override name = "NotRegularFileError";
  constructor(
    file: string,
    /** What is there, as `nonRegularKind` names it. */
    readonly kind: string,
  ) {
    super(file, `is a ${kind}, not a regular file`, "not-regular");
  }
}

/** The file-system calls the readers make; the installer passes its own (tests wrap them to inject faults). */
export type RegularFileFs = Pick<typeof nodeFs, "openSync" | "fstatSync" | "readSync" | "closeSync" | "statSync" | "lstatSync">;

export interface ReadOptions {
  /** Default: node:fs. */
  fs?: RegularFileFs;
  /** False: a symlink in the file's place is refused, not followed (default true). */
  followSymlinks?: boolean;
}

const NODE_FS: RegularFileFs = { openSync, fstatSync, readSync, closeSync, statSync, lstatSync };

/**
 * Reads a whole file, refusing anything but a regular file of at most `maxBytes`. It is opened
 * without blocking (O_NONBLOCK), so a FIFO or device put in a file's place is refused instead of
 * waited on. A missing file throws the usual ENOENT/ENOTDIR error, for callers to treat as absent.
 */
export function readRegularFile(file: string, maxBytes: number, options: ReadOptions = {}): Buffer {
  const fs = options.fs ?? NODE_FS;
  return withReadable(file, fs, options.followSymlinks ?? true, (fd, info) => {
    if (info.size > maxBytes) throw tooLarge(file, maxBytes);
    const data = readUpTo(fs, fd, maxBytes + 1, info.size);
    // It grew after fstat: still bounded.
    if (data.length > maxBytes) throw tooLarge(file, maxBytes);
    return data;
  });
}

/** The first `bytes` of a regular file (for listings that read only a file's head), with its stat. */
export function readFileStart(file: string, bytes: number, options: ReadOptions = {}): { data: Buffer; info: Stats } {
  const fs = options.fs ?? NODE_FS;
  return withReadable(file, fs, options.followSymlinks ?? true, (fd, info) => ({ data: readUpTo(fs, fd, bytes, info.size), info }));
}

/**
 * Opens one of bosun's own files for writing, created 0600 when missing: emptied first unless
 * `append`. Symlinks are not followed and anything but a regular file is refused, without ever
 * blocking on a FIFO. A folder that cannot be written is a FolderError.
 */
export function openRegularFileForWriting(file: string, options: { append?: boolean } = {}): number {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW | (options.append ? constants.O_APPEND : 0);
  let fd: number;
  try {
    fd = openSync(file, flags, 0o600);
  } catch (error) {
    throw asFolderError(notOpenedError(error, file, NODE_FS, false), dirname(file));
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotRegularFileError(file, nonRegularKind(info));
    if (!options.append) ftruncateSync(fd, 0);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw asFolderError(error, dirname(file));
  }
}

/** What a stat says a non-regular file is, as a noun that takes "a": `folder`, `FIFO (named pipe)`, `socket`… */
export function nonRegularKind(info: Stats): string {
  if (info.isDirectory()) return "folder";
  if (info.isFIFO()) return "FIFO (named pipe)";
  if (info.isSocket()) return "socket";
  if (info.isSymbolicLink()) return "symlink";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "device";
  return "special file";
}

/** What a stat says a non-regular file is, as the rest of a sentence naming it. */
export function describeNonRegular(info: Stats): string {
  return `is a ${nonRegularKind(info)}, not a regular file`;
}

function withReadable<T>(file: string, fs: RegularFileFs, follow: boolean, read: (fd: number, info: Stats) => T): T {
  let fd: number;
  try {
    fd = fs.openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (follow ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    throw notOpenedError(error, file, fs, follow);
  }
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile()) throw new NotRegularFileError(file, nonRegularKind(info));
    return read(fd, info);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What a failed open means. open() cannot say "not a regular file" directly: ENXIO is a socket
 * (or a FIFO nobody reads, when writing), ELOOP a symlink (with O_NOFOLLOW), EISDIR a folder; the
 * path is looked at again to name what is there. Any other error is returned as it is.
 */
function notOpenedError(error: unknown, file: string, fs: RegularFileFs, follow: boolean): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== "ENXIO" && code !== "ELOOP" && code !== "EISDIR") return error;
  let info: Stats | undefined;
  try {
    info = follow ? fs.statSync(file) : fs.lstatSync(file);
  } catch {
    return error;
  }
  return info.isFile() ? error : new NotRegularFileError(file, nonRegularKind(info));
}

// Reads in chunks (the size fstat gave is only a hint: the file may grow or shrink meanwhile).
function readUpTo(fs: RegularFileFs, fd: number, limit: number, sizeHint: number): Buffer {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(limit - length, Math.max(sizeHint - length + 1, 64 * 1024)));
    const read = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    length += read;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}

function tooLarge(file: string, maxBytes: number): UnusableFileError {
  return new UnusableFileError(file, `is larger than ${formatBytes(maxBytes)}`, "too-large");
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../errors.js";
import { asFolderError } from "./folder-error.js";

/**
 * A file in bosun's folders that bosun will not use: not a regular file (a FIFO would block a read
 * or write forever), or too large. Its message names the file; moving it away is the fix, since
 * bosun writes a new one when it needs to.
 */
export class UnusableFileError extends UserError {
  override name = "UnusableFileError";
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly reason: "not-regular" | "too-large" = "not-regular",
  ) {
    super(`${file} ${problem}: move it away`);
  }
}

const IS_FIFO = "is a FIFO (named pipe), not a regular file";
const IS_SYMLINK = "is a symlink, not a regular file";
const IS_FOLDER = "is a folder, not a file";

/**
 * Reads a whole file, refusing anything but a regular file of at most `maxBytes`. It is opened
 * without blocking (O_NONBLOCK), so a FIFO or device put in a file's place is refused instead of
 * waited on; with `noFollow`, a symlink is refused too (for a file bosun also writes, which
 * `openRegularFileForWriting` would refuse). A missing file throws the usual ENOENT/ENOTDIR error,
 * for callers to treat as absent.
 */
export function readRegularFile(file: string, maxBytes: number, options: { noFollow?: boolean } = {}): Buffer {
  return withReadable(file, options.noFollow === true, (fd, info) => {
    const tooLarge = () => new UnusableFileError(file, `is larger than ${formatBytes(maxBytes)}`, "too-large");
    if (info.size > maxBytes) throw tooLarge();
    const data = readUpTo(fd, maxBytes + 1, info.size);
    // It grew after fstat: still bounded.
    if (data.length > maxBytes) throw tooLarge();
    return data;
  });
}

/** The first `bytes` of a regular file (for listings that read only a file's head), with its stat. */
export function readFileStart(file: string, bytes: number): { data: Buffer; info: Stats } {
  return withReadable(file, false, (fd, info) => ({ data: readUpTo(fd, bytes, info.size), info }));
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
    const code = (error as NodeJS.ErrnoException).code;
    // ENXIO: a FIFO nobody reads; ELOOP: a symlink (O_NOFOLLOW); EISDIR: a folder.
    if (code === "ENXIO") throw new UnusableFileError(file, IS_FIFO);
    if (code === "ELOOP") throw new UnusableFileError(file, IS_SYMLINK);
    if (code === "EISDIR") throw new UnusableFileError(file, IS_FOLDER);
    throw asFolderError(error, dirname(file));
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UnusableFileError(file, describeNonRegular(info));
    if (!options.append) ftruncateSync(fd, 0);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw asFolderError(error, dirname(file));
  }
}

/** What a stat says a non-regular file is, as the rest of a sentence naming it. */
export function describeNonRegular(info: Stats): string {
  if (info.isDirectory()) return IS_FOLDER;
  if (info.isFIFO()) return IS_FIFO;
  if (info.isSocket()) return "is a socket, not a regular file";
  if (info.isSymbolicLink()) return IS_SYMLINK;
  if (info.isCharacterDevice() || info.isBlockDevice()) return "is a device, not a regular file";
  return "is not a regular file";
}

function withReadable<T>(file: string, noFollow: boolean, read: (fd: number, info: Stats) => T): T {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    if (noFollow && (error as NodeJS.ErrnoException).code === "ELOOP") throw new UnusableFileError(file, IS_SYMLINK);
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UnusableFileError(file, describeNonRegular(info));
    return read(fd, info);
  } finally {
    closeSync(fd);
  }
}

// Reads in chunks (the size fstat gave is only a hint: the file may grow or shrink meanwhile).
function readUpTo(fd: number, limit: number, sizeHint: number): Buffer {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(limit - length, Math.max(sizeHint - length + 1, 64 * 1024)));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    length += read;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

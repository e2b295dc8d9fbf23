import { accessSync, closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { CredentialReadError, type FileInfo, type FileReader } from "./file-reader.js";

/** Missing, a broken symlink, or a parent that is not a folder: nothing is there. */
const ABSENT = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

/** The real file reader: follows symlinks, opens only regular files, reads a bounded amount. */
export const nodeFileReader: FileReader = {
  stat(path) {
    let info: Stats;
    try {
      info = statSync(path);
    } catch (error) {
      if (ABSENT.has(errnoCode(error))) return undefined;
      throw new CredentialReadError(path, describeErrno(error));
    }
    const result: FileInfo = { kind: info.isFile() ? "file" : info.isDirectory() ? "directory" : "other", size: info.size };
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
      try {
        result.realPath = realpathSync(path);
      } catch {
        // The link moved under us; report the path as given.
      }
    }
    return result;
  },

  readText(path, maxBytes) {
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO swapped in after stat opens at once instead of waiting for a writer.
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    } catch (error) {
      throw new CredentialReadError(path, describeErrno(error));
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw new CredentialReadError(path, "is not a regular file");
      if (info.size > maxBytes) throw new CredentialReadError(path, `is larger than ${formatBytes(maxBytes)}`);
      const buffer = Buffer.alloc(maxBytes + 1);
      let length = 0;
      for (;;) {
        const read = readSync(fd, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
        if (length > maxBytes) throw new CredentialReadError(path, `is larger than ${formatBytes(maxBytes)}`);
      }
      try {
        return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buffer.subarray(0, length));
      } catch {
        throw new CredentialReadError(path, "is not UTF-8 text");
      }
    } catch (error) {
      if (error instanceof CredentialReadError) throw error;
      throw new CredentialReadError(path, describeErrno(error));
    } finally {
      closeSync(fd);
    }
  },

  list(dir) {
    try {
      return readdirSync(dir).sort();
    } catch (error) {
      if (ABSENT.has(errnoCode(error))) return [];
      throw new CredentialReadError(dir, describeErrno(error));
    }
  },

  isExecutableFile(path) {
    try {
      if (!statSync(path).isFile()) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
};

function errnoCode(error: unknown): string {
  return String((error as NodeJS.ErrnoException | null)?.code ?? "");
}

/** A short reason for an errno error; Node's own message is not used because it may grow. */
export function describeErrno(error: unknown): string {
  const code = errnoCode(error);
  switch (code) {
    case "EACCES":
    case "EPERM":
      return `permission denied (${code})`;
    case "EISDIR":
      return "is a directory";
    case "ENOENT":
      return "does not exist";
    case "ELOOP":
      return "has a symlink loop";
    case "":
      return "unreadable";
    default:
      return `unreadable (${code})`;
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

import { accessSync, constants, lstatSync, readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { readRegularFile, UnusableFileError } from "../../../kernel/fs/regular-file.js";
import { CredentialReadError, type FileInfo, type FileReader } from "./file-reader.js";

/** Missing, a broken symlink, or a parent that is not a folder: nothing is there. */
const ABSENT = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

/** The real file reader: follows symlinks, opens only regular files (never waiting on a FIFO), reads a bounded amount. */
export const nodeFileReader: FileReader = {
  stat(path) {
    let info: Stats;
    try {
      info = statSync(path);
    } catch (error) {
      if (ABSENT.has(errnoCode(error))) return undefined;
      throw new CredentialReadError(path, describeErrno(error));
    }
    const result: FileInfo = { kind: info.isFile() ? "file" : info.isDirectory() ? "directory" : "other", size: info.size, uid: info.uid, mode: info.mode };
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
    let data: Buffer;
    try {
      data = readRegularFile(path, maxBytes);
    } catch (error) {
      if (error instanceof UnusableFileError) throw new CredentialReadError(path, error.reason === "too-large" ? error.problem : "is not a regular file");
      throw new CredentialReadError(path, describeErrno(error));
    }
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
    } catch {
      throw new CredentialReadError(path, "is not UTF-8 text");
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

import { MAX_CREDENTIAL_BYTES, type FileReader } from "./file-reader.js";

/** A credential file that is there: a non-empty regular file (symlinks followed). */
export interface PresentFile {
  /** The path to show: the real path when the given one is a symlink. */
  shownPath: string;
}

/**
 * The file at `path` when it is a regular file with content; undefined otherwise (missing,
 * empty, a folder, a FIFO, a broken symlink). Throws `CredentialReadError` when it cannot be
 * inspected.
 */
export function presentFile(files: FileReader, path: string): PresentFile | undefined {
  const info = files.stat(path);
  if (!info || info.kind !== "file" || info.size === 0) return undefined;
  return { shownPath: info.realPath ?? path };
}

/** The same, with its text (bounded; throws `CredentialReadError` when it cannot be read). */
export function presentText(files: FileReader, path: string): (PresentFile & { text: string }) | undefined {
  const present = presentFile(files, path);
  if (!present) return undefined;
  return { ...present, text: files.readText(path, MAX_CREDENTIAL_BYTES) };
}

/** Is `path` a regular file (any size)? Errors count as no. */
export function isRegularFile(files: FileReader, path: string): boolean {
  try {
    return files.stat(path)?.kind === "file";
  } catch {
    return false;
  }
}

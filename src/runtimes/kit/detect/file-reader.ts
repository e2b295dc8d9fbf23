import { ProbeError } from "../probe-error.js";

/** What a credential path is, after following symlinks. */
export interface FileInfo {
  kind: "file" | "directory" | "other";
  size: number;
  /** Set when the path itself is a symlink: where it leads (the path reported to the user). */
  realPath?: string;
  /** Owner and permission bits, when the reader knows them (for agents that trust only root-owned files). */
  uid?: number;
  mode?: number;
}

/**
 * The read-only file access detection uses. Injected, so detection is pure and tests can hand in
 * any layout; `nodeFileReader` is the real one.
 */
export interface FileReader {
  /**
   * Follows symlinks. `undefined` when nothing usable is there (missing, a broken symlink, a
   * missing parent). Throws `CredentialReadError` when the path cannot be inspected.
   */
  stat(path: string): FileInfo | undefined;
  /**
   * A regular file's content as UTF-8 text, at most `maxBytes`. Never opens anything but a
   * regular file and never blocks (a FIFO swapped in is refused). Throws `CredentialReadError`.
   */
  readText(path: string, maxBytes: number): string;
  /** Names directly inside a folder, sorted; empty when it is missing or not a folder. */
  list(dir: string): string[];
  /** An executable regular file (symlinks followed). */
  isExecutableFile(path: string): boolean;
}

/** Credential files are small; anything larger is not read. */
export const MAX_CREDENTIAL_BYTES = 1024 * 1024;

/**
 * A credential path that cannot be read. The message names the path and the reason, never the
 * content, so it is safe to show.
 */
export class CredentialReadError extends ProbeError {
  override name = "CredentialReadError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
  }
}

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

import { dirname } from "node:path";
import { asFolderError } from "./folder-error.js";
import { requireLazily } from "./require.js";

/**
 * Replaces one of bosun's files atomically (a temp file beside it, renamed over it), so a reader
 * never sees half a file; a folder that cannot take it is a FolderError. write-file-atomic is
 * loaded on first use.
 */
export async function writeFileAtomically(file: string, data: string, options: { mode: number; fsync?: boolean }): Promise<void> {
  const writeFileAtomic = requireLazily("write-file-atomic") as typeof import("write-file-atomic");
  try {
    await writeFileAtomic(file, data, options);
  } catch (error) {
    throw asFolderError(error, dirname(file));
  }
}

import { join } from "node:path";
import { readRegularFile, UnusableFileError } from "../kernel/fs/regular-file.js";
import { isMissingPathError } from "../kernel/fs/stat.js";

export const HOOK_SNAPSHOT_FILE = "hook-status.json";
const MAX_SNAPSHOT_BYTES = 64 * 1024;

/** The status line bosun's hook last had to show, and when it was made; `problem` when the file is unusable. */
export interface HookSnapshot {
  path: string;
  generatedAt: string | null;
  problem?: string;
}

/**
 * Reads `<data>/hook-status.json`, the snapshot bosun's SessionStart hook prints from: when it
 * was generated (null: none yet). Only its time is taken; a file that is not a small regular
 * file of JSON with a valid time is a problem, never waited on.
 */
export function readHookSnapshot(dataDir: string): HookSnapshot {
  const path = join(dataDir, HOOK_SNAPSHOT_FILE);
  let text: string;
  try {
    text = readRegularFile(path, MAX_SNAPSHOT_BYTES).toString("utf8");
  } catch (error) {
    if (isMissingPathError(error)) return { path, generatedAt: null };
    if (error instanceof UnusableFileError) return { path, generatedAt: null, problem: error.reason === "too-large" ? "is too large to be bosun's snapshot" : "is not a regular file" };
    return { path, generatedAt: null, problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { path, generatedAt: null, problem: "is not valid JSON" };
  }
  const at = typeof value === "object" && value !== null ? (value as { generatedAt?: unknown }).generatedAt : undefined;
  if (typeof at !== "string" || Number.isNaN(Date.parse(at))) return { path, generatedAt: null, problem: "has no valid generatedAt time" };
  return { path, generatedAt: new Date(Date.parse(at)).toISOString() };
}

import { parseEnv } from "node:util";
import { readRegularFile, UnusableFileError } from "./fs/regular-file.js";
import { isMissingPathError } from "./fs/stat.js";
import type { Env } from "./paths.js";

const MAX_DOTENV_BYTES = 1024 * 1024;

/** What one load of a `.env` file did, by variable name only (never values). */
export interface DotenvResult {
  file: string;
  found: boolean;
  /** Variables set (or updated) from the file. */
  applied: string[];
  /** Variables in the file that the real environment already sets; the environment wins. */
  shadowed: string[];
  /** Variables an earlier load set that the file no longer has. */
  removed: string[];
  /** Why a file that is there was not used. */
  problem?: string;
}

/**
 * Loads bosun's `.env` into an environment and can load it again after startup migrations moved
 * it. Variables from the real environment always win; variables this loader set itself are
 * updated or removed on a reload, so the environment matches the file that is there now.
 */
export class DotenvLoader {
  private readonly owned = new Set<string>();

  constructor(private readonly env: Env) {}

  load(file: string): DotenvResult {
    const { values, problem } = readDotenv(file);
    const result: DotenvResult = { file, found: values !== null, applied: [], shadowed: [], removed: [] };
    if (problem) result.problem = problem;
    for (const name of [...this.owned]) {
      if (values && name in values) continue;
      delete this.env[name];
      this.owned.delete(name);
      result.removed.push(name);
    }
    for (const [name, value] of Object.entries(values ?? {})) {
      if (this.env[name] !== undefined && !this.owned.has(name)) {
        result.shadowed.push(name);
        continue;
      }
      this.env[name] = value;
      this.owned.add(name);
      result.applied.push(name);
    }
    return result;
  }
}

function readDotenv(file: string): { values: Record<string, string> | null; problem?: string } {
  let text: string;
  try {
    text = readRegularFile(file, MAX_DOTENV_BYTES).toString("utf8");
  } catch (error) {
    if (isMissingPathError(error)) return { values: null };
    // A .env that is a folder, a FIFO or huge is skipped and reported rather than hanging the start.
    if (error instanceof UnusableFileError) return { values: null, problem: error.reason === "too-large" ? `larger than ${MAX_DOTENV_BYTES} bytes` : "not a regular file" };
    return { values: null, problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  return { values: parseEnv(text) as Record<string, string> };
}

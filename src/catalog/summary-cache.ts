import { renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../kernel/paths.js";
import { ensurePrivateDirs } from "../kernel/fs/private-dir.js";
import { readRegularFile } from "../kernel/fs/regular-file.js";

/**
 * A catalog summary kept between runs, valid while the inputs it was computed from are
 * unchanged: the files (data, config, stored keys) by size, time and mode, whether each
 * provider key variable is set, and the rest (bosun's version, the data source) as text.
 * `bosun status` uses it so a repeated status does not load and replay the whole catalog.
 */
export interface SummaryInputs {
  files: string[];
  /** Environment variables whose being set matters (every provider's key variables). */
  envNames: string[];
  extra: string[];
}

interface Fingerprint {
  files: ([string, number, number, number] | [string, null])[];
  env: string[];
  extra: string[];
}

interface Stored<T> {
  version: 1;
  inputs: SummaryInputs;
  fingerprint: Fingerprint;
  summary: T;
}

/** The most a stored summary may weigh; anything larger is not one of ours. */
const MAX_STORED_BYTES = 16 * 1024 * 1024;

/** Summaries live in `<cache>/status/`. */
const SUMMARY_FOLDER = "status";

export class SummaryCache<T> {
  constructor(
    /** bosun's cache folder. */
    private readonly cacheDir: string,
    private readonly env: Env,
  ) {}

  /** The summary stored for these files, if none of its inputs changed since. */
  read(files: string[], extra: string[]): T | undefined {
    const file = this.fileFor(files);
    let stored: Stored<T>;
    try {
      stored = JSON.parse(readRegularFile(file, MAX_STORED_BYTES).toString("utf8")) as Stored<T>;
    } catch {
      return undefined;
    }
    if (stored?.version !== 1 || !Array.isArray(stored.inputs?.envNames)) return undefined;
    const inputs: SummaryInputs = { files, envNames: stored.inputs.envNames, extra };
    return sameFingerprint(stored.fingerprint, this.fingerprint(inputs)) ? stored.summary : undefined;
  }

  /** Stores a summary; best effort (a cache that cannot be written is only slower next time). */
  write(inputs: SummaryInputs, summary: T): void {
    const file = this.fileFor(inputs.files);
    const stored: Stored<T> = { version: 1, inputs, fingerprint: this.fingerprint(inputs), summary };
    const temp = `${file}.${process.pid}.tmp`;
    try {
      ensurePrivateDirs(this.cacheDir, SUMMARY_FOLDER);
      writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
      renameSync(temp, file);
    } catch {
      try {
        unlinkSync(temp);
      } catch {
        // nothing was left behind
      }
    }
  }

  private fingerprint(inputs: SummaryInputs): Fingerprint {
    return {
      files: inputs.files.map((file) => {
        try {
          const info = statSync(file);
          return [file, info.size, info.mtimeMs, info.mode];
        } catch {
          return [file, null];
        }
      }),
      env: inputs.envNames.filter((name) => (this.env[name] ?? "").trim() !== "").sort(),
      extra: inputs.extra,
    };
  }

  // One entry per set of input files (each project has its own config files).
  private fileFor(files: string[]): string {
    return join(this.cacheDir, SUMMARY_FOLDER, `catalog-${fnv1a(files.join("\u0000"))}.json`);
  }
}

function sameFingerprint(a: Fingerprint | undefined, b: Fingerprint): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A small, fast string hash for file names (not for security). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

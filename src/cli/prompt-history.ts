import { closeSync, fchmodSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomically } from "../kernel/fs/atomic-write.js";
import { ensurePrivateDir } from "../kernel/fs/private-dir.js";
import { openRegularFileForWriting, readRegularFile } from "../kernel/fs/regular-file.js";

/** How many distinct prompts the history keeps. */
export const HISTORY_SIZE = 1000;
/** The largest history file bosun reads; loading trims it to a quarter of this at most. */
export const HISTORY_MAX_BYTES = 16 * 1024 * 1024;

/** The prompts typed in interactive runs, for Up/Down at the prompt. */
export interface PromptHistory {
  /** Newest first (the order readline browses). */
  readonly entries: string[];
  /** Remembers a sent prompt, unless it starts with a space (a way to keep one out of the file). */
  add(prompt: string): void;
}

export interface PromptHistoryOptions {
  /** What is kept of a prompt: the known secrets in it replaced, as in the session file. */
  redact(text: string): string;
  /** Hears once about a file bosun cannot read or write. */
  onError(error: unknown): void;
}

/**
 * The history kept in `file` (mode 0600 in bosun's state folder): one JSON string per line, oldest
 * first, appended as each prompt is sent, so that two interactive sessions open at once both keep
 * theirs. Every prompt is redacted before it is kept, in memory and in the file. Loading keeps the
 * newest HISTORY_SIZE distinct prompts (at most a quarter of HISTORY_MAX_BYTES), and rewrites the
 * file once it has grown to twice that, or when it holds a secret (written before bosun redacted
 * it, or a secret that is new since). A file bosun cannot read or write costs the history, never
 * the session: `onError` hears about it once, and a file that cannot be read is left alone.
 */
export async function openPromptHistory(file: string, options: PromptHistoryOptions): Promise<PromptHistory> {
  let failed = false;
  const fail = (error: unknown) => {
    if (!failed) options.onError(error);
    failed = true;
  };
  const stored = readHistoryFile(file, fail);
  // A file that cannot be read is not written either: appending to one too large would only grow it.
  const writable = stored !== null;
  const inFile = stored?.prompts ?? [];
  const redacted = inFile.map((prompt) => options.redact(prompt));
  const entries = newestDistinct(redacted);
  const leaked = redacted.some((prompt, i) => prompt !== inFile[i]);
  if (stored && (leaked || inFile.length > 2 * HISTORY_SIZE || stored.bytes > HISTORY_MAX_BYTES / 2)) {
    try {
      await writeFileAtomically(file, [...entries].reverse().map(asLine).join(""), { mode: 0o600 });
    } catch (error) {
      fail(error);
    }
  }
  return {
    entries,
    add(prompt) {
      const entry = options.redact(prompt);
      if (entry.trim() === "" || /^\s/.test(entry)) return;
      const seen = entries.indexOf(entry);
      if (seen >= 0) entries.splice(seen, 1);
      entries.unshift(entry);
      if (entries.length > HISTORY_SIZE) entries.length = HISTORY_SIZE;
      if (!writable) return;
      try {
        ensurePrivateDir(dirname(file));
        const fd = openRegularFileForWriting(file, { append: true });
        try {
          // A file the user made with a wider mode is made private as soon as it holds a prompt.
          fchmodSync(fd, 0o600);
          writeSync(fd, asLine(entry));
        } finally {
          closeSync(fd);
        }
      } catch (error) {
        fail(error);
      }
    },
  };
}

const asLine = (prompt: string) => `${JSON.stringify(prompt)}\n`;

/**
 * The prompts in the file, oldest first (none when there is no file), and its size; null when it
 * cannot be read (`fail` hears why). A line that is not a JSON string is skipped.
 */
function readHistoryFile(file: string, fail: (error: unknown) => void): { prompts: string[]; bytes: number } | null {
  let data: Buffer;
  try {
    data = readRegularFile(file, HISTORY_MAX_BYTES, { followSymlinks: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { prompts: [], bytes: 0 };
    fail(error);
    return null;
  }
  const prompts: string[] = [];
  for (const line of data.toString("utf8").split("\n")) {
    if (line === "") continue;
    try {
      const prompt = JSON.parse(line) as unknown;
      if (typeof prompt === "string") prompts.push(prompt);
    } catch {
      // a line torn by a crash, or written by hand
    }
  }
  return { prompts, bytes: data.length };
}

/** The newest distinct prompts, newest first, within HISTORY_SIZE and a quarter of HISTORY_MAX_BYTES. */
function newestDistinct(oldestFirst: string[]): string[] {
  const seen = new Set<string>();
  const entries: string[] = [];
  let bytes = 0;
  for (let i = oldestFirst.length - 1; i >= 0 && entries.length < HISTORY_SIZE; i--) {
    const entry = oldestFirst[i]!;
    if (seen.has(entry)) continue;
    bytes += Buffer.byteLength(asLine(entry));
    if (bytes > HISTORY_MAX_BYTES / 4) break;
    seen.add(entry);
    entries.push(entry);
  }
  return entries;
}

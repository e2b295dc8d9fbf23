import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir } from "../fs/private-dir.js";
import { statOrUndefined } from "../fs/stat.js";

/** How many distinct prompts the history keeps. */
export const HISTORY_SIZE = 1000;

/** The prompts typed in interactive runs, for Up/Down at the prompt. */
export interface PromptHistory {
  /** Newest first (the order readline browses). */
  readonly entries: string[];
  /** Remembers a sent prompt, unless it starts with a space (a way to keep one out of the file). */
  add(entry: string): void;
}

/**
 * The history kept in `file` (mode 0600 in bosun's state folder): one JSON string per line, oldest
 * first, appended as each prompt is sent, so that two interactive sessions open at once both keep
 * theirs. Loading keeps the newest HISTORY_SIZE distinct prompts and rewrites the file once it has
 * grown to twice that. A file bosun cannot read or write costs the history, never the session:
 * `onError` hears about it once.
 */
export function openPromptHistory(file: string, onError: (error: unknown) => void): PromptHistory {
  let failed = false;
  const fail = (error: unknown) => {
    if (!failed) onError(error);
    failed = true;
  };
  const lines = readLines(file, fail);
  const entries = newestDistinct(lines);
  if (lines.length > 2 * HISTORY_SIZE) {
    try {
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, [...entries].reverse().map((entry) => `${JSON.stringify(entry)}\n`).join(""), { mode: 0o600 });
      renameSync(temp, file);
    } catch (error) {
      fail(error);
    }
  }
  return {
    entries,
    add(entry) {
      if (entry.trim() === "" || /^\s/.test(entry)) return;
      const seen = entries.indexOf(entry);
      if (seen >= 0) entries.splice(seen, 1);
      entries.unshift(entry);
      if (entries.length > HISTORY_SIZE) entries.length = HISTORY_SIZE;
      try {
        ensurePrivateDir(dirname(file));
        // Non-blocking, so that a FIFO in its place fails at once instead of waiting for a reader.
        const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
        try {
          if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file`);
          fchmodSync(fd, 0o600);
          writeSync(fd, `${JSON.stringify(entry)}\n`);
        } finally {
          closeSync(fd);
        }
      } catch (error) {
        fail(error);
      }
    },
  };
}

/** The prompts in the file, oldest first; a line that is not a JSON string is skipped. */
function readLines(file: string, fail: (error: unknown) => void): string[] {
  const info = statOrUndefined(file);
  if (!info) return [];
  // A FIFO or a device would block the read or never end; the history is not worth that.
  if (!info.isFile()) {
    fail(new Error(`${file} is not a regular file`));
    return [];
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    fail(error);
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const entry = JSON.parse(line) as unknown;
      if (typeof entry === "string") entries.push(entry);
    } catch {
      // a line torn by a crash, or written by hand
    }
  }
  return entries;
}

function newestDistinct(oldestFirst: string[]): string[] {
  const seen = new Set<string>();
  const entries: string[] = [];
  for (let i = oldestFirst.length - 1; i >= 0 && entries.length < HISTORY_SIZE; i--) {
    const entry = oldestFirst[i]!;
    if (seen.has(entry)) continue;
    seen.add(entry);
    entries.push(entry);
  }
  return entries;
}

import { readdirSync, statSync, type Stats } from "node:fs";
import { join, relative } from "node:path";
import type { BosunPaths } from "../../kernel/paths.js";
import { isInside } from "../../kernel/fs/path-inside.js";
import { readFileStart } from "../../kernel/fs/regular-file.js";
import { isMissingPathError } from "../../kernel/fs/stat.js";
import type { SessionEvent, SessionHeader } from "./format.js";

/** One session as listings show it, read from the start of its file. */
export interface SessionSummary {
  id: string;
  file: string | null;
  createdAt: string;
  updatedAt: string;
  model: SessionHeader["model"];
  workdir: string;
  /** The first prompt, on one line. */
  title: string;
  bytes: number;
}

export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const TITLE_CHARS = 80;

/**
 * Reading the sessions folder without opening any session: ids, and a summary from the first
 * 64 KiB of a file. Kept apart from the session store so that `bosun status` loads only this.
 */
export function listSessionIds(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => name.slice(0, -".jsonl".length))
      .filter((id) => SESSION_ID_PATTERN.test(id));
  } catch (error) {
    if (isMissingPathError(error)) return [];
    throw error;
  }
}

export function summarizeSessionFile(file: string, redact: (text: string) => string = (text) => text): SessionSummary | null {
  let head: string;
  let info: Stats;
  try {
    const start = readFileStart(file, 64 * 1024);
    head = start.data.toString("utf8");
    info = start.info;
  } catch {
    return null;
  }
  const lines = head.split("\n");
  let header: SessionHeader;
  try {
    header = JSON.parse(lines[0]!) as SessionHeader;
    if (header.type !== "header") return null;
  } catch {
    return null;
  }
  let title = "";
  for (const line of lines.slice(1)) {
    try {
      const event = JSON.parse(line) as SessionEvent;
      if (event.type === "run" && event.phase === "start") {
        title = oneLine(redact(event.prompt));
        break;
      }
    } catch {
      break;
    }
  }
  return { id: header.id, file, createdAt: header.createdAt, updatedAt: info.mtime.toISOString(), model: header.model, workdir: header.workdir, title, bytes: info.size };
}

/**
 * The sessions of one project: those whose working folder is `scope.root` (or inside it, when the
 * scope is `nested`), most recently active first (by the last change of their file), at most
 * `limit`. Files are read newest first and only until `limit` match, so finding the latest costs
 * one listing, a stat per file and the start of a few files.
 */
export function projectSessions(dir: string, scope: { root: string; nested: boolean }, limit = Number.POSITIVE_INFINITY): SessionSummary[] {
  const byActivity: { file: string; id: string; changed: number }[] = [];
  for (const id of listSessionIds(dir)) {
    const file = sessionFile(dir, id);
    try {
      byActivity.push({ file, id, changed: statSync(file).mtimeMs });
    } catch {
      // removed since the listing
    }
  }
  byActivity.sort((a, b) => b.changed - a.changed || (a.id < b.id ? 1 : -1));
  const found: SessionSummary[] = [];
  for (const { file } of byActivity) {
    if (found.length >= limit) break;
    const summary = summarizeSessionFile(file);
    if (summary && (scope.nested ? isInside(summary.workdir, scope.root) : relative(scope.root, summary.workdir) === "")) found.push(summary);
  }
  return found;
}

export function oneLine(text: string, max = TITLE_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The path of a session's file in the sessions folder. */
export function sessionFile(dir: string, id: string): string {
  return join(dir, `${id}.jsonl`);
}

/** The folder that holds the agent's session files (`<data>/sessions`). */
export function sessionsDir(paths: BosunPaths): string {
  return join(paths.data, "sessions");
}

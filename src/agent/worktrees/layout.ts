import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { TaskNameError } from "./errors.js";

/**
 * Where task worktrees live and what they are called. Everything is derived from the
 * repository's real path, the session and the task, so a listing can tell each part from a path:
 *
 *     <dataDir>/worktrees/<repo-key>/repo.json               which repository the key is (bosun's)
 *     <dataDir>/worktrees/<repo-key>/<session>/<task>/       the worktree (git's)
 *     <dataDir>/worktrees/<repo-key>/<session>/<task>.json   its record (bosun's, beside it)
 *
 * and the branch is `bosun/<session>/<task>`.
 */
export const WORKTREES_FOLDER = "worktrees";

/** What a session or task name may be: one folder name, and one part of a branch name git accepts. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function isTaskName(name: string): boolean {
  return NAME_PATTERN.test(name) && !name.includes("..") && !name.endsWith(".lock") && !name.endsWith(".") && !name.endsWith(".json");
}

export function checkTaskName(kind: "session" | "task", name: string): void {
  if (!isTaskName(name)) throw new TaskNameError(kind, name);
}

export function worktreesRoot(dataDir: string): string {
  return join(dataDir, WORKTREES_FOLDER);
}

/**
 * The folder of one repository's task worktrees: its name (made safe for a folder) and the first
 * 8 hex digits of the SHA-256 of its real path, so two repositories of the same name stay apart.
 */
export function repoKey(repoRealPath: string): string {
  const name = basename(repoRealPath).replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "repo";
  return `${name}-${createHash("sha256").update(repoRealPath).digest("hex").slice(0, 8)}`;
}

export function taskBranch(session: string, task: string): string {
  return `bosun/${session}/${task}`;
}

export function taskWorktreePath(dataDir: string, repoRealPath: string, session: string, task: string): string {
  return join(worktreesRoot(dataDir), repoKey(repoRealPath), session, task);
}

/** The file in a repository's folder that names the repository (no session name ends in `.json`). */
export const REPO_RECORD = "repo.json";

/** The record beside a worktree (never inside it, where it would be an untracked file). */
export function recordPath(worktreePath: string): string {
  return `${worktreePath}.json`;
}

import { lstatOrUndefined } from "../../kernel/fs/stat.js";
import { runGit } from "./git.js";
import { isProcessAlive } from "../../kernel/fs/file-lock.js";
import { lockReasonPid } from "./lock-reason.js";
import type { GitWorktree } from "./porcelain.js";
import { readStatus } from "./status.js";

/**
 * Where a task worktree stands, from the most to the least protected; the first that applies:
 *
 * - `running`: locked by bosun for a process that is alive;
 * - `interrupted`: locked by bosun for a process that is gone (bosun stopped mid-task): kept for
 *   the user to look at;
 * - `locked`: locked by someone else, for another reason: kept;
 * - `missing`: its folder is gone, but git still lists it;
 * - `dirty`: uncommitted changes or untracked files;
 * - `unmerged`: commits that no other branch has;
 * - `merged`: finished, clean, nothing only it has. The only state a prune removes.
 */
export type WorktreeState = "running" | "interrupted" | "locked" | "missing" | "dirty" | "unmerged" | "merged";

/** One task worktree as a listing shows it. */
export interface TaskWorktreeEntry {
  path: string;
  repoRoot: string;
  /** bosun's branch for the task, `bosun/<session>/<task>`. */
  branch: string;
  session: string;
  task: string;
  state: WorktreeState;
  /** The commit checked out in the worktree, as git lists it. */
  head: string | null;
  /** The branch checked out in the worktree (null when detached); normally `branch`. */
  checkedOut: string | null;
  /** Where `branch` points now; null when it is gone. */
  branchHead: string | null;
  /** The commit the task started from, from its record; null without one. */
  base: string | null;
  lockReason: string | null;
  /** The process bosun's lock names; null for no lock or someone else's. */
  pid: number | null;
  folderExists: boolean;
  /** When bosun created it (its record); null without one. */
  createdAt: string | null;
  /** Uncommitted and untracked files; null when the folder is gone. */
  uncommittedFiles: number | null;
  /** Commits since `base`; null when the base is not known or the folder is gone. */
  commits: number | null;
  /** Commits of its HEAD and its branch that no other branch has. */
  uniqueCommits: number;
  /** Its record beside the folder, when there is one. */
  recordFile: string | null;
}

/** What the listing knows of a worktree before asking git about its contents. */
export interface WorktreeFacts {
  path: string;
  repoRoot: string;
  branch: string;
  session: string;
  task: string;
  base: string | null;
  createdAt: string | null;
  recordFile: string | null;
  /** The worktree as `git worktree list --porcelain` of its repository lists it. */
  git: GitWorktree;
  /** Where `branch` points (null when gone). */
  branchHead: string | null;
}

/**
 * Asks git what a worktree holds and decides its state: `git status` in the folder (reading
 * only), the commits since its base, and `git rev-list --count <head> <branch> --not
 * --exclude=<branch> --branches` in the repository for the commits no other branch has (with
 * `--branches`, an `--exclude` pattern is matched without `refs/heads/`: one that starts with it
 * excludes nothing, and every task would count as merged).
 */
export async function inspectWorktree(facts: WorktreeFacts): Promise<TaskWorktreeEntry> {
  const folderExists = facts.git.prunable === null && (lstatOrUndefined(facts.path)?.isDirectory() ?? false);
  const tips = [...new Set([facts.git.head, facts.branchHead].filter((sha): sha is string => sha !== null))];
  const [status, commits, unique] = await Promise.all([
    folderExists ? readStatus(facts.path) : undefined,
    folderExists && facts.base && facts.git.head ? runGit(["rev-list", "--count", `${facts.base}..${facts.git.head}`], { cwd: facts.path }) : undefined,
    tips.length > 0 ? runGit(["rev-list", "--count", ...tips, "--not", `--exclude=${facts.branch}`, "--branches"], { cwd: facts.repoRoot }) : undefined,
  ]);
  const lockReason = facts.git.locked;
  const pid = lockReasonPid(lockReason);
  const entry: Omit<TaskWorktreeEntry, "state"> = {
    path: facts.path,
    repoRoot: facts.repoRoot,
    branch: facts.branch,
    session: facts.session,
    task: facts.task,
    head: facts.git.head,
    checkedOut: facts.git.branch,
    branchHead: facts.branchHead,
    base: facts.base,
    lockReason,
    pid,
    folderExists,
    createdAt: facts.createdAt,
    uncommittedFiles: status ? status.length : null,
    commits: commits ? Number(commits.stdout.trim()) : null,
    uniqueCommits: unique ? Number(unique.stdout.trim()) : 0,
    recordFile: facts.recordFile,
  };
  return { ...entry, state: stateOf(entry) };
}

export function stateOf(entry: Omit<TaskWorktreeEntry, "state">): WorktreeState {
  if (entry.lockReason !== null) {
    if (entry.pid === null) return "locked";
    return isProcessAlive(entry.pid) ? "running" : "interrupted";
  }
  if (!entry.folderExists) return "missing";
  if ((entry.uncommittedFiles ?? 0) > 0) return "dirty";
  if (entry.uniqueCommits > 0) return "unmerged";
  return "merged";
}

/** Why a worktree in this state is kept, in words (for `bosun worktrees prune`). */
export function keptReason(entry: TaskWorktreeEntry): string {
  const commits = (n: number) => `${n} commit${n === 1 ? "" : "s"}`;
  switch (entry.state) {
    case "running":
      return `its task is running (bosun process ${entry.pid})`;
    case "interrupted":
      return `its task was interrupted (bosun process ${entry.pid} is gone); look at it, then unlock it with: git worktree unlock ${entry.path}`;
    case "locked":
      return `locked by someone else${entry.lockReason ? ` (${JSON.stringify(entry.lockReason)})` : ""}`;
    case "missing":
      return entry.uniqueCommits > 0
        ? `its folder is gone and ${entry.branch} has ${commits(entry.uniqueCommits)} no other branch has; merge them somewhere, then prune again`
        : "its folder is gone";
    case "dirty":
      return `${entry.uncommittedFiles} uncommitted file${entry.uncommittedFiles === 1 ? "" : "s"}`;
    case "unmerged":
      return `${commits(entry.uniqueCommits)} no other branch has`;
    case "merged":
      return "merged";
  }
}

/**
 * Whether a prune may remove it: `merged`, or `missing` (folder gone, not locked) with nothing
 * only its branch has. Any other state, or commits only it has, keeps it.
 */
export function isPrunable(entry: TaskWorktreeEntry): boolean {
  return entry.state === "merged" || (entry.state === "missing" && entry.uniqueCommits === 0);
}

import { rm, rmdir } from "node:fs/promises";
import { dirname } from "node:path";
import { describeError } from "../../kernel/errors.js";
import { isInside } from "../../kernel/fs/path-inside.js";
import { isMissingPathError, realPathOrSelf } from "../../kernel/fs/stat.js";
import { deleteBranchAt } from "./branch.js";
import { GitError, runGit } from "./git.js";
import { recordPath, worktreesRoot } from "./layout.js";
import { listTaskWorktrees, reinspectWorktree, type WorktreeProblem } from "./worktree-list.js";
import { isPrunable, keptReason, type TaskWorktreeEntry, type WorktreeState } from "./worktree-state.js";

export interface RemovedWorktree {
  path: string;
  repoRoot: string;
  branch: string;
  /** `merged`, or `missing` for a worktree whose folder was already gone. */
  state: WorktreeState;
  /** Whether bosun's branch was deleted too (false: it was gone already, or it moved and is kept). */
  branchDeleted: boolean;
  /** Said when the branch could not be deleted. */
  note?: string;
}

export interface KeptWorktree {
  path: string;
  branch: string;
  state: WorktreeState;
  reason: string;
}

export interface PruneResult {
  dryRun: boolean;
  /** What was removed (with `dryRun`, what would be). */
  removed: RemovedWorktree[];
  kept: KeptWorktree[];
  /** What the listing could not make sense of; never touched. */
  problems: WorktreeProblem[];
}

/**
 * Removes the task worktrees that are finished and hold nothing of their own: `merged` ones, and
 * `missing` ones (folder gone, not locked) whose branch has no commit no other branch has. Every
 * other worktree is kept, with the reason. With `dryRun` it only says what it would remove.
 * Nothing outside bosun's worktrees folder and bosun's own branches is ever touched.
 */
export async function pruneTaskWorktrees(options: { dataDir: string; dryRun?: boolean }): Promise<PruneResult> {
  const dryRun = options.dryRun ?? false;
  const listing = await listTaskWorktrees({ dataDir: options.dataDir });
  const result: PruneResult = { dryRun, removed: [], kept: [], problems: listing.problems };
  for (const entry of listing.worktrees) {
    if (!isPrunable(entry)) {
      result.kept.push({ path: entry.path, branch: entry.branch, state: entry.state, reason: keptReason(entry) });
      continue;
    }
    if (dryRun) {
      result.removed.push({ path: entry.path, repoRoot: entry.repoRoot, branch: entry.branch, state: entry.state, branchDeleted: entry.branchHead !== null });
      continue;
    }
    const outcome = await removeTaskWorktree(entry, { dataDir: options.dataDir, branchHead: entry.branchHead });
    if ("reason" in outcome) result.kept.push(outcome);
    else result.removed.push(outcome);
  }
  return result;
}

/**
 * Removes one task worktree that a listing found prunable, guarding against everything that may
 * have changed since (another bosun may have started using it, the user may have committed):
 *
 * 1. it is looked at again from scratch, and kept unless it is still prunable and its branch
 *    still points at `branchHead`, the commit the caller checked;
 * 2. `git worktree remove <path>` without `--force`: git itself refuses a locked worktree or one
 *    with changes or untracked files (ignored files go with the folder, as they do for git);
 * 3. `git update-ref -d refs/heads/<branch> <branchHead>`: the branch is deleted only if it still
 *    points at that commit (git compares under its ref lock); if it moved it is kept, and said;
 * 4. the record, and the session and repository folders when they are left empty.
 *
 * A worktree whose folder is gone has only git's records of it removed (`git worktree remove`
 * works on a missing folder, for that one worktree; `git worktree prune` would also prune the
 * user's own missing worktrees, so it is not used).
 */
export async function removeTaskWorktree(entry: TaskWorktreeEntry, checked: { dataDir: string; branchHead: string | null }): Promise<RemovedWorktree | KeptWorktree> {
  const kept = (state: WorktreeState, reason: string): KeptWorktree => ({ path: entry.path, branch: entry.branch, state, reason });
  const now = await reinspectWorktree(entry);
  if ("problem" in now) return kept(entry.state, `changed since it was checked: ${now.problem}`);
  if (!isPrunable(now)) return kept(now.state, `changed since it was checked: ${keptReason(now)}`);
  if (now.branchHead !== checked.branchHead) {
    return kept(now.state, `its branch ${entry.branch} moved since it was checked (${short(checked.branchHead)} → ${short(now.branchHead)})`);
  }
  try {
    await runGit(["worktree", "remove", entry.path], { cwd: entry.repoRoot, retryOnLock: true });
  } catch (error) {
    return kept(now.state, `git refused to remove it: ${error instanceof GitError ? error.stderrLine : describeError(error)}`);
  }
  const removed: RemovedWorktree = { path: entry.path, repoRoot: entry.repoRoot, branch: entry.branch, state: now.state, branchDeleted: false };
  if (checked.branchHead !== null) {
    try {
      await deleteBranchAt(entry.repoRoot, entry.branch, checked.branchHead);
      removed.branchDeleted = true;
    } catch (error) {
      removed.note = `branch ${entry.branch} was kept: ${error instanceof GitError ? error.stderrLine : describeError(error)}`;
    }
  }
  await removeRecordAndEmptyFolders(entry.path, realPathOrSelf(worktreesRoot(checked.dataDir)));
  return removed;
}

/** The record beside a removed worktree, then its session and repository folders if nothing else is in them. */
async function removeRecordAndEmptyFolders(path: string, root: string): Promise<void> {
  await rm(recordPath(path), { force: true });
  for (let dir = dirname(path); dir !== root && isInside(dir, root); dir = dirname(dir)) {
    try {
      await rmdir(dir);
    } catch (error) {
      // Not empty (another task's worktree), or already gone: either way, stop here.
      if (!isMissingPathError(error)) return;
    }
  }
}

function short(sha: string | null): string {
  return sha === null ? "gone" : sha.slice(0, 8);
}

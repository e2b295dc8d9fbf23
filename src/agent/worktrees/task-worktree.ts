import { dirname, join } from "node:path";
import { ensurePrivateDirs } from "../../kernel/fs/private-dir.js";
import { lstatOrUndefined, realPathOrSelf } from "../../kernel/fs/stat.js";
import { deleteBranchAt } from "./branch.js";
import { carryChanges } from "./carry-changes.js";
import { GitError, requireGitVersion, runGit } from "./git.js";
import { WorktreeExistsError } from "./errors.js";
import { checkTaskName, recordPath, repoKey, taskBranch, WORKTREES_FOLDER } from "./layout.js";
import { lockReasonPid, taskLockReason } from "./lock-reason.js";
import { listGitWorktrees } from "./porcelain.js";
import { ensureRepoRecord, writeRecord } from "./record.js";
import { findRepository } from "./repository.js";
import { readStatus } from "./status.js";

/** A task's worktree, as creating it returns it and finishing or summarizing it takes it. */
export interface TaskWorktree {
  /** The worktree's folder (a real path). */
  path: string;
  /** `bosun/<session>/<task>`. */
  branch: string;
  /** The commit it started from: the user's HEAD when it was created. */
  base: string;
  /** The top folder of the user's repository (a real path). */
  repoRoot: string;
  /** The process its lock names. */
  pid: number;
}

export interface CreatedTaskWorktree extends TaskWorktree {
  /** Something the caller should show: the uncommitted files that were not carried. */
  note?: string;
}

export interface CreateTaskWorktreeOptions {
  /** A folder inside the user's repository (the task's working folder). */
  cwd: string;
  /** bosun's data folder; worktrees go in its `worktrees/`. */
  dataDir: string;
  session: string;
  task: string;
  /** Bring the user's uncommitted changes (staged, unstaged, untracked) into the worktree. */
  carryChanges: boolean;
  /** The process running the task, named in the lock (this process when not given). */
  pid?: number;
}

/**
 * Creates a task's worktree on a new branch `bosun/<session>/<task>` at the user's HEAD, in
 * `<dataDir>/worktrees/<repo-key>/<session>/<task>`, locked with a reason that names `pid`, so
 * that git itself refuses to remove or prune it while the task runs. A branch, folder or record
 * already there is a WorktreeExistsError: nothing is ever reused, reset or overwritten.
 *
 * The branch is created first (`git update-ref` with an empty old value, which fails if it
 * exists), then the worktree is added on it, so that a failure can remove exactly the branch it
 * made and a `git worktree add` that met another git's lock can be tried again. When carrying
 * changes or writing the record fails, the new worktree and branch (which hold only copies) are
 * removed again and the error is thrown.
 *
 * Without `carryChanges`, a dirty tree gives a `note` saying how many uncommitted files stay
 * behind. Either way the user's tree, index and stash list are only read.
 */
export async function createTaskWorktree(options: CreateTaskWorktreeOptions): Promise<CreatedTaskWorktree> {
  checkTaskName("session", options.session);
  checkTaskName("task", options.task);
  const pid = options.pid ?? process.pid;
  // Independent questions at once: each git process costs a few milliseconds to start.
  const [version, repository, status] = await Promise.allSettled([requireGitVersion(), findRepository(options.cwd), readStatus(options.cwd)]);
  if (version.status === "rejected") throw version.reason;
  if (repository.status === "rejected") throw repository.reason;
  if (status.status === "rejected") throw status.reason;
  const { repoRoot, head: base } = repository.value;
  const changes = status.value;

  const sessionDir = ensurePrivateDirs(options.dataDir, join(WORKTREES_FOLDER, repoKey(repoRoot), options.session));
  await ensureRepoRecord(dirname(sessionDir), repoRoot);
  // git stores the real path; listings compare with it.
  const path = join(realPathOrSelf(sessionDir), options.task);
  const branch = taskBranch(options.session, options.task);
  if (lstatOrUndefined(path)) throw new WorktreeExistsError("folder", path, repoRoot);
  if (lstatOrUndefined(recordPath(path))) throw new WorktreeExistsError("record", recordPath(path), repoRoot);

  await createBranch(repoRoot, branch, base);
  try {
    await runGit(["worktree", "add", "--lock", "--reason", taskLockReason(pid), path, branch], { cwd: repoRoot, retryOnLock: true });
  } catch (error) {
    await deleteBranchAt(repoRoot, branch, base).catch(() => {});
    if (error instanceof GitError && / already exists$/.test(error.stderrLine)) throw new WorktreeExistsError("folder", path, repoRoot);
    throw error;
  }
  try {
    if (options.carryChanges && changes.length > 0) await carryChanges(repoRoot, base, path, changes);
    await writeRecord(path, { version: 1, repoRoot, branch, base, session: options.session, task: options.task, createdAt: new Date().toISOString() });
  } catch (error) {
    await discardNewWorktree(repoRoot, path, branch, base);
    throw error;
  }
  const created: CreatedTaskWorktree = { path, branch, base, repoRoot, pid };
  if (!options.carryChanges && changes.length > 0) {
    const n = changes.length;
    created.note = `${n} uncommitted file${n === 1 ? " was" : "s were"} not carried into the task's worktree, which starts from the last commit (${base.slice(0, 8)})`;
  }
  return created;
}

/** How a finish went: the lock was bosun's and is gone, or it was left (not locked, someone else's, worktree gone). */
export type FinishOutcome = "unlocked" | "not-locked" | "locked-by-other" | "gone";

/**
 * The task has ended (however it ended): unlocks its worktree if the lock is the one bosun put
 * there for `wt.pid`, so that a later prune may remove it once it is merged. Removes nothing;
 * a lock with another reason is someone else's and stays.
 */
export async function finishTaskWorktree(wt: TaskWorktree): Promise<FinishOutcome> {
  const entry = (await listGitWorktrees(wt.repoRoot)).find((worktree) => realPathOrSelf(worktree.path) === wt.path);
  if (!entry) return "gone";
  if (entry.locked === null) return "not-locked";
  if (lockReasonPid(entry.locked) !== wt.pid) return "locked-by-other";
  await runGit(["worktree", "unlock", wt.path], { cwd: wt.repoRoot, retryOnLock: true });
  return "unlocked";
}

/** Creates `refs/heads/<branch>` at `base`, failing if it exists (the empty old value). */
async function createBranch(repoRoot: string, branch: string, base: string): Promise<void> {
  try {
    await runGit(["update-ref", "-m", "bosun: task worktree", `refs/heads/${branch}`, base, ""], { cwd: repoRoot, retryOnLock: true });
  } catch (error) {
    if (error instanceof GitError && /reference already exists/.test(error.stderrLine)) throw new WorktreeExistsError("branch", branch, repoRoot);
    throw error;
  }
}

/** Undoes a creation that failed half way: the worktree made moments ago holds only copies. */
async function discardNewWorktree(repoRoot: string, path: string, branch: string, base: string): Promise<void> {
  await runGit(["worktree", "unlock", path], { cwd: repoRoot, retryOnLock: true }).catch(() => {});
  await runGit(["worktree", "remove", "--force", path], { cwd: repoRoot, retryOnLock: true }).catch(() => {});
  await deleteBranchAt(repoRoot, branch, base).catch(() => {});
}

import { UserError } from "../../kernel/errors.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { SubagentWorktree } from "../session/format.js";
import { NotARepositoryError } from "../worktrees/errors.js";
import { runGit } from "../worktrees/git.js";
import { summarizeTaskWorktree } from "../worktrees/summary.js";
import { createTaskWorktree, finishTaskWorktree, type TaskWorktree } from "../worktrees/task-worktree.js";

/**
 * Where a task works: the parent's folder, or a worktree of its own, with the repository's git
 * folder its commits go to (and a note to show, when there is one).
 */
export type TaskWorkspace = { workdir: string; worktree: (TaskWorktree & { gitDir: string }) | null; note?: string };

export interface WorkspaceRequest {
  /** The parent's working folder. */
  workdir: string;
  /** Null: the kind's default, a worktree when the folder is in a git repository (external kinds). */
  isolation: "worktree" | "none" | null;
  /** Whether the kind works in a worktree by default (the user's CLIs do; bosun does not). */
  worktreeByDefault: boolean;
  carryChanges: boolean;
  /** bosun's data folder (worktrees go in its `worktrees/`); null where the host has none. */
  dataDir: string | null;
  session: string;
  task: string;
}

/**
 * The task's working folder. Asked for (or by default) a worktree: one on a new branch from the
 * current commit, locked while the task runs; by default only in a git repository (elsewhere the
 * parent's folder), asked for explicitly it must be one (the error says why not).
 */
export async function openWorkspace(request: WorkspaceRequest): Promise<TaskWorkspace> {
  const wanted = request.isolation ?? (request.worktreeByDefault ? "worktree" : "none");
  if (wanted === "none") return { workdir: request.workdir, worktree: null };
  if (request.dataDir === null) {
    if (request.isolation === null) return { workdir: request.workdir, worktree: null };
    throw new UserError('this host cannot give a task a worktree (it has no data folder): run it with isolation "none"');
  }
  try {
    const created = await createTaskWorktree({ cwd: request.workdir, dataDir: request.dataDir, session: request.session, task: request.task, carryChanges: request.carryChanges });
    const { note, ...worktree } = created;
    const gitDir = (await runGit(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: worktree.path })).stdout.trim();
    return { workdir: worktree.path, worktree: { ...worktree, gitDir }, ...(note ? { note } : {}) };
  } catch (error) {
    if (request.isolation === null && error instanceof NotARepositoryError) return { workdir: request.workdir, worktree: null };
    throw error;
  }
}

/** The task ended: its worktree's lock is lifted (it stays, with its branch) and what changed there is measured. */
export async function closeWorkspace(workspace: TaskWorkspace): Promise<SubagentWorktree | undefined> {
  const { worktree } = workspace;
  if (!worktree) return undefined;
  await finishTaskWorktree(worktree);
  const summary = await summarizeTaskWorktree(worktree);
  return { path: worktree.path, ...summary };
}

/**
 * A bosun sub-agent's sandbox in its worktree: the worktree takes the place of the parent's
 * working folder among the writable folders, with the repository's git folder (where its commits
 * go); the user's own checkout is no longer writable for it.
 */
export function worktreeSandbox(sandbox: Sandbox, worktree: string, gitDir: string): Sandbox {
  return { ...sandbox, writable: [worktree, gitDir, ...sandbox.writable.slice(1)] };
}

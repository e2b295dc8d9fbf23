import { UserError } from "../../kernel/errors.js";

/** The folder a task was to run in is not inside a git repository (or is a bare one). */
export class NotARepositoryError extends UserError {
  override name = "NotARepositoryError";
  constructor(
    readonly folder: string,
    /** What git said. */
    readonly gitLine: string,
  ) {
    super(`${folder} is not in a git repository: ${gitLine || "git found none"}; run the task with isolation "none", or in a repository`);
  }
}

/** The repository has no commit yet: a worktree needs one to start from. */
export class NoCommitsError extends UserError {
  override name = "NoCommitsError";
  constructor(readonly repoRoot: string) {
    super(`the git repository ${repoRoot} has no commits yet, so a task worktree has nothing to start from: commit once first, or run the task with isolation "none"`);
  }
}

/** A task's branch, folder or record is already there: bosun never reuses, resets or overwrites one. */
export class WorktreeExistsError extends UserError {
  override name = "WorktreeExistsError";
  constructor(
    readonly what: "branch" | "folder" | "record",
    /** The branch name, or the path. */
    readonly existing: string,
    readonly repoRoot: string,
  ) {
    const thing = what === "branch" ? `branch ${existing} already exists in ${repoRoot}` : `${existing} already exists`;
    super(`${thing}; bosun never reuses a task's ${what}: give the task another name (bosun worktrees lists the task worktrees)`);
  }
}

/** A session or task name that cannot be a folder name and a part of a branch name. */
export class TaskNameError extends UserError {
  override name = "TaskNameError";
  constructor(
    readonly kind: "session" | "task",
    readonly value: string,
  ) {
    super(`${kind} name ${JSON.stringify(value)} cannot name a task worktree: use letters, digits, ".", "_" and "-" (starting with a letter or digit, at most 100)`);
  }
}

/** git is older than task worktrees need. */
export class GitTooOldError extends UserError {
  override name = "GitTooOldError";
  constructor(
    readonly version: readonly number[],
    readonly minimum: readonly number[],
  ) {
    super(`git ${version.join(".")} is too old for task worktrees (${minimum.join(".")} or newer is needed): update git, or run the task with isolation "none"`);
  }
}

import { runGit } from "./git.js";

/** One worktree as `git worktree list --porcelain` describes it. */
export interface GitWorktree {
  path: string;
  /** The commit checked out; null for a worktree on an unborn branch. */
  head: string | null;
  /** The branch checked out, without `refs/heads/`; null when detached (or bare). */
  branch: string | null;
  bare: boolean;
  /** The lock reason (`""` when locked without one), or null when not locked. */
  locked: string | null;
  /** Why git would prune it (its folder is gone), or null. */
  prunable: string | null;
}

/**
 * Every worktree of the repository around `cwd`, the main one first. The porcelain format
 * names paths as git stored them; a path with a newline is not supported (bosun makes none).
 */
export async function listGitWorktrees(cwd: string): Promise<GitWorktree[]> {
  const { stdout } = await runGit(["worktree", "list", "--porcelain"], { cwd, retryOnLock: true });
  return parseWorktreeList(stdout);
}

export function parseWorktreeList(output: string): GitWorktree[] {
  const worktrees: GitWorktree[] = [];
  let current: GitWorktree | undefined;
  for (const line of output.split("\n")) {
    if (line === "") {
      current = undefined;
      continue;
    }
    const space = line.indexOf(" ");
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? "" : line.slice(space + 1);
    if (key === "worktree") {
      current = { path: value, head: null, branch: null, bare: false, locked: null, prunable: null };
      worktrees.push(current);
    } else if (current) {
      if (key === "HEAD") current.head = /^0+$/.test(value) ? null : value;
      else if (key === "branch") current.branch = value.replace(/^refs\/heads\//, "");
      else if (key === "bare") current.bare = true;
      else if (key === "locked") current.locked = unquote(value);
      else if (key === "prunable") current.prunable = value;
    }
  }
  return worktrees;
}

/** git C-quotes a lock reason with a newline or a quote in it; bosun's own never has one. */
function unquote(value: string): string {
  if (!value.startsWith('"') || !value.endsWith('"') || value.length < 2) return value;
  try {
    return JSON.parse(value) as string;
  } catch {
    return value.slice(1, -1);
  }
}

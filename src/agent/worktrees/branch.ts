import { runGit } from "./git.js";

/**
 * Deletes `refs/heads/<branch>` only while it still points at `sha`: git compares and deletes
 * under its ref lock, so a branch that moved since it was checked is never lost. Throws a
 * GitError when it moved (or is gone).
 */
export async function deleteBranchAt(repoRoot: string, branch: string, sha: string): Promise<void> {
  await runGit(["update-ref", "-m", "bosun: task worktree pruned", "-d", `refs/heads/${branch}`, sha], { cwd: repoRoot, retryOnLock: true });
}

/** The commit each of bosun's branches (`bosun/…`) points at, by branch name, with one git process. */
export async function bosunBranches(repoRoot: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/bosun/"], { cwd: repoRoot });
  const branches = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const match = /^([0-9a-f]+) refs\/heads\/(.+)$/.exec(line);
    if (match) branches.set(match[2]!, match[1]!);
  }
  return branches;
}

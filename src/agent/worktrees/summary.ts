import { lstat, open } from "node:fs/promises";
import { join } from "node:path";
import { READ_ONLY_DIFF, runGit } from "./git.js";
import { isUntracked, readStatus } from "./status.js";
import type { TaskWorktree } from "./task-worktree.js";

export interface DiffStat {
  files: number;
  insertions: number;
  deletions: number;
}

/** What a task did in its worktree, measured against the commit it started from. */
export interface TaskWorktreeSummary {
  branch: string;
  base: string;
  /** The commit checked out in the worktree now. */
  head: string;
  /** Commits from `base` to `head`. */
  commits: number;
  /** Every file that differs from `base`: committed, staged, unstaged or untracked; repo-relative, sorted. */
  changedFiles: string[];
  diffStat: DiffStat;
  /** Whether anything is not committed (changes or untracked files). */
  dirty: boolean;
}

/** An untracked file larger than this counts as a changed file without lines. */
const MAX_COUNTED_BYTES = 16 * 1024 * 1024;

/**
 * Summarizes a task's worktree without changing anything in it: nothing is staged, and no git
 * command rewrites its index (GIT_OPTIONAL_LOCKS=0, and READ_ONLY_DIFF). Tracked files are measured with
 * `git diff --numstat <base>` (committed and uncommitted together, renames as a deletion and an
 * addition, binary files as a file without lines). git has no lines for untracked files, so they
 * are counted here the way git would count a new file: each line is an insertion; a binary file
 * (a NUL byte in its first 8 KiB) or one over 16 MiB counts as a file only.
 */
export async function summarizeTaskWorktree(wt: Pick<TaskWorktree, "path" | "branch" | "base">): Promise<TaskWorktreeSummary> {
  const cwd = wt.path;
  const [head, count, status, numstat] = await Promise.all([
    runGit(["rev-parse", "--verify", "HEAD^{commit}"], { cwd }),
    runGit(["rev-list", "--count", `${wt.base}..HEAD`], { cwd }),
    readStatus(cwd),
    runGit([...READ_ONLY_DIFF, "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", wt.base, "--"], { cwd }),
  ]);
  const files = new Set<string>();
  const stat: DiffStat = { files: 0, insertions: 0, deletions: 0 };
  for (const entry of parseNumstat(numstat.stdout)) {
    files.add(entry.path);
    stat.insertions += entry.insertions;
    stat.deletions += entry.deletions;
  }
  const untracked = status.filter(isUntracked).map((entry) => entry.path);
  const lines = await Promise.all(untracked.map((path) => countLines(join(cwd, path))));
  untracked.forEach((path, i) => {
    files.add(path);
    stat.insertions += lines[i]!;
  });
  const changedFiles = [...files].sort();
  stat.files = changedFiles.length;
  return { branch: wt.branch, base: wt.base, head: head.stdout.trim(), commits: Number(count.stdout.trim()), changedFiles, diffStat: stat, dirty: status.length > 0 };
}

/** `git diff --numstat -z`: `added\tdeleted\tpath\0` per file, `-\t-` for a binary one. */
export function parseNumstat(output: string): { path: string; insertions: number; deletions: number }[] {
  return output
    .split("\0")
    .filter((field) => field !== "")
    .flatMap((field) => {
      const match = /^(\d+|-)\t(\d+|-)\t([^]*)$/.exec(field);
      if (!match) return [];
      return [{ path: match[3]!, insertions: match[1] === "-" ? 0 : Number(match[1]), deletions: match[2] === "-" ? 0 : Number(match[2]) }];
    });
}

/** Lines of a text file as git counts them (a last line without a newline counts); 0 for binary or very large files. */
async function countLines(file: string): Promise<number> {
  // A symlink's content, for git, is its target: one line.
  if ((await lstat(file).catch(() => undefined))?.isSymbolicLink()) return 1;
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return 0;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_COUNTED_BYTES || info.size === 0) return 0;
    const data = await handle.readFile();
    if (data.subarray(0, 8000).includes(0)) return 0;
    let lines = 0;
    for (let at = data.indexOf(10); at >= 0; at = data.indexOf(10, at + 1)) lines++;
    return data[data.length - 1] === 10 ? lines : lines + 1;
  } finally {
    await handle.close();
  }
}

import { runGit } from "./git.js";

/** One line of `git status --porcelain`: what changed in the index (`x`) and in the work tree (`y`). */
export interface StatusEntry {
  /** `?` for an untracked file, space for unchanged, else git's letter (M, A, D, R, C, U, T). */
  x: string;
  y: string;
  /** Repo-relative, with `/`. */
  path: string;
  /** The path it came from, for a rename or copy in the index. */
  from?: string;
}

/**
 * The uncommitted changes of a work tree: staged and unstaged changes and each untracked file
 * that is not ignored (inside untracked folders too). Reads only: no index refresh is written
 * (git runs with GIT_OPTIONAL_LOCKS=0, see git.ts).
 */
export async function readStatus(cwd: string): Promise<StatusEntry[]> {
  const { stdout } = await runGit(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none"], { cwd });
  return parseStatus(stdout);
}

/** Parses `git status --porcelain=v1 -z`: `XY path\0`, and `XY path\0from\0` for a rename or copy. */
export function parseStatus(output: string): StatusEntry[] {
  const fields = output.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const entry: StatusEntry = { x: field[0]!, y: field[1]!, path: field.slice(3) };
    if (entry.x === "R" || entry.x === "C") entry.from = fields[++i];
    entries.push(entry);
  }
  return entries;
}

export function isUntracked(entry: StatusEntry): boolean {
  return entry.x === "?";
}

/** Whether any entry changes the index (a staged change). */
export function hasStaged(entries: readonly StatusEntry[]): boolean {
  return entries.some((entry) => entry.x !== " " && entry.x !== "?" && entry.x !== "!");
}

/** Whether any tracked file differs between the index and the work tree (an unstaged change). */
export function hasUnstaged(entries: readonly StatusEntry[]): boolean {
  return entries.some((entry) => entry.y !== " " && entry.x !== "?" && entry.x !== "!");
}

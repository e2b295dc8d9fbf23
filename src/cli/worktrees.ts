import type { Command } from "commander";
import type { WorktreeProblem } from "../agent/worktrees/walk.js";
import type { TaskWorktreeEntry, WorktreeState } from "../agent/worktrees/worktree-state.js";
import type { PruneResult } from "../agent/worktrees/worktree-prune.js";
import { displayPath } from "../kernel/paths.js";
import { realPathOrSelf } from "../kernel/fs/stat.js";
import { bootForCommand } from "./boot.js";
import { timeAgo } from "./catalog-words.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";

type Style = ReturnType<typeof styler>;

export function registerWorktrees(program: Command, output: Output): void {
  const worktrees = program
    .command("worktrees")
    .description("list the git worktrees bosun's agent made for its tasks, with what each holds")
    .option("--json", "print the list as JSON")
    .action(async (options: { json?: boolean }) => {
      const boot = await bootForCommand(output, { skipConfig: true });
      const { listTaskWorktrees } = await import("../agent/worktrees/worktree-list.js");
      const listing = await listTaskWorktrees({ dataDir: boot.paths.data });
      if (options.json) return writeJson(output, listing);
      const style = styler(output);
      const show = pathShower(boot.paths.home);
      if (listing.worktrees.length === 0 && listing.problems.length === 0) return writeLine(output.stdout, style("dim", "no task worktrees"));
      if (listing.worktrees.length > 0) {
        const rows = [["STATE", "BRANCH", "REPO", "CHANGES", "AGE", "PATH"].map((h) => style("bold", h))];
        for (const entry of listing.worktrees) rows.push([stateWord(entry.state, style), entry.branch, show(entry.repoRoot), changes(entry), age(entry), show(entry.path)]);
        for (const line of columns(rows, "")) writeLine(output.stdout, line);
      }
      for (const line of problemLines(listing.problems, style, show)) writeLine(output.stdout, line);
    });

  worktrees
    .command("prune")
    .description("remove the task worktrees that are finished and merged, with their branches; keep every other, saying why")
    .option("--dry-run", "say what would be removed, and remove nothing")
    .option("--json", "print what was removed and kept as JSON")
    .action(async (options: { dryRun?: boolean; json?: boolean }) => {
      const boot = await bootForCommand(output, { skipConfig: true });
      const { pruneTaskWorktrees } = await import("../agent/worktrees/worktree-prune.js");
      const result = await pruneTaskWorktrees({ dataDir: boot.paths.data, dryRun: options.dryRun ?? false });
      if (options.json) return writeJson(output, result);
      for (const line of pruneLines(result, styler(output), pathShower(boot.paths.home))) writeLine(output.stdout, line);
    });
}

/** One line for each worktree removed (or that would be), kept, or left alone as a problem. */
function pruneLines(result: PruneResult, style: Style, show: (path: string) => string): string[] {
  if (result.removed.length + result.kept.length + result.problems.length === 0) return [style("dim", "no task worktrees")];
  const lines: string[] = [];
  for (const removed of result.removed) {
    const verb = result.dryRun ? "would remove" : "removed";
    const branch = removed.branchDeleted ? ` and branch ${removed.branch}` : "";
    const what = removed.state === "missing" ? `git's entry for ${show(removed.path)} (its folder was gone)` : show(removed.path);
    lines.push(`${style("green", verb)} ${what}${branch}${removed.note ? `; ${removed.note}` : ""}`);
  }
  for (const kept of result.kept) lines.push(`${style("bold", "kept")} ${show(kept.path)}: ${kept.state}: ${kept.reason}`);
  lines.push(...problemLines(result.problems, style, show));
  return lines;
}

function problemLines(problems: readonly WorktreeProblem[], style: Style, show: (path: string) => string): string[] {
  return problems.map((problem) => style("yellow", `problem: ${show(problem.path)}: ${problem.problem}`));
}

function stateWord(state: WorktreeState, style: Style): string {
  switch (state) {
    case "running":
      return style("green", state);
    case "interrupted":
    case "dirty":
    case "unmerged":
      return style("yellow", state);
    case "missing":
      return style("red", state);
    case "locked":
    case "merged":
      return style("dim", state);
  }
}

/** Commits since the task started and files not committed: `2 commits, 3 uncommitted`. */
function changes(entry: TaskWorktreeEntry): string {
  if (!entry.folderExists) return entry.uniqueCommits > 0 ? `folder gone, ${plural(entry.uniqueCommits, "commit")} only here` : "folder gone";
  const parts: string[] = [];
  if (entry.commits !== null) parts.push(plural(entry.commits, "commit"));
  else if (entry.uniqueCommits > 0) parts.push(`${plural(entry.uniqueCommits, "commit")} only here`);
  if (entry.uncommittedFiles) parts.push(`${entry.uncommittedFiles} uncommitted`);
  return parts.join(", ") || "no changes";
}

function age(entry: TaskWorktreeEntry): string {
  if (!entry.createdAt) return "-";
  const ms = Date.now() - Date.parse(entry.createdAt);
  return Number.isNaN(ms) ? "-" : timeAgo(Math.max(0, ms));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Paths for display with the home folder as `~`; worktree paths are real paths, so the home is compared as one too. */
function pathShower(home: string): (path: string) => string {
  const realHome = realPathOrSelf(home);
  return (path) => displayPath(displayPath(path, realHome), home);
}

import type { SubagentStatus, SubagentWorktree, TokenUsage } from "../session/format.js";
import type { ToolResult } from "../tools/tool.js";

/** How one task of an `agent` call ended. */
export interface SubagentOutcome {
  /** 1-based position in the call. */
  task: number;
  /** Who ran it: "bosun", or one of the user's agent CLIs (as the call named it). */
  kind: string;
  status: SubagentStatus;
  /** Null when the task never started (cancelled while it waited for its turn), and for external agents (not continuable). */
  sessionId: string | null;
  /** The final answer, or why there is none. */
  text: string;
  turns: number;
  ms: number;
  usage?: TokenUsage;
  costUsd?: number | null;
  /** Its worktree and what changed there, when it ran in one. */
  worktree?: SubagentWorktree;
}

/**
 * What the model reads back from an `agent` call. One task: its answer in a `<subagent>` element
 * with its session id. Several: a header with the counts and one element per task, in task
 * order, each with its status and session id. The call is an error when no task completed, so
 * the model (and the session's tool status) sees the failure; a failed task keeps its session id,
 * so the model can continue just that one.
 */
export function subagentReport(outcomes: SubagentOutcome[], width: number): ToolResult {
  const count = (status: SubagentStatus) => outcomes.filter((outcome) => outcome.status === status).length;
  const completed = count("completed");
  const failed = count("failed");
  const cancelled = count("cancelled");
  const stopped = count("stopped");
  const isError = completed === 0;
  if (outcomes.length === 1) {
    const outcome = outcomes[0]!;
    const hint = outcome.status === "failed" && outcome.sessionId ? "\nContinue it with this session_id to pick up where it stopped, or do the task yourself." : "";
    return {
      output: element(outcome, null) + hint,
      isError,
      summary: outcome.status === "completed" ? `completed in ${turns(outcome.turns)}` : `${outcome.status}: ${firstLine(outcome.text)}`,
    };
  }
  const counts = [`${completed} completed`, ...(failed ? [`${failed} failed`] : []), ...(cancelled ? [`${cancelled} cancelled`] : []), ...(stopped ? [`${stopped} stopped by a cap`] : [])].join(", ");
  const how = width === 1 ? "one at a time" : `${width} at a time`;
  const header = isError
    ? `All ${outcomes.length} sub-agents ended without an answer (${how}): ${counts}.`
    : `${outcomes.length} sub-agents ran (${how}): ${counts}.`;
  const body = outcomes.map((outcome) => element(outcome, outcomes.length)).join("\n\n");
  return { output: `${header}\n\n${body}`, isError, summary: `${outcomes.length} sub-agents: ${counts}` };
}

function element(outcome: SubagentOutcome, tasks: number | null): string {
  const task = tasks === null ? "" : ` task="${outcome.task}/${tasks}"`;
  const kind = outcome.kind === "bosun" ? "" : ` agent="${outcome.kind}"`;
  const session = outcome.sessionId ? ` sessionID="${outcome.sessionId}"` : "";
  const worktree = outcome.worktree ? `\n${worktreeLines(outcome.worktree)}` : "";
  return `<subagent${task}${kind}${session} state="${outcome.status}">\n${outcome.text}${worktree}\n</subagent>`;
}

/** Where an isolated task's work is: its branch and worktree, and what changed there. */
export function worktreeLines(worktree: SubagentWorktree): string {
  const { files, insertions, deletions } = worktree.diffStat;
  if (files === 0 && worktree.commits === 0) return `Worktree: ${worktree.path} (branch ${worktree.branch}): nothing changed.`;
  const commits = worktree.commits === 0 ? "no commits" : `${worktree.commits} commit${worktree.commits === 1 ? "" : "s"}`;
  const state = worktree.dirty ? ", with uncommitted changes" : "";
  const shown = worktree.changedFiles.slice(0, 20).join(", ") + (worktree.changedFiles.length > 20 ? `, and ${worktree.changedFiles.length - 20} more` : "");
  return [
    `Worktree: ${worktree.path} (branch ${worktree.branch}): ${files} file${files === 1 ? "" : "s"} changed, +${insertions} -${deletions}, ${commits}${state}.`,
    `Changed: ${shown}`,
  ].join("\n");
}

function turns(count: number): string {
  return `${count} turn${count === 1 ? "" : "s"}`;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

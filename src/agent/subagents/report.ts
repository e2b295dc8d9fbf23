import type { SubagentStatus } from "../session/format.js";
import type { ToolResult } from "../tools/tool.js";

/** How one task of an `agent` call ended. */
export interface SubagentOutcome {
  /** 1-based position in the call. */
  task: number;
  status: SubagentStatus;
  /** Null when the task never started (cancelled while it waited for its turn). */
  sessionId: string | null;
  /** The final answer, or why there is none. */
  text: string;
  turns: number;
  ms: number;
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
  const counts = [`${completed} completed`, ...(failed ? [`${failed} failed`] : []), ...(cancelled ? [`${cancelled} cancelled`] : [])].join(", ");
  const how = width === 1 ? "one at a time" : `${width} at a time`;
  const header = isError
    ? `All ${outcomes.length} sub-agents ended without an answer (${how}): ${counts}.`
    : `${outcomes.length} sub-agents ran (${how}): ${counts}.`;
  const body = outcomes.map((outcome) => element(outcome, outcomes.length)).join("\n\n");
  return { output: `${header}\n\n${body}`, isError, summary: `${outcomes.length} sub-agents: ${counts}` };
}

function element(outcome: SubagentOutcome, tasks: number | null): string {
  const task = tasks === null ? "" : ` task="${outcome.task}/${tasks}"`;
  const session = outcome.sessionId ? ` sessionID="${outcome.sessionId}"` : "";
  return `<subagent${task}${session} state="${outcome.status}">\n${outcome.text}\n</subagent>`;
}

function turns(count: number): string {
  return `${count} turn${count === 1 ? "" : "s"}`;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

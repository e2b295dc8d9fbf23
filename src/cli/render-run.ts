import type { AgentEvent, AgentUi, SubagentRef } from "../agent/events.js";
import type { SubagentStatus, ToolStatus } from "../agent/session/format.js";
import { oneLine } from "../agent/session/list.js";
import type { PlanItem } from "../agent/tools/tool.js";
import type { ModelPrice } from "../llm/model-target.js";
import { formatTokens } from "../llm/token-count.js";
import { styler, writeLine, type Output } from "./output.js";
import type { UnapprovedCall } from "./run-refusals.js";
import { UsageTally, type RunStats } from "./run-stats.js";
import type { WaitSpinner } from "./spinner.js";

export interface ToolCallRecord {
  tool: string;
  description: string;
  status: ToolStatus;
  summary: string;
  ms: number;
}

/** One sub-agent run of the tree, for the `--json` result. */
export interface SubagentRecord {
  id: string;
  depth: number;
  task: number;
  tasks: number;
  prompt: string;
  status: SubagentStatus;
  ms: number;
  turns: number;
  error?: string;
}

export interface RunRenderer extends AgentUi {
  /** Every tool call of the run, for the `--json` result. */
  readonly toolCalls: ToolCallRecord[];
  /** Every sub-agent run, at any depth, in the order they ended. */
  readonly subagents: SubagentRecord[];
  /** Calls refused because they needed approval nobody could give (sub-agents' included). */
  readonly unapproved: UnapprovedCall[];
  /** The run's numbers so far (`turns` and `wallMs` come from the caller). */
  stats(turns: number, wallMs: number, prices: ModelPrice[] | null): RunStats;
  /** Ends the streamed text with a newline if it needs one, and stops the spinner. */
  finish(): void;
}

export interface RunRendererOptions {
  json: boolean;
  /** Shown while the top-level agent waits for the model (on a terminal only). */
  spinner?: WaitSpinner | null;
}

const WAITING = "waiting for the model";

/**
 * Shows a run: the model's text streams to stdout as it arrives (not with `--json`, whose stdout
 * is the final result alone); tool calls, retries, compaction and the plan go to stderr.
 * Sub-agents show on stderr too, each line tagged `#N` (the sub-agent's number in the tree) and
 * indented by depth; their text is not shown (their answers come back to the model). Every
 * stderr write is one whole line, so parallel sub-agents never interleave within a line. After a
 * top-level command, its last lines of output follow its result, dimmed. While the top-level agent
 * waits for the model, the spinner (if any) runs; it is cleared for every line written.
 */
export function createRunRenderer(output: Output, options: RunRendererOptions): RunRenderer {
  const style = styler(output, "stderr");
  const spinner = options.spinner ?? null;
  const toolCalls: ToolCallRecord[] = [];
  const subagents: SubagentRecord[] = [];
  const unapproved: UnapprovedCall[] = [];
  const usage = new UsageTally();
  const descriptions = new Map<string, string>();
  const prompts = new Map<string, string>();
  let openLine = false;
  /** The label and start of the wait the spinner shows, or null when the agent is not waiting. */
  let waiting: { label: string; since: number } | null = null;
  const wait = (label: string | null) => {
    waiting = label === null ? null : { label, since: Date.now() };
    if (waiting) spinner?.start(waiting.label, waiting.since);
    else spinner?.stop();
  };
  // With --quiet, progress lines are left out; notices (something the user should know) are not.
  const err = (line: string, kind: "progress" | "notice" = "progress") => {
    if (kind === "progress" && output.verbosity === "quiet") return;
    spinner?.stop();
    endText();
    writeLine(output.stderr, line);
    if (waiting) spinner?.start(waiting.label, waiting.since);
  };
  const endText = () => {
    if (openLine) output.stdout.write("\n");
    openLine = false;
  };
  const marks: Record<ToolStatus, string> = { ok: style("green", "✓"), error: style("red", "✗"), denied: style("yellow", "⊘"), vetoed: style("yellow", "⊘"), aborted: style("yellow", "⊘") };
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

  /** The stderr line for a progress event (a top-level agent's, or a sub-agent's with `tag`), if it has one. */
  const progressLine = (event: AgentEvent, tag: string): string | null => {
    switch (event.type) {
      case "tool-start":
        return style("dim", `${tag}→ ${event.description}`);
      case "tool-end":
        return `${tag}  ${marks[event.status]} ${event.summary}${event.ms >= 1000 ? style("dim", ` (${seconds(event.ms)})`) : ""}`;
      case "retry":
        return style(
          "yellow",
          `${tag}bosun: the model call failed (${event.reason})${event.hadPartialReply ? " partway through its reply, which starts over" : ""}; retrying in ${seconds(event.delayMs)} (retry ${event.attempt})`,
        );
      case "compaction":
        return style(
          "dim",
          `${tag}bosun: context compacted (${event.step === "stub" ? "old tool outputs moved to files" : "earlier turns summarized"}): about ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens`,
        );
      case "notice":
        return style("yellow", `${tag}bosun: ${event.message}`);
      default:
        return null;
    }
  };
  const subagentTag = (agent: SubagentRef) => `${"  ".repeat(agent.depth - 1)}${style("cyan", `#${agent.seq}`)} `;
  /** Usage (replies and compaction summaries) and refusals, from the top-level agent and from every sub-agent. */
  const account = (event: AgentEvent) => {
    if (event.type === "reply-end" || event.type === "summary-end") usage.add(event.usage);
    else if (event.type === "tool-end" && event.unapproved) unapproved.push({ tool: event.tool, ...event.unapproved });
    else if (event.type === "subagent-event") account(event.event);
  };
  const width = Math.max(20, ((output.stderr as { columns?: number }).columns ?? 120) - 6);

  return {
    toolCalls,
    subagents,
    unapproved,
    stats: (turns, wallMs, prices) => ({
      turns,
      toolCalls: toolCalls.length,
      subagents: subagents.length,
      tokens: { ...usage.tokens },
      costUsd: usage.cost(prices),
      wallMs,
      unapproved: unapproved.length,
    }),
    finish() {
      wait(null);
      endText();
    },
    onEvent(event: AgentEvent) {
      account(event);
      switch (event.type) {
        case "turn-start":
          wait(WAITING);
          return;
        case "text":
          if (event.delta === "") return;
          wait(null);
          if (options.json) return;
          output.stdout.write(event.delta);
          openLine = !event.delta.endsWith("\n");
          return;
        case "reply-end":
          wait(null);
          endText();
          return;
        case "tool-start":
          wait(null);
          descriptions.set(event.callId, event.description);
          break;
        case "tool-end": {
          const description = descriptions.get(event.callId) ?? event.tool;
          toolCalls.push({ tool: event.tool, description, status: event.status, summary: event.summary, ms: event.ms });
          if (!descriptions.has(event.callId)) err(style("dim", `→ ${description}`));
          const line = progressLine(event, "");
          if (line !== null) err(line);
          for (const tailLine of event.outputTail ?? []) err(style("dim", `    ${displayLine(tailLine, width)}`));
          return;
        }
        case "subagent-start": {
          prompts.set(`${event.agent.id}#${event.agent.seq}`, event.prompt);
          const what = event.continued ? "continued" : `task ${event.agent.task}/${event.agent.tasks}`;
          err(`${subagentTag(event.agent)}${style("bold", "sub-agent")} ${style("dim", `(${what}, ${event.agent.id}):`)} ${oneLine(event.prompt, 100)}`);
          return;
        }
        case "subagent-event": {
          const line = progressLine(event.event, subagentTag(event.agent));
          if (line !== null) err(line, event.event.type === "notice" ? "notice" : "progress");
          return;
        }
        case "subagent-end": {
          const { agent } = event;
          subagents.push({ id: agent.id, depth: agent.depth, task: agent.task, tasks: agent.tasks, prompt: prompts.get(`${agent.id}#${agent.seq}`) ?? "", status: event.status, ms: event.ms, turns: event.turns, ...(event.error ? { error: event.error } : {}) });
          const how =
            event.status === "completed"
              ? style("green", `completed in ${seconds(event.ms)} (${event.turns} turn${event.turns === 1 ? "" : "s"})`)
              : style(event.status === "failed" ? "red" : "yellow", `${event.status} after ${seconds(event.ms)}${event.error ? `: ${oneLine(event.error, 160)}` : ""}`);
          err(`${subagentTag(agent)}${style("bold", "sub-agent")} ${how}`);
          return;
        }
        default:
          break;
      }
      const line = progressLine(event, "");
      if (line !== null) err(line, event.type === "notice" ? "notice" : "progress");
      if (event.type === "retry") wait(`${WAITING} (retry ${event.attempt})`);
    },
    showPlan(items: PlanItem[]) {
      err(style("bold", "plan:"));
      for (const item of items) err(`  ${item.status === "done" ? style("green", "[x]") : item.status === "in_progress" ? style("cyan", "[>]") : "[ ]"} ${item.step}`);
    },
  };
}

/** A line of a command's output (plain text: the tool took its control sequences out before redacting it), cut to `width`. */
export function displayLine(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

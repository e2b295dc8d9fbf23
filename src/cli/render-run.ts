import type { AgentEvent, AgentUi, SubagentRef } from "../agent/events.js";
import type { SubagentStatus, SubagentWorktree, ToolStatus } from "../agent/session/format.js";
import { oneLine } from "../agent/session/list.js";
import type { PlanItem } from "../agent/tools/tool.js";
import type { ModelPrice } from "../llm/model-target.js";
import { formatTokens } from "../llm/token-count.js";
import { styler, writeLine, type Output } from "./output.js";
import type { UnapprovedCall } from "./run-refusals.js";
import { formatUsd, UsageTally, type RunStats } from "./run-stats.js";
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
  /** "bosun", or the user's agent CLI that ran it. */
  kind: string;
  status: SubagentStatus;
  ms: number;
  turns: number;
  /** Its own model calls' tokens. */
  tokens: { input: number; output: number };
  /** USD, null when unknown (no price in the catalog, and the CLI reported none). */
  costUsd: number | null;
  /** Its worktree (branch, changed files, diff stat) when it ran in one. */
  worktree?: SubagentWorktree;
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

type Style = ReturnType<typeof styler>;

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
  const screen = createScreen(output, options.spinner ?? null);
  const { wait, err } = screen;
  const toolCalls: ToolCallRecord[] = [];
  const subagents: SubagentRecord[] = [];
  const unapproved: UnapprovedCall[] = [];
  const usage = new UsageTally();
  const descriptions = new Map<string, string>();
  const prompts = new Map<string, string>();
  const width = Math.max(20, ((output.stderr as { columns?: number }).columns ?? 120) - 6);

  return {
    toolCalls,
    subagents,
    unapproved,
    stats: (turns, wallMs, prices) => ({
      turns,
      toolCalls: toolCalls.length,
      subagents: subagents.length,
      ...(subagents.length > 0 ? { subagentTotals: subagentTotals(subagents) } : {}),
      tokens: { ...usage.tokens },
      costUsd: usage.cost(prices),
      wallMs,
      unapproved: unapproved.length,
    }),
    finish() {
      wait(null);
      screen.endText();
    },
    onEvent(event: AgentEvent) {
      account(event, usage, unapproved);
      switch (event.type) {
        case "turn-start":
          wait(WAITING);
          return;
        case "text":
          if (event.delta === "") return;
          wait(null);
          if (!options.json) screen.text(event.delta);
          return;
        case "reply-end":
          wait(null);
          screen.endText();
          return;
        case "tool-start":
          wait(null);
          descriptions.set(event.callId, event.description);
          break;
        case "tool-end": {
          const description = descriptions.get(event.callId) ?? event.tool;
          toolCalls.push({ tool: event.tool, description, status: event.status, summary: event.summary, ms: event.ms });
          for (const line of toolEndLines(style, event, descriptions.has(event.callId) ? null : description, width)) err(line);
          return;
        }
        case "subagent-start":
          prompts.set(`${event.agent.id}#${event.agent.seq}`, event.prompt);
          err(subagentStartLine(style, event));
          return;
        case "subagent-event": {
          const line = progressLine(style, event.event, subagentTag(style, event.agent));
          if (line !== null) err(line, event.event.type === "notice" ? "notice" : "progress");
          return;
        }
        case "subagent-end":
          subagents.push(subagentRecord(event, prompts.get(`${event.agent.id}#${event.agent.seq}`) ?? ""));
          err(subagentEndLine(style, event));
          return;
        default:
          break;
      }
      const line = progressLine(style, event, "");
      if (line !== null) err(line, event.type === "notice" ? "notice" : "progress");
      if (event.type === "retry") wait(`${WAITING} (retry ${event.attempt})`);
    },
    showPlan(items: PlanItem[]) {
      err(style("bold", "plan:"));
      for (const item of items) err(planLine(style, item));
    },
  };
}

/** Usage (replies and compaction summaries) and refusals, from the top-level agent and from every sub-agent. */
function account(event: AgentEvent, usage: UsageTally, unapproved: UnapprovedCall[], external = false): void {
  if (event.type === "reply-end" || event.type === "summary-end") {
    // The user's agent CLIs run their own models: their tokens count, their cost comes at their end.
    if (external) usage.addUnpriced(event.usage);
    else usage.add(event.usage);
  } else if (event.type === "tool-end" && event.unapproved) unapproved.push({ tool: event.tool, ...event.unapproved });
  else if (event.type === "subagent-event") account(event.event, usage, unapproved, external || event.agent.kind !== undefined);
  else if (event.type === "subagent-end" && event.agent.kind !== undefined) usage.addCost(event.costUsd ?? null);
}

/** Where a run's lines go: the model's text to stdout, whole lines to stderr, the spinner between. */
interface Screen {
  /** Starts the spinner with `label`, or stops it (null) when the agent no longer waits. */
  wait(label: string | null): void;
  /** Writes one stderr line; with --quiet, progress lines are left out, notices (something the user should know) are not. */
  err(line: string, kind?: "progress" | "notice"): void;
  /** Streams a piece of the model's text to stdout. */
  text(delta: string): void;
  /** Ends the streamed text with a newline if it needs one. */
  endText(): void;
}

/** The spinner is cleared for every stderr line and restarted after it, so a line is never cut by it. */
function createScreen(output: Output, spinner: WaitSpinner | null): Screen {
  let openLine = false;
  /** The label and start of the wait the spinner shows, or null when the agent is not waiting. */
  let waiting: { label: string; since: number } | null = null;
  const endText = () => {
    if (openLine) output.stdout.write("\n");
    openLine = false;
  };
  return {
    wait(label) {
      waiting = label === null ? null : { label, since: Date.now() };
      if (waiting) spinner?.start(waiting.label, waiting.since);
      else spinner?.stop();
    },
    err(line, kind = "progress") {
      if (kind === "progress" && output.verbosity === "quiet") return;
      spinner?.stop();
      endText();
      writeLine(output.stderr, line);
      if (waiting) spinner?.start(waiting.label, waiting.since);
    },
    text(delta) {
      output.stdout.write(delta);
      openLine = !delta.endsWith("\n");
    },
    endText,
  };
}

/** The stderr line for a progress event (a top-level agent's, or a sub-agent's with `tag`), if it has one. */
function progressLine(style: Style, event: AgentEvent, tag: string): string | null {
  switch (event.type) {
    case "tool-start":
      return style("dim", `${tag}→ ${event.description}`);
    case "tool-end":
      return toolEndLine(style, event, tag);
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
}

/** A finished tool call: its mark and summary, and how long it took when that was a second or more. */
function toolEndLine(style: Style, event: Extract<AgentEvent, { type: "tool-end" }>, tag: string): string {
  return `${tag}  ${statusMark(style, event.status)} ${event.summary}${event.ms >= 1000 ? style("dim", ` (${seconds(event.ms)})`) : ""}`;
}

/** The mark before a tool call's summary: done, failed, or not run (denied, vetoed, aborted). */
function statusMark(style: Style, status: ToolStatus): string {
  if (status === "ok") return style("green", "✓");
  if (status === "error") return style("red", "✗");
  return style("yellow", "⊘");
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The lines of a finished tool call: its description first when no start was shown (`unseen`),
 * then its summary, then the last lines of a command's output.
 */
function toolEndLines(style: Style, event: Extract<AgentEvent, { type: "tool-end" }>, unseen: string | null, width: number): string[] {
  const lines = unseen === null ? [] : [style("dim", `→ ${unseen}`)];
  lines.push(toolEndLine(style, event, ""));
  for (const tailLine of event.outputTail ?? []) lines.push(style("dim", `    ${displayLine(tailLine, width)}`));
  return lines;
}

/** A sub-agent's lines start with its number in the tree, indented by its depth. */
function subagentTag(style: Style, agent: SubagentRef): string {
  return `${"  ".repeat(agent.depth - 1)}${style("cyan", `#${agent.seq}`)} `;
}

function subagentName(agent: SubagentRef): string {
  return agent.kind ? `${agent.kind} sub-agent` : "sub-agent";
}

function subagentStartLine(style: Style, event: Extract<AgentEvent, { type: "subagent-start" }>): string {
  const what = event.continued ? "continued" : `task ${event.agent.task}/${event.agent.tasks}`;
  return `${subagentTag(style, event.agent)}${style("bold", subagentName(event.agent))} ${style("dim", `(${what}, ${event.agent.id}):`)} ${oneLine(event.prompt, 100)}`;
}

function subagentEndLine(style: Style, event: Extract<AgentEvent, { type: "subagent-end" }>): string {
  const spent = [`${event.turns} turn${event.turns === 1 ? "" : "s"}`];
  const tokens = (event.usage?.inputTokens ?? 0) + (event.usage?.outputTokens ?? 0);
  if (tokens > 0) spent.push(`${formatTokens(tokens)} tokens`);
  if (typeof event.costUsd === "number") spent.push(formatUsd(event.costUsd));
  const how =
    event.status === "completed"
      ? style("green", `completed in ${seconds(event.ms)} (${spent.join(", ")})`)
      : style(event.status === "failed" ? "red" : "yellow", `${event.status} after ${seconds(event.ms)}${event.error ? `: ${oneLine(event.error, 160)}` : ""}`);
  const where = event.worktree ? style("dim", ` · ${worktreeLine(event.worktree)}`) : "";
  return `${subagentTag(style, event.agent)}${style("bold", subagentName(event.agent))} ${how}${where}`;
}

/** `branch bosun/…: 2 files changed, +10 -1, 1 commit` */
function worktreeLine(worktree: SubagentWorktree): string {
  const { files, insertions, deletions } = worktree.diffStat;
  const commits = worktree.commits > 0 ? `, ${worktree.commits} commit${worktree.commits === 1 ? "" : "s"}` : "";
  return `branch ${worktree.branch}: ${files === 0 ? "no changes" : `${files} file${files === 1 ? "" : "s"} changed, +${insertions} -${deletions}`}${commits}`;
}

/** What the sub-agents used together: tokens, cost (null when one's is unknown) and time (their runs' sum). */
function subagentTotals(records: readonly SubagentRecord[]): NonNullable<RunStats["subagentTotals"]> {
  let costUsd: number | null = 0;
  const tokens = { input: 0, output: 0 };
  let ms = 0;
  for (const record of records) {
    tokens.input += record.tokens.input;
    tokens.output += record.tokens.output;
    ms += record.ms;
    costUsd = costUsd === null || record.costUsd === null ? null : costUsd + record.costUsd;
  }
  return { tokens, costUsd: costUsd === null ? null : Number(costUsd.toFixed(10)), ms };
}

/** The `--json` record of a sub-agent run that ended, with the prompt it was started with. */
function subagentRecord(event: Extract<AgentEvent, { type: "subagent-end" }>, prompt: string): SubagentRecord {
  const { agent } = event;
  return {
    id: agent.id,
    depth: agent.depth,
    task: agent.task,
    tasks: agent.tasks,
    prompt,
    kind: agent.kind ?? "bosun",
    status: event.status,
    ms: event.ms,
    turns: event.turns,
    tokens: { input: event.usage?.inputTokens ?? 0, output: event.usage?.outputTokens ?? 0 },
    costUsd: event.costUsd ?? null,
    ...(event.worktree ? { worktree: event.worktree } : {}),
    ...(event.error ? { error: event.error } : {}),
  };
}

function planLine(style: Style, item: PlanItem): string {
  return `  ${item.status === "done" ? style("green", "[x]") : item.status === "in_progress" ? style("cyan", "[>]") : "[ ]"} ${item.step}`;
}

/** A line of a command's output (plain text: the tool took its control sequences out before redacting it), cut to `width`. */
export function displayLine(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

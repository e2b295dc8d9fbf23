import type { AgentEvent, AgentUi, SubagentRef } from "../agent/events.js";
import type { SubagentStatus, ToolStatus } from "../agent/session-format.js";
import { oneLine } from "../agent/session-list.js";
import type { PlanItem } from "../agent/tools/tool.js";
import { styler, writeLine, type Output } from "./output.js";

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
  /** Ends the streamed text with a newline if it needs one. */
  finish(): void;
}

/**
 * Shows a run: the model's text streams to stdout as it arrives (not with `--json`, whose stdout
 * is the final result alone); tool calls, retries, compaction and the plan go to stderr.
 * Sub-agents show on stderr too, each line tagged `#N` (the sub-agent's number in the tree) and
 * indented by depth; their text is not shown (their answers come back to the model). Every
 * stderr write is one whole line, so parallel sub-agents never interleave within a line.
 */
export function createRunRenderer(output: Output, options: { json: boolean }): RunRenderer {
  const style = styler(output, "stderr");
  const toolCalls: ToolCallRecord[] = [];
  const subagents: SubagentRecord[] = [];
  const descriptions = new Map<string, string>();
  const prompts = new Map<string, string>();
  let openLine = false;
  const err = (line: string) => {
    endText();
    writeLine(output.stderr, line);
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
          `${tag}bosun: context compacted (${event.step === "stub" ? "old tool outputs moved to files" : "earlier turns summarized"}): about ${event.tokensBefore.toLocaleString("en-US")} → ${event.tokensAfter.toLocaleString("en-US")} tokens`,
        );
      case "notice":
        return style("yellow", `${tag}bosun: ${event.message}`);
      default:
        return null;
    }
  };
  const subagentTag = (agent: SubagentRef) => `${"  ".repeat(agent.depth - 1)}${style("cyan", `#${agent.seq}`)} `;

  return {
    toolCalls,
    subagents,
    finish: endText,
    onEvent(event: AgentEvent) {
      switch (event.type) {
        case "text":
          if (options.json || event.delta === "") return;
          output.stdout.write(event.delta);
          openLine = !event.delta.endsWith("\n");
          return;
        case "reply-end":
          endText();
          return;
        case "tool-start":
          descriptions.set(event.callId, event.description);
          break;
        case "tool-end": {
          const description = descriptions.get(event.callId) ?? event.tool;
          toolCalls.push({ tool: event.tool, description, status: event.status, summary: event.summary, ms: event.ms });
          if (!descriptions.has(event.callId)) err(style("dim", `→ ${description}`));
          break;
        }
        case "subagent-start": {
          prompts.set(`${event.agent.id}#${event.agent.seq}`, event.prompt);
          const what = event.continued ? "continued" : `task ${event.agent.task}/${event.agent.tasks}`;
          err(`${subagentTag(event.agent)}${style("bold", "sub-agent")} ${style("dim", `(${what}, ${event.agent.id}):`)} ${oneLine(event.prompt, 100)}`);
          return;
        }
        case "subagent-event": {
          const line = progressLine(event.event, subagentTag(event.agent));
          if (line !== null) err(line);
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
      if (line !== null) err(line);
    },
    showPlan(items: PlanItem[]) {
      err(style("bold", "plan:"));
      for (const item of items) err(`  ${item.status === "done" ? style("green", "[x]") : item.status === "in_progress" ? style("cyan", "[>]") : "[ ]"} ${item.step}`);
    },
  };
}

import type { AgentEvent, AgentUi } from "../agent/events.js";
import type { ToolStatus } from "../agent/session-format.js";
import type { PlanItem } from "../agent/tools/tool.js";
import { styler, writeLine, type Output } from "./output.js";

export interface ToolCallRecord {
  tool: string;
  description: string;
  status: ToolStatus;
  summary: string;
  ms: number;
}

export interface RunRenderer extends AgentUi {
  /** Every tool call of the run, for the `--json` result. */
  readonly toolCalls: ToolCallRecord[];
  /** Ends the streamed text with a newline if it needs one. */
  finish(): void;
}

/**
 * Shows a run: the model's text streams to stdout as it arrives (not with `--json`, whose stdout
 * is the final result alone); tool calls, retries, compaction and the plan go to stderr.
 */
export function createRunRenderer(output: Output, options: { json: boolean }): RunRenderer {
  const style = styler(output, "stderr");
  const toolCalls: ToolCallRecord[] = [];
  const descriptions = new Map<string, string>();
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

  return {
    toolCalls,
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
          err(style("dim", `→ ${event.description}`));
          return;
        case "tool-end": {
          const description = descriptions.get(event.callId) ?? event.tool;
          toolCalls.push({ tool: event.tool, description, status: event.status, summary: event.summary, ms: event.ms });
          if (!descriptions.has(event.callId)) err(style("dim", `→ ${description}`));
          err(`  ${marks[event.status]} ${event.summary}${event.ms >= 1000 ? style("dim", ` (${(event.ms / 1000).toFixed(1)} s)`) : ""}`);
          return;
        }
        case "retry":
          err(
            style(
              "yellow",
              `bosun: the model call failed (${event.reason})${event.hadPartialReply ? " partway through its reply, which starts over" : ""}; retrying in ${(event.delayMs / 1000).toFixed(1)} s (retry ${event.attempt})`,
            ),
          );
          return;
        case "compaction":
          err(
            style(
              "dim",
              `bosun: context compacted (${event.step === "stub" ? "old tool outputs moved to files" : "earlier turns summarized"}): about ${event.tokensBefore.toLocaleString("en-US")} → ${event.tokensAfter.toLocaleString("en-US")} tokens`,
            ),
          );
          return;
        case "notice":
          err(style("yellow", `bosun: ${event.message}`));
          return;
        case "turn-start":
          return;
      }
    },
    showPlan(items: PlanItem[]) {
      err(style("bold", "plan:"));
      for (const item of items) err(`  ${item.status === "done" ? style("green", "[x]") : item.status === "in_progress" ? style("cyan", "[>]") : "[ ]"} ${item.step}`);
    },
  };
}

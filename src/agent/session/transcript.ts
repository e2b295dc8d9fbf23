import type { ModelMessage } from "ai";
import { relative } from "node:path";
import { formatTokens } from "../../llm/token-count.js";
import type { InstructionRecord } from "../instructions.js";
import type { ParsedSession, SessionEvent } from "./format.js";
import { indexSubagents, subagentTreeLines, type SubagentIndex } from "../subagents/transcript.js";
import type { TranscriptStyle } from "./transcript-style.js";

const TOOL_OUTPUT_LINES = 8;
const TOOL_OUTPUT_CHARS = 600;

/**
 * A session file as a readable transcript: each run with its prompt, the model's text, each
 * tool call with its outcome and the start of its output, under each `agent` call the tree of
 * sub-agents it started, compactions, and how each run ended.
 */
export function transcriptLines(session: ParsedSession, style: TranscriptStyle): string[] {
  const lines: string[] = [];
  const { header } = session;
  lines.push(style("bold", `session ${header.id}`) + style("dim", ` · ${header.model.providerID}/${header.model.modelID} · ${header.workdir} · ${shortTime(header.createdAt)}`));
  const toolStatus = new Map<string, Extract<SessionEvent, { type: "tool" }>>();
  for (const event of session.events) if (event.type === "tool") toolStatus.set(event.callId, event);
  const subagents = { index: indexSubagents(session.events), rootId: header.id };
  for (const event of session.events) {
    switch (event.type) {
      case "run":
        if (event.phase === "start") {
          lines.push("", style("cyan", `── run ${shortTime(event.at)} · ${event.model} · ${event.mode} mode`));
          if (event.instructions?.length) lines.push(style("dim", `   instructions: ${event.instructions.map((file) => instructionText(file, header.workdir)).join(", ")}`));
        } else {
          const tokens = `${formatTokens(event.usage.inputTokens ?? 0)} in / ${formatTokens(event.usage.outputTokens ?? 0)} out tokens`;
          lines.push(style("cyan", `── ${endText(event.reason)} after ${event.turns} turn${event.turns === 1 ? "" : "s"} (${tokens})${event.error ? `: ${event.error}` : ""}`));
        }
        break;
      case "message":
        lines.push(...messageLines(event.message, toolStatus, subagents, style));
        break;
      case "compaction":
        if (event.step === "stub") lines.push(style("dim", `── compaction: ${Object.keys(event.stubs).length} old tool output(s) moved to files (about ${formatTokens(event.tokensBefore)} tokens before)`));
        else lines.push(style("dim", `── compaction: ${event.replaced} earlier message(s) summarized (about ${formatTokens(event.tokensBefore)} tokens before)`), ...indent(event.summary, "   ", 12).map((line) => style("dim", line)));
        break;
      case "grant":
        lines.push(style("dim", `── approved for the rest of the session: ${event.key.replace("!", ": ")}`));
        break;
      default:
        break;
    }
  }
  if (session.tornTail) lines.push("", style("yellow", "(the last line of the file was cut short by a crash and is ignored)"));
  return lines;
}

function messageLines(
  message: ModelMessage,
  tools: Map<string, Extract<SessionEvent, { type: "tool" }>>,
  subagents: { index: SubagentIndex; rootId: string },
  style: TranscriptStyle,
): string[] {
  const lines: string[] = [];
  if (message.role === "user") {
    const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
    lines.push("", ...prefixed(style("bold", "you: "), text));
  } else if (message.role === "assistant") {
    const parts = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    for (const part of parts) {
      if (part.type === "text" && part.text.trim()) lines.push("", ...prefixed(style("bold", "bosun: "), part.text));
      if (part.type === "tool-call") {
        const input = JSON.stringify(part.input);
        lines.push(style("dim", `  → ${part.toolName} ${input.length > 200 ? `${input.slice(0, 200)}…` : input}`));
      }
    }
  } else if (message.role === "tool") {
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const event = tools.get(part.toolCallId);
      const ok = event ? event.status === "ok" : part.output.type !== "error-text";
      const mark = ok ? style("green", "✓") : style("red", "✗");
      lines.push(`    ${mark} ${part.toolName}${event?.summary ? `: ${event.summary}` : ""}`);
      const value = part.output.type === "text" || part.output.type === "error-text" ? part.output.value : JSON.stringify(part.output);
      lines.push(...indent(value, "      ", TOOL_OUTPUT_LINES).map((line) => style("dim", line)));
      lines.push(...subagentTreeLines(subagents.index, subagents.rootId, part.toolCallId, style, "      "));
    }
  }
  return lines;
}

function prefixed(prefix: string, text: string): string[] {
  const [first = "", ...rest] = text.split("\n");
  return [prefix + first, ...rest.map((line) => `  ${line}`)];
}

function indent(text: string, pad: string, maxLines: number): string[] {
  const clipped = text.length > TOOL_OUTPUT_CHARS ? `${text.slice(0, TOOL_OUTPUT_CHARS)}…` : text;
  const lines = clipped.split("\n");
  const shown = lines.slice(0, maxLines).map((line) => pad + line);
  if (lines.length > maxLines) shown.push(`${pad}… (${lines.length - maxLines} more lines)`);
  return shown;
}

/** An instruction file as the run line shows it: from the session's folder when it is in it or above it, and whether it was cut. */
function instructionText(record: InstructionRecord, workdir: string): string {
  const fromWorkdir = relative(workdir, record.file);
  const shown = record.scope === "project" && /^(\.\.\/)*[^/]+$/.test(fromWorkdir) ? fromWorkdir : record.file;
  const size = `${record.bytes.toLocaleString("en-US")} bytes`;
  if (!record.truncated) return `${shown} (${size})`;
  if (record.keptBytes === 0) return `${shown} (${size}, left out)`;
  return `${shown} (cut to ${record.keptBytes.toLocaleString("en-US")} of ${size})`;
}

function endText(reason: string): string {
  return reason === "final" ? "done" : reason === "turn-limit" ? "stopped at the turn limit" : reason === "aborted" ? "cancelled" : "failed";
}

export function shortTime(iso: string): string {
  return iso.replace("T", " ").slice(0, 16);
}

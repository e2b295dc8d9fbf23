import type { ParsedSession } from "../agent/session/format.js";
import type { TranscriptEntry } from "./sources.js";

const MAX_TOOL_TEXT = 20_000;

const cut = (text: string) => (text.length > MAX_TOOL_TEXT ? `${text.slice(0, MAX_TOOL_TEXT)}\n… (${(text.length - MAX_TOOL_TEXT).toLocaleString("en-US")} more characters)` : text);

/**
 * A session's events as the page shows them: your prompts, bosun's text, each tool call (its
 * arguments as JSON) and result, each run's start and end. The text is what the session file holds
 * (redacted when it was written); the page escapes it. Pure.
 */
export function transcriptEntries(session: ParsedSession): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const event of session.events) {
    if (event.type === "run") {
      entries.push({ kind: "notice", text: event.phase === "start" ? `run started · ${event.model} · ${event.mode} mode` : `run ended (${event.reason}) after ${event.turns} turn${event.turns === 1 ? "" : "s"}${event.error ? `: ${event.error}` : ""}` });
      continue;
    }
    if (event.type !== "message") continue;
    const message = event.message;
    const parts = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : (message.content as readonly Record<string, unknown>[]);
    for (const part of parts) {
      if (part.type === "text" && typeof part.text === "string" && part.text.trim() !== "") {
        if (message.role === "user" || message.role === "assistant") entries.push({ kind: message.role, text: part.text });
      } else if (part.type === "tool-call") {
        entries.push({ kind: "tool-call", tool: String(part.toolName), text: cut(JSON.stringify(part.input ?? {}, null, 2)) });
      } else if (part.type === "tool-result") {
        entries.push({ kind: "tool-result", tool: String(part.toolName), text: cut(resultText(part.output)) });
      }
    }
  }
  return entries;
}

function resultText(output: unknown): string {
  if (typeof output !== "object" || output === null) return String(output ?? "");
  const value = (output as { value?: unknown }).value;
  if (typeof value === "string") return value;
  return JSON.stringify(value ?? output, null, 2);
}

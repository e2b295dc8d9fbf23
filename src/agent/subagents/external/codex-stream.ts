import { count, record, shortLine, text, TurnBoundary, type ExternalEvent, type StreamParser } from "./external-events.js";
import { toolDescription } from "./tool-description.js";

/** Codex's item types that are tool calls (each is the model's doing, and its result goes back to the model). */
const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

/**
 * Codex's `codex exec --json` stream: `thread.started` (session), `turn.started`, items as they
 * start and complete (commands, file changes, MCP calls, reasoning, the agent's messages),
 * `turn.completed` with the run's usage, or `turn.failed` / `error`. Codex shows no model calls of
 * their own: a new one is counted at the start and after each tool call's result. Its usage comes
 * once, at the end of the run.
 */
export function codexStreamParser(): StreamParser {
  const turns = new TurnBoundary(false);
  let answer = "";
  const started = new Set<string>();
  return {
    line(value) {
      const events: ExternalEvent[] = [];
      switch (value.type) {
        case "thread.started":
          events.push({ type: "session", id: text(value.thread_id) });
          break;
        case "turn.started":
          turns.next();
          break;
        case "item.started":
        case "item.completed": {
          const item = record(value.item);
          const kind = text(item.type);
          turns.output(events);
          if (TOOL_ITEMS.has(kind)) {
            const id = text(item.id);
            // A call that completes without a start line (a file change) still shows as one call.
            if (!started.has(id)) {
              started.add(id);
              events.push({ type: "tool-start", id, tool: kind, description: itemDescription(kind, item) });
            }
            if (value.type === "item.completed") {
              started.delete(id);
              events.push({ type: "tool-end", id, tool: kind, ok: itemSucceeded(item), summary: itemSummary(kind, item) });
              turns.next();
            }
          } else if (kind === "agent_message" && value.type === "item.completed") {
            answer = text(item.text);
            if (answer !== "") events.push({ type: "text", text: answer });
          } else if (kind === "error") events.push({ type: "error", message: text(item.message) });
          break;
        }
        case "turn.completed": {
          const usage = record(value.usage);
          events.push({ type: "usage", input: count(usage.input_tokens), output: count(usage.output_tokens) });
          events.push({ type: "result", ok: true, text: answer });
          break;
        }
        case "turn.failed":
          events.push({ type: "result", ok: false, text: text(record(value.error).message) || "the turn failed" });
          break;
        case "error":
          events.push({ type: "error", message: text(value.message) });
          break;
      }
      return events;
    },
  };
}

function itemDescription(kind: string, item: Record<string, unknown>): string {
  if (kind === "file_change") {
    const changes = Array.isArray(item.changes) ? item.changes.map((change) => `${text(record(change).kind)} ${text(record(change).path)}`.trim()) : [];
    return shortLine(changes.join(", ") || "file change");
  }
  if (kind === "mcp_tool_call") return shortLine(`${text(item.server)}.${text(item.tool)}`);
  if (kind === "web_search") return shortLine(text(item.query) || "web search");
  return toolDescription(kind, item);
}

function itemSucceeded(item: Record<string, unknown>): boolean {
  if (item.status === "failed" || item.status === "declined") return false;
  if (typeof item.exit_code === "number") return item.exit_code === 0;
  return true;
}

function itemSummary(kind: string, item: Record<string, unknown>): string {
  if (kind === "command_execution") {
    const code = typeof item.exit_code === "number" ? `exit ${item.exit_code}` : text(item.status);
    const out = text(item.aggregated_output).trim().split("\n").at(-1) ?? "";
    return shortLine(out ? `${code}: ${out}` : code, 200);
  }
  return text(item.status);
}

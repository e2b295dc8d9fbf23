import { count, record, shortLine, text, TurnBoundary, type ExternalEvent, type StreamParser } from "./external-events.js";
import { toolDescription } from "./tool-description.js";

/**
 * Gemini CLI's `-o stream-json` stream: `init` (session, model), `message` lines (the user's
 * prompt, the assistant's text in deltas), `tool_use` and `tool_result`, `error`, and the `result`
 * with the run's token stats. Gemini shows no model calls of their own: a new one is counted at
 * the first assistant text or tool call, and after each tool result. Its answer is the text
 * written after the last tool result; its usage comes once, in the result.
 */
export function geminiStreamParser(): StreamParser {
  const turns = new TurnBoundary();
  let answer = "";
  const tools = new Map<string, string>();
  return {
    line(value) {
      const events: ExternalEvent[] = [];
      const startTurn = () => {
        if (turns.output(events)) answer = "";
      };
      switch (value.type) {
        case "init":
          events.push({ type: "session", id: text(value.session_id), ...(typeof value.model === "string" ? { model: value.model } : {}) });
          break;
        case "message":
          if (value.role !== "assistant") break;
          startTurn();
          answer += text(value.content);
          if (text(value.content) !== "") events.push({ type: "text", text: text(value.content) });
          break;
        case "tool_use": {
          startTurn();
          const id = text(value.tool_id);
          const name = text(value.tool_name) || "tool";
          tools.set(id, name);
          events.push({ type: "tool-start", id, tool: name, description: toolDescription(name, value.parameters) });
          break;
        }
        case "tool_result": {
          const id = text(value.tool_id);
          const error = record(value.error);
          const ok = value.status === "success";
          events.push({ type: "tool-end", id, tool: tools.get(id) ?? "tool", ok, summary: shortLine(ok ? text(value.output) : text(error.message) || text(value.output), 200) });
          tools.delete(id);
          turns.next();
          break;
        }
        case "error":
          events.push({ type: "error", message: text(value.message) });
          break;
        case "result": {
          const stats = record(value.stats);
          events.push({ type: "usage", input: count(stats.input_tokens), output: count(stats.output_tokens) });
          const ok = value.status === "success";
          events.push({ type: "result", ok, text: ok ? answer : text(record(value.error).message) || "it ended with an error" });
          break;
        }
      }
      return events;
    },
  };
}

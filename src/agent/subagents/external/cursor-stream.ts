import { record, shortLine, text, TurnBoundary, type ExternalEvent, type StreamParser } from "./external-events.js";
import { toolDescription } from "./tool-description.js";

/**
 * Cursor's `agent -p --output-format stream-json` stream, as its documentation describes it (the
 * CLI is not on npm, so this parser is not checked against the real one): `system/init`,
 * `assistant` messages, `tool_call` lines (`started` / `completed`, the call under a
 * `<name>ToolCall` key), and the `result`. Cursor reports no tokens.
 */
export function cursorStreamParser(): StreamParser {
  const turns = new TurnBoundary();
  let answer = "";
  return {
    line(value) {
      const events: ExternalEvent[] = [];
      const startTurn = () => {
        if (turns.output(events)) answer = "";
      };
      if (value.type === "system" && value.subtype === "init") {
        events.push({ type: "session", id: text(value.session_id), ...(typeof value.model === "string" ? { model: value.model } : {}) });
      } else if (value.type === "assistant") {
        startTurn();
        for (const block of Array.isArray(record(value.message).content) ? (record(value.message).content as unknown[]) : []) {
          const piece = text(record(block).text);
          if (piece === "") continue;
          answer += piece;
          events.push({ type: "text", text: piece });
        }
      } else if (value.type === "tool_call") {
        const call = record(value.tool_call);
        const key = Object.keys(call)[0] ?? "tool";
        const name = key.replace(/ToolCall$/, "") || "tool";
        const detail = record(call[key]);
        const id = text(value.call_id);
        if (value.subtype === "started") {
          startTurn();
          events.push({ type: "tool-start", id, tool: name, description: toolDescription(name, detail.args) });
        } else if (value.subtype === "completed") {
          const outcome = record(detail.result);
          const ok = !("error" in outcome) && !("failure" in outcome);
          events.push({ type: "tool-end", id, tool: name, ok, summary: shortLine(JSON.stringify(outcome.success ?? outcome.error ?? outcome.failure ?? {}), 200) });
          turns.next();
        }
      } else if (value.type === "result") {
        const ok = value.is_error !== true && value.subtype === "success";
        events.push({ type: "result", ok, text: text(value.result) || (ok ? answer : "it ended with an error") });
      }
      return events;
    },
  };
}

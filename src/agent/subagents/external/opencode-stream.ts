import { count, record, shortLine, text, type ExternalEvent, type StreamParser } from "./external-events.js";
import { toolDescription } from "./tool-description.js";

/**
 * OpenCode's `opencode run --format json` stream: one line per part as it completes, each with
 * the session id: `step_start` (a model call starts), `text`, `tool_use` (a call with its state:
 * completed or error, input and output), `step_finish` (that call's tokens and cost), `error`.
 * The answer is the text of the last step. OpenCode ends without a result line: the runner
 * completes it when the process exits well (see `finish`).
 */
export function opencodeStreamParser(): StreamParser {
  let answer = "";
  let session = "";
  let failed: string | null = null;
  return {
    line(value) {
      const events: ExternalEvent[] = [];
      const part = record(value.part);
      const id = text(value.sessionID) || text(part.sessionID);
      if (id !== "" && session === "") {
        session = id;
        events.push({ type: "session", id });
      }
      switch (value.type) {
        case "step_start":
          answer = "";
          events.push({ type: "turn" });
          break;
        case "text":
          if (text(part.text) !== "") {
            answer += text(part.text);
            events.push({ type: "text", text: text(part.text) });
          }
          break;
        case "tool_use": {
          const state = record(part.state);
          const name = text(part.tool) || "tool";
          const callId = text(part.callID) || text(part.id);
          const ok = state.status === "completed";
          events.push({ type: "tool-start", id: callId, tool: name, description: toolDescription(name, state.input) });
          events.push({ type: "tool-end", id: callId, tool: name, ok, summary: shortLine(ok ? text(state.title) || text(state.output) : text(state.error), 200) });
          break;
        }
        case "step_finish": {
          const tokens = record(part.tokens);
          const cache = record(tokens.cache);
          events.push({
            type: "usage",
            input: count(tokens.input) + count(cache.read) + count(cache.write),
            output: count(tokens.output) + count(tokens.reasoning),
            ...(typeof part.cost === "number" ? { costUsd: part.cost } : {}),
          });
          break;
        }
        case "error": {
          const error = record(value.error);
          failed = text(record(error.data).message) || text(error.message) || text(error.name) || "it reported an error";
          events.push({ type: "error", message: failed });
          break;
        }
      }
      return events;
    },
    finish() {
      return [{ type: "result", ok: failed === null, text: failed ?? answer }];
    },
  };
}

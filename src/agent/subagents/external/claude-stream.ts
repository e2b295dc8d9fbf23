import { count, record, text, type ExternalEvent, type StreamParser } from "./external-events.js";
import { resultSummary, toolDescription } from "./tool-description.js";

/**
 * Claude Code's `-p --output-format stream-json --verbose` stream: `system/init` (session, model),
 * `assistant` lines (one per content block; a new message id is a new model call), `user` lines
 * with tool results, and the `result` (the answer, `num_turns`, `total_cost_usd`, the whole run's
 * `usage`). A message's usage is counted once it is over (the next message, its tool results, or
 * the result), from its last line; the result's totals correct what the lines undercount.
 */
export function claudeStreamParser(): StreamParser {
  const seen = new Set<string>();
  const tools = new Map<string, string>();
  let input = 0;
  let output = 0;
  /** The usage of the message being written, counted once it is over. */
  let pending: { input: number; output: number } | null = null;
  const flush = (events: ExternalEvent[]) => {
    if (!pending) return;
    input += pending.input;
    output += pending.output;
    events.push({ type: "usage", ...pending });
    pending = null;
  };
  return {
    line(value) {
      const events: ExternalEvent[] = [];
      if (value.type !== "assistant") flush(events);
      if (value.type === "system" && value.subtype === "init") {
        events.push({ type: "session", id: text(value.session_id), ...(typeof value.model === "string" ? { model: value.model } : {}) });
      } else if (value.type === "assistant") {
        const message = record(value.message);
        const id = text(message.id);
        if (id === "" || !seen.has(id)) {
          flush(events);
          if (id !== "") seen.add(id);
          events.push({ type: "turn" });
        }
        const usage = record(message.usage);
        pending = { input: count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens), output: Math.max(pending?.output ?? 0, count(usage.output_tokens)) };
        for (const block of Array.isArray(message.content) ? message.content : []) {
          const part = record(block);
          if (part.type === "text" && text(part.text) !== "") events.push({ type: "text", text: text(part.text) });
          else if (part.type === "tool_use") {
            const toolId = text(part.id);
            const name = text(part.name) || "tool";
            tools.set(toolId, name);
            events.push({ type: "tool-start", id: toolId, tool: name, description: toolDescription(name, part.input) });
          }
        }
      } else if (value.type === "user") {
        for (const block of Array.isArray(record(value.message).content) ? (record(value.message).content as unknown[]) : []) {
          const part = record(block);
          if (part.type !== "tool_result") continue;
          const toolId = text(part.tool_use_id);
          events.push({ type: "tool-end", id: toolId, tool: tools.get(toolId) ?? "tool", ok: part.is_error !== true, summary: resultSummary(part.content) });
          tools.delete(toolId);
        }
      } else if (value.type === "result") {
        const usage = record(value.usage);
        const totalIn = count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens);
        const totalOut = count(usage.output_tokens);
        // The partial usage of the assistant lines undercounts output: the result's totals correct it (priced in the total cost).
        if (totalIn > input || totalOut > output) events.push({ type: "usage", input: Math.max(0, totalIn - input), output: Math.max(0, totalOut - output), costUsd: 0 });
        const ok = value.is_error !== true && value.subtype === "success";
        const answer = text(value.result);
        const reason = ok ? answer : answer || errorsOf(value) || `it ended with ${text(value.subtype) || "an error"}`;
        events.push({
          type: "result",
          ok,
          text: reason,
          ...(typeof value.total_cost_usd === "number" ? { costUsd: value.total_cost_usd } : {}),
          ...(typeof value.num_turns === "number" ? { turns: value.num_turns } : {}),
        });
      }
      return events;
    },
  };
}

function errorsOf(value: Record<string, unknown>): string {
  return Array.isArray(value.errors) ? value.errors.filter((error): error is string => typeof error === "string").join("; ") : "";
}

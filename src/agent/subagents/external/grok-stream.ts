import { record, shortLine, text, type ExternalEvent, type StreamParser } from "./external-events.js";
import { toolDescription } from "./tool-description.js";

/**
 * Grok CLI's `grok -p` output: one chat message per line (`{"role":"assistant","content",
 * "tool_calls"}`, `{"role":"tool","tool_call_id","content"}`). It reports no tokens and no result
 * line: the answer is the last assistant message, and a reply that starts "Sorry, I encountered
 * an error" (what grok prints when the model call fails, exiting 0) is a failure.
 */
export function grokStreamParser(): StreamParser {
  let answer = "";
  const tools = new Map<string, string>();
  return {
    line(value) {
      const events: ExternalEvent[] = [];
      if (value.role === "assistant") {
        events.push({ type: "turn" });
        answer = text(value.content);
        if (answer !== "") events.push({ type: "text", text: answer });
        for (const call of Array.isArray(value.tool_calls) ? value.tool_calls : []) {
          const entry = record(call);
          const fn = record(entry.function);
          const name = text(fn.name) || "tool";
          const id = text(entry.id);
          tools.set(id, name);
          let args: unknown = fn.arguments;
          try {
            args = JSON.parse(text(fn.arguments));
          } catch {
            // Arguments that are not JSON are described as they are.
          }
          events.push({ type: "tool-start", id, tool: name, description: toolDescription(name, args) });
        }
      } else if (value.role === "tool") {
        const id = text(value.tool_call_id);
        const content = text(value.content);
        events.push({ type: "tool-end", id, tool: tools.get(id) ?? "tool", ok: !/^error/i.test(content), summary: shortLine(content, 200) });
        tools.delete(id);
      }
      return events;
    },
    finish() {
      const failed = /^Sorry, I encountered an error/.test(answer);
      return [{ type: "result", ok: !failed && answer !== "", text: answer }];
    },
  };
}

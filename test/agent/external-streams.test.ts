import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ExternalEvent, StreamParser } from "../../src/agent/subagents/external/external-events.js";
import { streamParser } from "../../src/agent/subagents/external/stream-parsers.js";
import type { ExternalKind } from "../../src/agent/subagents/kinds.js";

// The event streams here are the real CLIs' own output (pinned versions, run against the scripted
// model server; see test/fixtures/cli-streams/README.md): each parser is checked against what its CLI prints.
function parse(kind: ExternalKind, stream: string): ExternalEvent[] {
  const parser: StreamParser = streamParser(kind);
  const lines = readFileSync(new URL(`../fixtures/cli-streams/${kind}-${stream}.jsonl`, import.meta.url), "utf8").split("\n").filter(Boolean);
  const events = lines.flatMap((line) => parser.line(JSON.parse(line) as Record<string, unknown>));
  return events.some((event) => event.type === "result") ? events : [...events, ...(parser.finish?.() ?? [])];
}

const of = <T extends ExternalEvent["type"]>(events: ExternalEvent[], type: T) => events.filter((event): event is Extract<ExternalEvent, { type: T }> => event.type === type);
const tokens = (events: ExternalEvent[]) => of(events, "usage").reduce((sum, event) => ({ input: sum.input + event.input, output: sum.output + event.output }), { input: 0, output: 0 });

describe("the real CLIs' event streams, as bosun reads them", () => {
  it("claude: turns, the Write call and its result, tokens corrected by the result, its own cost and answer", () => {
    const events = parse("claude", "3turns");
    expect(of(events, "session")[0]).toMatchObject({ model: expect.any(String) });
    expect(of(events, "turn")).toHaveLength(3);
    expect(of(events, "tool-start").map((event) => `${event.tool}: ${event.description}`)).toEqual(["Read: {repo}/notes.txt", "Write: {repo}/result.txt"]);
    expect(of(events, "tool-end").map((event) => event.ok)).toEqual([true, true]);
    const result = of(events, "result")[0]!;
    expect(result).toMatchObject({ ok: true, text: "done: wrote result.txt", turns: 3 });
    expect(result.costUsd).toBeGreaterThan(0);
    expect(tokens(events).input).toBeGreaterThan(0);
  });

  it("codex: a turn at the start and after each tool item, commands and file changes as calls, usage at the end", () => {
    const events = parse("codex", "3turns");
    expect(of(events, "turn")).toHaveLength(3);
    expect(of(events, "tool-start").map((event) => event.tool)).toEqual(["command_execution", "file_change"]);
    expect(of(events, "tool-start")[1]!.description).toBe("add {repo}/result.txt");
    expect(of(events, "tool-end").map((event) => event.ok)).toEqual([true, true]);
    expect(tokens(events)).toEqual({ input: 600, output: 60 });
    expect(of(events, "result")[0]).toEqual({ type: "result", ok: true, text: "done: wrote result.txt" });
  });

  it("gemini: turns between tool results, read_file and write_file, the run's tokens, the last text as the answer", () => {
    const events = parse("gemini", "3turns");
    expect(of(events, "turn")).toHaveLength(3);
    expect(of(events, "tool-start").map((event) => `${event.tool}: ${event.description}`)).toEqual(["read_file: notes.txt", "write_file: result.txt"]);
    expect(tokens(events)).toEqual({ input: 600, output: 60 });
    expect(of(events, "result")[0]).toEqual({ type: "result", ok: true, text: "done: wrote result.txt" });
  });

  it("opencode: a step per model call with its tokens and cost, tool parts, the answer when it exits", () => {
    const events = parse("opencode", "3turns");
    expect(of(events, "turn")).toHaveLength(3);
    expect(of(events, "tool-start").map((event) => `${event.tool}: ${event.description}`)).toEqual(["read: {repo}/notes.txt", "write: {repo}/result.txt"]);
    expect(of(events, "usage").map((event) => event.costUsd)).toEqual([0.0006, 0.00105, 0.00105]);
    expect(tokens(events)).toEqual({ input: 600, output: 60 });
    expect(of(events, "result")[0]).toEqual({ type: "result", ok: true, text: "done: wrote result.txt" });
  });

  it("grok: chat messages, its create_file call, the last reply as the answer", () => {
    const events = parse("grok", "edit");
    expect(of(events, "tool-start").map((event) => `${event.tool}: ${event.description}`)).toEqual(["create_file: {repo}/result.txt"]);
    expect(of(events, "result")[0]).toEqual({ type: "result", ok: true, text: "done: wrote result.txt" });
  });

  it("cursor (not on npm, so its documented stream-json shape): tool calls started and completed, the result", () => {
    // From Cursor's CLI documentation (output-format stream-json); the real CLI cannot be installed here.
    const parser = streamParser("cursor");
    const lines = [
      { type: "system", subtype: "init", session_id: "c-1", model: "gpt-5" },
      { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Reading it." }] }, session_id: "c-1" },
      { type: "tool_call", subtype: "started", call_id: "t1", tool_call: { readToolCall: { args: { path: "notes.txt" } } } },
      { type: "tool_call", subtype: "completed", call_id: "t1", tool_call: { readToolCall: { args: { path: "notes.txt" }, result: { success: { content: "n" } } } } },
      { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "It says n." }] }, session_id: "c-1" },
      { type: "result", subtype: "success", is_error: false, result: "It says n.", session_id: "c-1" },
    ];
    const events = lines.flatMap((line) => parser.line(line));
    expect(of(events, "turn")).toHaveLength(2);
    expect(of(events, "tool-start")).toEqual([{ type: "tool-start", id: "t1", tool: "read", description: "notes.txt" }]);
    expect(of(events, "tool-end")[0]).toMatchObject({ ok: true });
    expect(of(events, "result")[0]).toEqual({ type: "result", ok: true, text: "It says n." });
  });

  it("each CLI's failure (the model server refusing the key) as a failed result with the CLI's own words", () => {
    expect(of(parse("claude", "error"), "result")[0]).toMatchObject({ ok: false });
    expect(of(parse("codex", "error"), "result")[0]).toMatchObject({ ok: false, text: expect.stringContaining("401 Unauthorized") });
    expect(of(parse("gemini", "error"), "result")[0]).toMatchObject({ ok: false, text: expect.stringContaining("invalid api key") });
    expect(of(parse("opencode", "error"), "result")[0]).toEqual({ type: "result", ok: false, text: "invalid api key" });
  });
});

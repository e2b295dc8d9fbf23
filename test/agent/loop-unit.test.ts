import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ApprovalGate } from "../../src/agent/approval/approval.js";
import { runAgent, type AgentOptions } from "../../src/agent/loop.js";
import { Redactor } from "../../src/kernel/redact/secrets.js";
import { MemorySessionStore } from "../../src/agent/session/store.js";
import { ToolRegistry } from "../../src/agent/tools/tool-registry.js";
import { builtinTools } from "../../src/agent/tools/builtin.js";
import { ExtensionHost } from "../../src/extensions/host.js";
import { makeWorkspace, recordingUi } from "../fixtures/agent-harness.js";

type StreamPart = Record<string, unknown> & { type: string };

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

function reply(...parts: StreamPart[]): { stream: ReadableStream<StreamPart> } {
  const hasTool = parts.some((p) => p.type === "tool-call");
  const all: StreamPart[] = [
    { type: "stream-start", warnings: [] },
    ...parts,
    { type: "finish", finishReason: { unified: hasTool ? "tool-calls" : "stop", raw: undefined }, usage: usage(10, 5) },
  ];
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of all) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

const text = (value: string): StreamPart[] => [
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: value },
  { type: "text-end", id: "t" },
];
const toolCall = (id: string, toolName: string, input: unknown): StreamPart => ({ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) });

function options(model: MockLanguageModelV3, workdir: string, extra: Partial<AgentOptions> = {}): AgentOptions {
  const session = new MemorySessionStore().create({ workdir, model: { providerID: "mock", modelID: "m", name: "m" }, bosunVersion: "test" });
  return {
    model,
    modelRef: { providerID: "mock", modelID: "m" },
    limits: { context: 100_000, output: 1_000 },
    toolCalls: true,
    tools: new ToolRegistry(builtinTools()),
    session,
    approval: new ApprovalGate({ mode: "full-access", rules: {}, approver: null }),
    redactor: new Redactor([]),
    workdir,
    env: { PATH: process.env.PATH },
    ui: recordingUi(),
    signal: new AbortController().signal,
    now: () => new Date("2026-01-02T03:04:05Z"),
    ...extra,
  };
}

describe("the loop with the AI SDK's mock model", () => {
  it("stops at a reply without tool calls", async () => {
    const ws = makeWorkspace();
    const model = new MockLanguageModelV3({ doStream: [reply(...text("Hello!"))] as never });
    const result = await runAgent("hi", options(model, ws.workdir));
    expect(result).toMatchObject({ reason: "final", text: "Hello!", turns: 1, usage: { inputTokens: 10, outputTokens: 5 } });
    const call = model.doStreamCalls[0]!;
    expect(call.prompt[0]).toMatchObject({ role: "system" });
    expect(String((call.prompt[0] as { content: string }).content)).toContain(`Working directory: ${ws.workdir}`);
    expect(String((call.prompt[0] as { content: string }).content)).toContain("Today is 2026-01-02");
    expect(call.maxOutputTokens).toBe(1_000);
    expect(call.tools?.map((t) => t.name)).toEqual(["read", "write", "edit", "glob", "grep", "bash", "ask_user", "plan"]);
  });

  it("runs the tool the model calls and sends the result in the next call", async () => {
    const ws = makeWorkspace();
    ws.write("a.txt", "alpha\n");
    const model = new MockLanguageModelV3({ doStream: [reply(toolCall("c1", "read", { path: "a.txt" })), reply(...text("It says alpha."))] as never });
    const result = await runAgent("read a.txt", options(model, ws.workdir));
    expect(result.text).toBe("It says alpha.");
    const second = model.doStreamCalls[1]!.prompt;
    expect(second.at(-1)).toMatchObject({ role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "     1\talpha" } }] });
  });

  it("sends no tools to a model that cannot call them", async () => {
    const ws = makeWorkspace();
    const model = new MockLanguageModelV3({ doStream: [reply(...text("ok"))] as never });
    const ui = recordingUi();
    await runAgent("hi", options(model, ws.workdir, { toolCalls: false, ui }));
    expect(ui.events).toContainEqual({ type: "notice", message: "this model cannot call tools; it answers without them" });
    expect(model.doStreamCalls[0]!.tools).toBeUndefined();
    expect(JSON.stringify(model.doStreamCalls[0]!.prompt[0])).toContain("You have no tools in this session");
  });
});

describe("extension points", () => {
  it("fire at agent_init, system_prompt, before/after_llm_call, tool_before (veto) and tool_after", async () => {
    const ws = makeWorkspace();
    const root = join(ws.root, "ext");
    const put = (point: string, name: string, body: string) => {
      mkdirSync(join(root, "extensions", point), { recursive: true });
      writeFileSync(join(root, "extensions", point, `${name}.mjs`), body);
    };
    const log = join(ws.root, "calls.log");
    const note = (what: string) => `(await import("node:fs")).appendFileSync(${JSON.stringify(log)}, ${what} + "\\n");`;
    put("agent_init", "10_init", `import { appendFileSync } from "node:fs"; export default ({ agent }) => { appendFileSync(${JSON.stringify(log)}, "init " + agent.tools.names().length + " " + agent.depth + "\\n"); agent.tools.remove("plan"); };`);
    put("system_prompt", "10_rules", `export default async ({ prompt }) => { prompt.text += "\\nAlways answer in French."; };`);
    put("before_llm_call", "10_note", `export default async ({ request }) => { ${note('"before " + request.turn + " " + request.messages.length')} };`);
    put("after_llm_call", "10_note", `export default async ({ response }) => { ${note('"after " + response.turn + " " + response.toolCalls.map((c) => c.toolName).join(",")')} };`);
    put("tool_before", "10_guard", `export default async ({ tool }) => { if (tool.name === "bash") tool.veto = "no shell in this project"; };`);
    put("tool_after", "10_tag", `export default async ({ tool }) => { tool.result.output = "[checked] " + tool.result.output; };`);
    const host = new ExtensionHost([{ kind: "user", name: "user", dir: root }]);
    ws.write("a.txt", "alpha\n");
    const model = new MockLanguageModelV3({
      doStream: [reply(toolCall("c1", "bash", { command: "ls" }), toolCall("c2", "read", { path: "a.txt" })), reply(...text("Voilà."))] as never,
    });
    const result = await runAgent("go", options(model, ws.workdir, { extensions: host }));
    expect(result.text).toBe("Voilà.");
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(log, "utf8")).toBe("init 8 0\nbefore 1 1\nafter 1 bash,read\nbefore 2 3\nafter 2 \n");
    const first = model.doStreamCalls[0]!;
    expect(String((first.prompt[0] as { content: string }).content)).toMatch(/\nAlways answer in French\.$/);
    expect(first.tools?.map((t) => t.name)).not.toContain("plan");
    const results = model.doStreamCalls[1]!.prompt.at(-1) as { content: { output: { type: string; value: string } }[] };
    expect(results.content[0]!.output).toEqual({ type: "error-text", value: "Not run: an extension refused this call: no shell in this project" });
    expect(results.content[1]!.output).toEqual({ type: "text", value: "[checked]      1\talpha" });
  });

  it("an after_llm_call extension that throws is reported in one line naming its file, and the run goes on", async () => {
    const ws = makeWorkspace();
    const root = join(ws.root, "ext");
    const log = join(ws.root, "calls.log");
    for (const [name, body] of [
      ["10_boom", `export default () => { throw new Error("watcher broke"); };`],
      ["20_note", `import { appendFileSync } from "node:fs"; export default ({ response }) => { appendFileSync(${JSON.stringify(log)}, "after " + response.turn + "\\n"); };`],
    ]) {
      mkdirSync(join(root, "extensions", "after_llm_call"), { recursive: true });
      writeFileSync(join(root, "extensions", "after_llm_call", `${name}.mjs`), body!);
    }
    const host = new ExtensionHost([{ kind: "user", name: "user", dir: root }]);
    ws.write("a.txt", "alpha\n");
    const model = new MockLanguageModelV3({ doStream: [reply(toolCall("c1", "read", { path: "a.txt" })), reply(...text("done"))] as never });
    const ui = recordingUi();
    const result = await runAgent("go", options(model, ws.workdir, { extensions: host, ui }));
    expect(result).toMatchObject({ reason: "final", text: "done", turns: 2 });
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(log, "utf8")).toBe("after 1\nafter 2\n");
    const notices = ui.events.flatMap((event) => (event.type === "notice" ? [event.message] : []));
    expect(notices).toEqual([0, 1].map(() => expect.stringMatching(/^extension .*10_boom\.mjs \(after_llm_call\): threw: watcher broke \(ignored: the run goes on\)$/)));
  });
});


// bosun's agent loop against a bare AI SDK streamText loop, side by side in one run
// (`npm run bench:loop`). Both talk to the same scripted OpenAI-compatible server on 127.0.0.1,
// which streams 2,000 one-token deltas per reply; a task is 20 turns that each call the read tool,
// then a final answer. The bare loop streams, appends the response messages, runs the same read
// tool and loops; bosun's loop does all it does for real: session file with fsync per turn,
// approval, redaction, extension points, compaction bookkeeping.
// Runs alternate between the two (warm-up first), medians compared. Also printed: the per-turn
// overhead when the conversation already holds 200 messages. Target: bosun/bare <= 1.2.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { dist, median, startScriptedAgentBench, timed } from "./scripted-agent.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TURNS = 20;
const TOKENS = 2_000;
const HISTORY = 200;

const { streamText } = await import("ai");
const { runAgent } = await import(dist("agent/loop.js"));
const { ApprovalGate } = await import(dist("agent/approval/approval.js"));
const { Redactor } = await import(dist("kernel/redact/secrets.js"));
const { FileSessionStore } = await import(dist("agent/session/store.js"));
const { ToolRegistry } = await import(dist("agent/tools/tool-registry.js"));
const { builtinTools } = await import(dist("agent/tools/builtin.js"));
const { createSpillStore } = await import(dist("agent/session/spill-store.js"));
const { defaultSystemPrompt } = await import(dist("agent/system-prompt.js"));
const { ExtensionHost } = await import(dist("extensions/host.js"));
const { extensionRoots } = await import(dist("extensions/roots.js"));

const { scratch, workdir, llm, target, model } = await startScriptedAgentBench("loop", "keep the loop lean");
const registry = new ToolRegistry(builtinTools());
const system = defaultSystemPrompt({ workdir, platform: process.platform, date: "2026-01-01", toolNames: registry.names(), mode: "full-access" });
const readTool = registry.get("read");
const secrets = [{ name: "BENCH_API_KEY", value: target.apiKey }, { name: "OTHER_TOKEN", value: "tok-abcdefghijklmnop" }];

function scriptTask() {
  for (let turn = 0; turn < TURNS; turn++) llm.reply().tokens(TOKENS).tool("read", { path: "notes.txt" }).usage({ input: 1_000 + turn * 2_500, output: TOKENS });
  llm.reply().tokens(TOKENS).usage({ input: 60_000, output: TOKENS });
}

async function bosunLoop(prompt, session) {
  const store = new FileSessionStore(join(scratch, "sessions"), new Redactor(secrets));
  const active = session ? store.open(session) : store.create({ workdir, model: { providerID: "bench", modelID: "scripted", name: "scripted" }, bosunVersion: "bench" });
  const host = new ExtensionHost(extensionRoots({ projectDotDir: null, userConfigDir: join(scratch, "config"), enabledPlugins: [], builtinDir: join(scratch, "builtin") }));
  let chars = 0;
  try {
    const result = await runAgent(prompt, {
      model,
      modelRef: { providerID: "bench", modelID: "scripted" },
      limits: target.limits,
      toolCalls: true,
      tools: registry,
      session: active,
      approval: new ApprovalGate({ mode: "full-access", rules: {}, approver: null, grants: active.state.grants }),
      redactor: new Redactor(secrets),
      extensions: host,
      workdir,
      env: { PATH: process.env.PATH },
      ui: { onEvent: (event) => event.type === "text" && (chars += event.delta.length) },
      signal: new AbortController().signal,
      systemPrompt: system,
    });
    if (result.reason !== "final") throw new Error(`bosun loop ended with ${result.reason}`);
    return { chars, turns: result.turns, id: active.id };
  } finally {
    active.close();
  }
}

async function bareLoop(prompt, history = []) {
  const tools = registry.modelTools();
  const messages = [...history, { role: "user", content: prompt }];
  const context = { workdir, signal: new AbortController().signal, callId: "", spill: createSpillStore(join(scratch, "spill"), new Redactor([])), ui: {}, env: {} };
  let chars = 0;
  let turns = 0;
  for (;;) {
    turns++;
    const result = streamText({ model, system, messages, tools, maxRetries: 0, maxOutputTokens: target.limits.output, onError: () => {} });
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") chars += part.text.length;
      if (part.type === "error") throw part.error;
    }
    messages.push(...(await result.response).messages);
    const calls = await result.toolCalls;
    if (calls.length === 0) return { chars, turns };
    const content = [];
    for (const call of calls) {
      const output = await readTool.execute(readTool.inputSchema.parse(call.input), { ...context, callId: call.toolCallId });
      content.push({ type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: { type: "text", value: output.output } });
    }
    messages.push({ role: "tool", content });
  }
}

/** A conversation of HISTORY messages: user prompts, assistant tool calls and their results. */
function historyMessages() {
  const messages = [];
  for (let i = 0; messages.length < HISTORY; i++) {
    messages.push({ role: "user", content: `step ${i}: look at the notes again and summarize what changed since the previous step` });
    messages.push({ role: "assistant", content: [{ type: "text", text: `Looking at the notes for step ${i}. `.repeat(8) }, { type: "tool-call", toolCallId: `h${i}`, toolName: "read", input: { path: "notes.txt" } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: `h${i}`, toolName: "read", output: { type: "text", value: `note ${i}: keep the loop lean\n`.repeat(20) } }] });
    messages.push({ role: "assistant", content: [{ type: "text", text: `Step ${i} is done. `.repeat(10) }] });
  }
  return messages.slice(0, HISTORY);
}

try {
  const samples = { bosun: [], bare: [] };
  const run = async (name) => {
    scriptTask();
    const { ms, value } = await timed(() => (name === "bosun" ? bosunLoop("follow the notes") : bareLoop("follow the notes")));
    if (value.turns !== TURNS + 1 || value.chars < TURNS * TOKENS * 5) throw new Error(`${name}: unexpected run (${value.turns} turns, ${value.chars} chars)`);
    if (llm.pending() !== 0) throw new Error(`${name}: script not fully played`);
    return ms;
  };
  await run("bosun"); // warm-up
  await run("bare");
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? ["bosun", "bare"] : ["bare", "bosun"];
    for (const name of order) samples[name].push(await run(name));
  }
  const bosun = median(samples.bosun);
  const bare = median(samples.bare);
  const requests = (TURNS + 1) * (RUNS + 1) * 2;
  console.log(`task: ${TURNS} turns with a read tool call + a final answer, ${TOKENS} tokens streamed per reply; ${RUNS} runs each (interleaved, after a warm-up), medians:`);
  console.log(`  bare AI SDK streamText loop  ${bare.toFixed(1)} ms  (${(bare / (TURNS + 1)).toFixed(2)} ms per turn)`);
  console.log(`  bosun loop                   ${bosun.toFixed(1)} ms  (${(bosun / (TURNS + 1)).toFixed(2)} ms per turn)`);
  console.log(`  requests served: ${requests}`);

  // One more turn on top of a 200-message conversation.
  const history = historyMessages();
  const store = new FileSessionStore(join(scratch, "sessions"), new Redactor(secrets));
  const seed = () => {
    const seeded = store.create({ workdir, model: { providerID: "bench", modelID: "scripted", name: "scripted" }, bosunVersion: "bench" });
    for (const message of history) seeded.append({ type: "message", message });
    seeded.close();
    return seeded.id;
  };
  const turn = { bosun: [], bare: [] };
  const oneTurn = async (name) => {
    const id = name === "bosun" ? seed() : null; // a fresh 200-message session each time, outside the timing
    llm.reply().tokens(TOKENS).usage({ input: 40_000, output: TOKENS });
    const { ms } = await timed(() => (name === "bosun" ? bosunLoop("one more step", id) : bareLoop("one more step", history)));
    return ms;
  };
  await oneTurn("bosun");
  await oneTurn("bare");
  for (let i = 0; i < Math.max(RUNS, 9); i++) {
    for (const name of i % 2 === 0 ? ["bosun", "bare"] : ["bare", "bosun"]) turn[name].push(await oneTurn(name));
  }
  const overhead = median(turn.bosun) - median(turn.bare);
  console.log(
    `  one turn at a ${HISTORY}-message history (resumed from its session file): bosun ${median(turn.bosun).toFixed(1)} ms, bare ${median(turn.bare).toFixed(1)} ms, per-turn overhead ${overhead.toFixed(1)} ms`,
  );
  console.log(`loop: bosun/bare=${(bosun / bare).toFixed(2)}`);
} finally {
  await llm.close();
  rmSync(scratch, { recursive: true, force: true });
}

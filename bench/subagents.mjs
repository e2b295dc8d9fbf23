// Sub-agent fan-out against a single sub-agent, side by side in one run (`npm run bench:subagents`).
// A scripted OpenAI-compatible server on 127.0.0.1 answers every request after 200 ms. The
// top-level agent makes two model calls: one that calls the agent tool, one final answer. Each
// sub-agent makes two: a read tool call, then its answer. "single" delegates one task; "fan-out"
// delegates 16 with concurrency 16 (no approver); both should take four replies' time (800 ms).
// The same fan-out with an approver reachable (a terminal) is printed too: it runs in parallel as
// well (only approval questions take turns, and these calls ask none). Everything runs for real:
// session file, approval, redaction, the tree-wide cap.
// Runs alternate (after a warm-up), medians compared. Target: fanout16/single <= 1.5 (ideal 1.0).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { dist, median, startScriptedAgentBench, timed } from "./scripted-agent.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LATENCY_MS = 200;
const TASKS = 16;

const { runAgent } = await import(dist("agent/loop.js"));
const { withSubagents } = await import(dist("agent/subagents/subagent.js"));
const { SubagentSessionCache } = await import(dist("agent/subagents/sessions.js"));
const { ApprovalGate } = await import(dist("agent/approval/approval.js"));
const { Redactor } = await import(dist("kernel/redact/secrets.js"));
const { FileSessionStore } = await import(dist("agent/session/store.js"));
const { ToolRegistry } = await import(dist("agent/tools/tool-registry.js"));
const { builtinTools } = await import(dist("agent/tools/builtin.js"));

const { scratch, workdir, llm, target, model } = await startScriptedAgentBench("subagents", "delegate what is independent");
const redactor = new Redactor([{ name: "BENCH_API_KEY", value: target.apiKey }]);
const store = new FileSessionStore(join(scratch, "sessions"), redactor);
const sessions = new SubagentSessionCache();
let runNumber = 0;

/** Scripts one tree: the top-level prompt and `count` sub-agent prompts, each unique to this run. */
function scriptTree(count) {
  const run = ++runNumber;
  const prompt = `[run ${run}] delegate the notes review`;
  const tasks = Array.from({ length: count }, (_, i) => `[run ${run} task ${String(i + 1).padStart(2, "0")}] review the notes`);
  llm.onPrompt(prompt).reply().latency(LATENCY_MS).tool("agent", count === 1 ? { prompt: tasks[0] } : { tasks }).usage({ input: 1_200, output: 40 });
  for (const task of tasks) {
    llm.onPrompt(task).reply().latency(LATENCY_MS).tool("read", { path: "notes.txt" }).usage({ input: 900, output: 20 });
    llm.onPrompt(task).reply().latency(LATENCY_MS).text(`${task}: the notes are consistent.`).usage({ input: 1_400, output: 12 });
  }
  llm.onPrompt(prompt).reply().latency(LATENCY_MS).text("Every review is done.").usage({ input: 2_000, output: 8 });
  return prompt;
}

async function tree(count, { approver = null } = {}) {
  const prompt = scriptTree(count);
  const session = store.create({ workdir, model: { providerID: "bench", modelID: "scripted", name: "scripted" }, bosunVersion: "bench" });
  let completed = 0;
  try {
    const options = withSubagents(
      {
        model,
        modelRef: { providerID: "bench", modelID: "scripted" },
        limits: target.limits,
        toolCalls: true,
        tools: new ToolRegistry(builtinTools()),
        session,
        approval: new ApprovalGate({ mode: "full-access", rules: {}, approver, grants: session.state.grants }),
        redactor,
        extensions: null,
        workdir,
        env: { PATH: process.env.PATH },
        ui: { onEvent: (event) => event.type === "subagent-end" && event.status === "completed" && completed++ },
        signal: new AbortController().signal,
      },
      { settings: { maxDepth: 1, concurrency: TASKS, treeConcurrency: TASKS }, sessions },
    );
    const result = await runAgent(prompt, options);
    if (result.reason !== "final" || completed !== count) throw new Error(`tree of ${count}: ended with ${result.reason}, ${completed} sub-agents completed`);
    if (llm.pending() !== 0) throw new Error(`tree of ${count}: script not fully played`);
  } finally {
    session.close();
  }
}

const approveAll = async () => "once";
const scenarios = {
  single: () => tree(1),
  fanout: () => tree(TASKS),
  approver: () => tree(TASKS, { approver: approveAll }),
};

try {
  const samples = { single: [], fanout: [], approver: [] };
  const peaks = { fanout: 0, approver: 0 };
  for (const name of Object.keys(scenarios)) await scenarios[name](); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? ["single", "fanout", "approver"] : ["approver", "fanout", "single"];
    for (const name of order) {
      llm.reset();
      samples[name].push((await timed(scenarios[name])).ms);
      if (name in peaks) peaks[name] = Math.max(peaks[name], llm.maxConcurrent);
    }
  }
  const single = median(samples.single);
  const fanout = median(samples.fanout);
  const approver = median(samples.approver);
  console.log(
    `task: a top-level agent (2 model calls) delegates to sub-agents of 2 model calls each (a read, then an answer); every reply takes ${LATENCY_MS} ms; ` +
      `concurrency ${TASKS}; ${RUNS} runs each (interleaved, after a warm-up), medians:`,
  );
  const row = (label, value, note = "") => console.log(`  ${label.padEnd(44)}${value.toFixed(1).padStart(8)} ms${note}`);
  row("single task (1 sub-agent)", single);
  row(`fan-out of ${TASKS}, parallel (no approver)`, fanout, `  (at most ${peaks.fanout} requests at once)`);
  row(`fan-out of ${TASKS}, approver reachable`, approver, `  (at most ${peaks.approver} requests at once)`);
  console.log(`  ideal: 4 replies x ${LATENCY_MS} ms = ${4 * LATENCY_MS} ms for each`);
  console.log(`subagents: fanout16/single=${(fanout / single).toFixed(2)}`);
} finally {
  await llm.close();
  rmSync(scratch, { recursive: true, force: true });
}

// What the agent benchmarks (bench:loop, bench:subagents, bench:sandbox) share: a scratch folder
// (in the system temp folder, or under `base`) with a working folder holding notes.txt, the
// scripted LLM server from the tests on 127.0.0.1, a model target on it built by bosun's own
// provider code, and the median/timing helpers. Not a benchmark itself.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const dist = (path) => join(root, "dist", path);

export async function startScriptedAgentBench(name, note, { base = tmpdir() } = {}) {
  const { tsImport } = await import("tsx/esm/api");
  const { startLlmServer } = await tsImport(join(root, "test/fixtures/llm-server.ts"), import.meta.url);
  const { languageModelFor } = await import(dist("llm/language-model.js"));
  globalThis.AI_SDK_LOG_WARNINGS = false;
  const scratch = mkdtempSync(join(base, `bosun-bench-${name}-`));
  const workdir = join(scratch, "work");
  mkdirSync(workdir);
  writeFileSync(join(workdir, "notes.txt"), Array.from({ length: 40 }, (_, i) => `note ${i}: ${note}`).join("\n") + "\n");
  const llm = await startLlmServer();
  const target = {
    providerID: "bench",
    modelID: "scripted",
    name: "scripted",
    npm: "@ai-sdk/openai-compatible",
    baseURL: llm.openaiURL,
    headers: {},
    apiKey: "sk-bench-0000000000",
    credentialHint: { env: ["BENCH_API_KEY"] },
    limits: { context: 1_000_000, output: 4_000 },
    toolCall: true,
  };
  return { scratch, workdir, llm, target, model: await languageModelFor(target) };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds `fn` took, and what it returned. */
export async function timed(fn) {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

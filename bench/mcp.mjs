// MCP servers in `bosun run`, as the user feels them (`npm run bench:mcp`).
//   Whole `bosun run` processes (node start included), each in its own temp home (HOME, XDG_*;
//   stdin not a terminal), against the scripted OpenAI-compatible server of the tests on 127.0.0.1:
//   none     no `mcp` in bosun.json: one model request, a text answer
//   one      the same with one stdio server (the test fixture, written with the official SDK) of 20 tools
//   three    the same with three such servers of 20 tools each (the case)
//   …-cold   the same with bosun's tool-list cache removed first (servers never seen: the first
//            request waits for their start); without -cold the cache holds their lists from the
//            run before (the first request goes out while they start)
//   alone    the floor: the same fixture servers (1, and 3 at once) started by bare official SDK
//            clients in this process, spawn to tools listed (every page), no bosun at all
//   Timed: from the spawn to the first model request (the servers start in parallel while bosun sets
//   the run up), and the whole run (stopping the servers included). Checked: every MCP run's first
//   request carries all the servers' tools.
//   A tool call round trip, two ways:
//   calls    a run of 20 turns that each call fixture__echo, against the same run calling the
//            built-in `read`: (calls - reads) / 20 is what one MCP call adds to a turn
//   client   in one process, the same echo call 300 times through bosun's path (the tool the model
//            calls: its arguments checked, the call over bosun's stdio transport, the result made
//            text) and through a bare official SDK client (Client + StdioClientTransport) on its own
//            fixture; medians per call
// Runs are interleaved so machine noise hits them alike (1 warm-up round, then ROUNDS, default 7).
// Targets (issue 17): first request with 3 servers <= 1.3x without; a call through bosun <= 1.2x the
// bare client. Last line: the ratios.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.mjs";
import { homeEnv } from "./home-env.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALLS = 300;
const TURNS = 20;
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const fixture = join(root, "test", "fixtures", "mcp-server.mjs");
const dist = (path) => join(root, "dist", path);

const { tsImport } = await import("tsx/esm/api");
const { startLlmServer, ReplyBuilder } = await tsImport(join(root, "test/fixtures/llm-server.ts"), import.meta.url);
const llm = await startLlmServer();
const work = mkdtempSync(join(tmpdir(), "bosun-bench-mcp-"));

/** A fixture server of 20 tools (echo, add, write_note and 17 generated), as a bosun.json entry. */
const server = (name, record) => ({ command: process.execPath, args: [fixture, "--name", name, "--tools", "echo,add,write_note", "--generate", "17", ...(record ? ["--record", record] : [])] });
const records = (name) => join(work, `${name}-events.jsonl`);

/** A temp home whose bosun.json has these servers; bosun's first start (migrations) is done here, untimed. */
async function home(name, mcp) {
  const dir = join(work, name);
  const env = {
    ...homeEnv(dir),
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "bench", model: "scripted", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 200_000, output: 4_000 }),
  };
  mkdirSync(join(dir, ".config", "bosun"), { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, ".config", "bosun", "bosun.json"), JSON.stringify(mcp ? { mcp } : {}));
  writeFileSync(join(dir, "notes.txt"), Array.from({ length: 40 }, (_, i) => `note ${i}: keep MCP cheap`).join("\n") + "\n");
  await bosun({ env, dir }, ["--version"]);
  return { env, dir };
}

/** Runs bosun; resolves with the time to the first model request (when one came) and the whole run, in ms. */
function bosun(t, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const wall = Date.now();
    let first = null;
    const child = spawn(process.execPath, [bin, ...args], { env: t.env, cwd: t.dir, stdio: ["ignore", "ignore", "pipe"] });
    t.onRequest = () => (first ??= performance.now() - started);
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`bosun ${args.join(" ")} exited with ${code}:\n${stderr}`));
      else resolve({ first, total: performance.now() - started, wall });
    });
  });
}

/** One reply of the script, noting when its request came. */
function reply(t, build) {
  llm.reply(() => {
    t.onRequest?.();
    return build(new ReplyBuilder());
  });
}

const homes = {
  none: await home("none", null),
  one: await home("one", { fixture: server("fixture", records("one")) }),
  three: await home("three", Object.fromEntries(["alpha", "beta", "gamma"].map((name) => [name, server(name, records("three"))]))),
};
const toolCounts = { none: 0, one: 20, three: 60 };

/** One run in the home `name`; `-cold`: with bosun's tool-list cache removed first. */
async function startRun(run) {
  const name = run.replace(/-cold$/, "");
  const t = homes[name];
  if (run.endsWith("-cold")) rmSync(join(t.dir, ".cache", "bosun", "mcp-tools.json"), { force: true });
  else if (name !== "none" && !existsSync(join(t.dir, ".cache", "bosun", "mcp-tools.json"))) throw new Error(`${run}: no tool-list cache after the run before`);
  llm.reset();
  reply(t, (r) => r.text("Hello.").usage({ input: 100, output: 2 }));
  rmSync(records(name), { force: true });
  const timing = await bosun(t, ["run", "--yes", "say hello"]);
  // When the last server's process began (its first line), from bosun's spawn.
  const spawned = existsSync(records(name)) ? readFileSync(records(name), "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((event) => event.event === "spawned") : [];
  timing.spawn = spawned.length > 0 ? Math.max(...spawned.map((event) => event.t)) - timing.wall : null;
  const sent = (llm.requests[0].body.tools ?? []).filter((tool) => tool.function.name.includes("__")).length;
  if (sent !== toolCounts[name]) throw new Error(`${name}: the first request carried ${sent} MCP tools, not ${toolCounts[name]}`);
  return timing;
}

async function turnsRun(tool) {
  const t = homes.one;
  llm.reset();
  for (let i = 0; i < TURNS; i++) reply(t, (r) => (tool === "echo" ? r.tool("fixture__echo", { text: `call ${i}` }) : r.tool("read", { path: "notes.txt" })).usage({ input: 100, output: 5 }));
  reply(t, (r) => r.text("Done.").usage({ input: 100, output: 2 }));
  const timing = await bosun(t, ["run", "--yes", "call the tool twenty times"]);
  if (llm.pending() !== 0 || llm.requests.length !== TURNS + 1) throw new Error(`${tool}: the script was not played`);
  return timing.total;
}

/** The fixture servers started by bare SDK clients, `count` at once: spawn to every tool listed, in ms. */
async function alone(count) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const started = performance.now();
  const clients = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const bare = new Client({ name: "bench", version: "1.0.0" });
      await bare.connect(new StdioClientTransport({ command: process.execPath, args: server(`alone${i}`).args, stderr: "ignore" }));
      let cursor;
      let listed = 0;
      do {
        const page = await bare.listTools(cursor ? { cursor } : {});
        listed += page.tools.length;
        cursor = page.nextCursor;
      } while (cursor);
      if (listed !== 20) throw new Error(`a bare client listed ${listed} tools`);
      return bare;
    }),
  );
  const ms = performance.now() - started;
  await Promise.all(clients.map((bare) => bare.close()));
  return ms;
}

/** The echo call, CALLS times: through bosun's tool (as the loop runs it, without the model) and through a bare SDK client. */
async function clientCalls() {
  const [{ McpServers }, { mcpAgentTool }, { configuredServers }] = await Promise.all([import(dist("mcp/client/server-pool.js")), import(dist("agent/tools/mcp-tools.js")), import(dist("mcp/configured-servers.js"))]);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const pool = new McpServers({ servers: configuredServers([{ scope: "global", file: join(work, "bosun.json"), value: { mcp: { fixture: server("fixture") } } }]), referenceEnv: {}, baseEnv: { PATH: process.env.PATH }, workdir: work, home: work });
  const { tools } = await pool.start();
  const echo = mcpAgentTool(tools.find((entry) => entry.modelName === "fixture__echo"));
  const context = { workdir: work, signal: new AbortController().signal, callId: "bench", spill: null, ui: {}, env: {} };
  const bare = new Client({ name: "bench", version: "1.0.0" });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: server("bare").args, stderr: "ignore" }));
  const samples = { bosun: [], bare: [] };
  const once = {
    bosun: async (i) => {
      const parsed = echo.inputSchema.safeParse({ text: `call ${i}` });
      const result = await echo.execute(parsed.data, context);
      if (result.output !== `call ${i}`) throw new Error(`bosun's call answered ${result.output}`);
    },
    bare: async (i) => {
      const result = await bare.callTool({ name: "echo", arguments: { text: `call ${i}` } });
      if (result.content[0].text !== `call ${i}`) throw new Error("the bare call answered something else");
    },
  };
  try {
    for (let i = 0; i < 50; i++) for (const name of ["bosun", "bare"]) await once[name](i); // warm-up
    for (let i = 0; i < CALLS; i++) {
      for (const name of i % 2 === 0 ? ["bosun", "bare"] : ["bare", "bosun"]) {
        const started = performance.now();
        await once[name](i);
        samples[name].push(performance.now() - started);
      }
    }
  } finally {
    await bare.close();
    await pool.stop();
  }
  return { bosun: median(samples.bosun), bare: median(samples.bare) };
}

try {
  const runs = ["none", "one-cold", "one", "three-cold", "three"];
  const first = Object.fromEntries(runs.map((name) => [name, []]));
  const spawns = Object.fromEntries(runs.filter((name) => name !== "none").map((name) => [name, []]));
  const total = Object.fromEntries(runs.map((name) => [name, []]));
  const turns = { echo: [], read: [] };
  const floor = { alone1: [], alone3: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    // A warm run follows its cold one (which leaves the cache it reads); the pairs alternate order.
    const forward = ["none", "one-cold", "one", "three-cold", "three", "echo", "read", "alone1", "alone3"];
    const order = round % 2 === 0 ? forward : ["alone3", "alone1", "read", "echo", "three-cold", "three", "one-cold", "one", "none"];
    for (const name of order) {
      if (name === "alone1" || name === "alone3") {
        const ms = await alone(name === "alone1" ? 1 : 3);
        if (round > 0) floor[name].push(ms);
        continue;
      }
      if (name === "echo" || name === "read") {
        const ms = await turnsRun(name);
        if (round > 0) turns[name].push(ms);
        continue;
      }
      const timing = await startRun(name);
      if (round === 0) continue; // warm-up
      first[name].push(timing.first);
      if (name !== "none") spawns[name].push(timing.spawn);
      total[name].push(timing.total);
    }
  }
  const client = await clientCalls();
  const med = (samples) => Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  const f = med(first);
  const w = med(total);
  const tr = med(turns);
  const fl = med(floor);
  const sp = med(spawns);
  const perCall = (tr.echo - tr.read) / TURNS;
  const target = (value, max) => `${value.toFixed(2)} (target <= ${max}${value <= max ? "" : ": MISSED"})`;
  console.log(`bosun run processes, ${ROUNDS} rounds (interleaved, after 1 warm-up round), medians; servers: the SDK fixture, 20 tools each:`);
  const row = (label, name) => console.log(`  ${label.padEnd(44)} first request ${f[name].toFixed(0).padStart(5)} ms   whole run ${w[name].toFixed(0).padStart(5)} ms`);
  row("no MCP config", "none");
  row("1 stdio server, never seen (no cached list)", "one-cold");
  row("1 stdio server, seen before", "one");
  row("3 stdio servers, never seen", "three-cold");
  row("3 stdio servers, seen before", "three");
  console.log(`  the floor, no bosun: bare SDK clients start the servers and list their tools: 1 server ${fl.alone1.toFixed(0)} ms, 3 at once ${fl.alone3.toFixed(0)} ms`);
  console.log(`  the servers' processes run from ${sp.one.toFixed(0)} ms (1) and ${sp.three.toFixed(0)} ms (3, the last) after bosun's spawn: bosun's start (node, config) comes first`);
  console.log(`  first request, 3 servers seen before / none   ${target(f.three / f.none, 1.3)}`);
  console.log(`  first request, 3 servers never seen / none    ${(f["three-cold"] / f.none).toFixed(2)} (their start: the model cannot be told tools no server has listed yet)`);
  console.log(`tool call round trip:`);
  console.log(`  ${TURNS} turns calling fixture__echo       ${tr.echo.toFixed(0).padStart(5)} ms   the same calling read ${tr.read.toFixed(0)} ms: one MCP call adds ${perCall.toFixed(2)} ms to a turn`);
  console.log(`  one echo call, ${CALLS}x: through bosun ${client.bosun.toFixed(3)} ms, bare SDK client ${client.bare.toFixed(3)} ms   ${target(client.bosun / client.bare, 1.2)}`);
  console.log(
    `mcp: first-request three/none=${(f.three / f.none).toFixed(2)} one/none=${(f.one / f.none).toFixed(2)} three-cold/none=${(f["three-cold"] / f.none).toFixed(2)} one-cold/none=${(f["one-cold"] / f.none).toFixed(2)} three-cold/floor=${(f["three-cold"] / fl.alone3).toFixed(2)} whole-run three/none=${(w.three / w.none).toFixed(2)} call bosun/bare=${(client.bosun / client.bare).toFixed(2)} mcp-call-in-turn=${perCall.toFixed(2)}ms`,
  );
} finally {
  await llm.close();
  rmSync(work, { recursive: true, force: true });
}

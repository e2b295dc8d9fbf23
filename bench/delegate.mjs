// Delegation to the user's own agent CLIs, side by side in one run (`npm run bench:delegate`).
//
// 1. Fan-out: whole `bosun run` processes against the scripted model server on 127.0.0.1, every
//    reply 200 ms late. The parent (bosun's loop) makes two calls: the `agent` call, the answer.
//    Each task runs a real pinned CLI (Claude Code, Codex, Gemini CLI, OpenCode; `node
//    scripts/real-clis.mjs install`) in a worktree of its own, for 3 turns: read notes.txt, write
//    result.txt, answer. "one task" delegates one task to each kind in turn (the slowest kind's
//    time is the baseline: a fan-out can end no sooner than its slowest CLI); "16 tasks" delegates
//    4 to each kind at once (BENCH_KINDS=claude,codex picks the kinds). Rounds interleaved;
//    medians. Target: 16 tasks <= 1.5x one task. The machine's CPU time during each run is
//    printed too: the CLIs themselves are CPU-heavy at start (Claude ~2.5 s, Gemini and OpenCode
//    more), so on few cores their CPU time over the number of cores is a floor no scheduling
//    beats; `fanout16/cpu-floor` says how close to it the fan-out ran.
// 2. Worktree creation on a 5,000-file repository: bosun's createTaskWorktree (record, lock,
//    status check) against a bare `git worktree add -b`, interleaved. Target <= 2x.
// 3. Parsing: each CLI's real stream (test/fixtures/cli-streams), its turns repeated to 20,000
//    events, read by runExternal from a process printing it, against the same process read by
//    a bare line counter. The difference per event is bosun's parsing cost. Target <= 0.1 ms.
// Last line: the ratios.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { homeEnv } from "./home-env.mjs";
import { dist, median, root, timed } from "./scripted-agent.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = 200;
const KINDS = (process.env.BENCH_KINDS ?? "claude,codex,gemini,opencode").split(",");
const bin = join(root, "bin", "bosun.js");
const scratch = mkdtempSync(join(tmpdir(), "bosun-bench-delegate-"));
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
const git = (cwd, ...args) => execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" }).trim();

const { tsImport } = await import("tsx/esm/api");
const { startLlmServer, ReplyBuilder } = await tsImport(join(root, "test/fixtures/llm-server.ts"), import.meta.url);
const { realCli, realCliEnv } = await tsImport(join(root, "test/fixtures/real-clis.ts"), import.meta.url);
const { vendorCliSetup, editToolCall, readToolCall } = await tsImport(join(root, "test/fixtures/vendor-clis.ts"), import.meta.url);

try {
  const fanout = await benchFanOut();
  if (process.env.BENCH_ONLY_FANOUT) process.exit(0);
  const worktree = await benchWorktrees();
  const parsing = await benchParsing();
  console.log(
    `delegate: fanout16/one=${(fanout.sixteen / fanout.one).toFixed(2)} fanout16/cpu-floor=${(fanout.sixteen / Math.max(fanout.floor, fanout.one)).toFixed(2)} worktree/bare=${(worktree.bosun / worktree.bare).toFixed(2)} parse-ms-per-event=${parsing.toFixed(4)}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

async function benchFanOut() {
  const llm = await startLlmServer();
  const home = join(scratch, "home");
  mkdirSync(home, { recursive: true });
  const cliEnv = {};
  const agents = {};
  for (const id of KINDS) {
    Object.assign(cliEnv, vendorCliSetup(id, llm, home).env);
    agents[id] = { binary: realCli(id).bin, delegate: "edit" };
  }
  const config = join(home, ".config", "bosun");
  mkdirSync(config, { recursive: true, mode: 0o700 });
  writeFileSync(join(config, "bosun.json"), JSON.stringify({ agents, subagents: { concurrency: 16, treeConcurrency: 16, confirmAbove: 16 } }));
  const repo = join(scratch, "repo");
  mkdirSync(repo);
  writeFileSync(join(repo, "notes.txt"), "some notes\n");
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "first");
  const env = {
    ...realCliEnv({ home, env: cliEnv }),
    ...homeEnv(home),
    AGENT_ZERO_HOST: "http://127.0.0.1:1",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "bench", model: "parent", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 200_000, output: 4_000 }),
  };
  const workdirIn = (request) => (/working directory: (\/[^\s<]+)/i.exec(request.text) ?? [])[1] ?? "";
  let run = 0;
  const script = (kinds) => {
    const prompt = `[run ${++run}] delegate`;
    const tasks = kinds.map((kind, i) => ({ prompt: `[run ${run} task ${i + 1}] ${kind}: write result.txt`, agent: kind }));
    llm.onPrompt(prompt).reply().latency(LATENCY_MS).tool("agent", { tasks });
    for (const task of tasks) {
      const kind = task.agent;
      const absolute = kind === "claude" || kind === "opencode";
      const replies = llm.onPrompt(task.prompt);
      replies.reply((request) => {
        const read = readToolCall(kind, { cwd: absolute ? workdirIn(request) : "", file: "notes.txt" });
        return new ReplyBuilder().latency(LATENCY_MS).tool(read.name, read.args).usage({ input: 1000, output: 30 });
      });
      replies.reply((request) => {
        const edit = editToolCall(kind, { cwd: absolute ? workdirIn(request) : "", file: "result.txt", content: "done\n" });
        return new ReplyBuilder().latency(LATENCY_MS).tool(edit.name, edit.args).usage({ input: 1200, output: 40 });
      });
      replies.reply().latency(LATENCY_MS).text(`${task.prompt}: done`).usage({ input: 1400, output: 10 });
    }
    llm.onPrompt(prompt).reply().latency(LATENCY_MS).text("All done.");
    return prompt;
  };
  const bosun = async (kinds) => {
    const prompt = script(kinds);
    const { ms, value } = await timed(() => runBosun(["run", "--yes", "--json", prompt], env, repo));
    const result = JSON.parse(value.stdout);
    cpu[kinds.length === 1 ? kinds[0] : "sixteen"].push(value.cpuMs);
    const completed = result.subagents.filter((subagent) => subagent.status === "completed").length;
    if (completed !== kinds.length) throw new Error(`${kinds.length} tasks: ${completed} completed: ${JSON.stringify(result.subagents.map((s) => s.error ?? s.status))}`);
    return ms;
  };
  const sixteen = Array.from({ length: 16 }, (_, i) => KINDS[i % KINDS.length]);
  const samples = { sixteen: [], ...Object.fromEntries(KINDS.map((kind) => [kind, []])) };
  const cpu = { sixteen: [], ...Object.fromEntries(KINDS.map((kind) => [kind, []])) };
  try {
    await bosun(KINDS); // warm-up: every CLI once
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? [...KINDS, "sixteen"] : ["sixteen", ...[...KINDS].reverse()];
      for (const name of order) samples[name].push(await bosun(name === "sixteen" ? sixteen : [name]));
      llm.reset();
    }
  } finally {
    await llm.close();
  }
  console.log(`fan-out: whole bosun run processes; the parent and every CLI turn wait ${LATENCY_MS} ms per reply; 3 turns per task; ${ROUNDS} rounds (interleaved, after a warm-up), medians:`);
  const singles = Object.fromEntries(KINDS.map((kind) => [kind, median(samples[kind])]));
  const cores = availableParallelism();
  const cpuNote = (name) => `CPU ${(median(cpu[name]) / 1000).toFixed(1)} s (the machine's, while it ran)`;
  for (const kind of KINDS) console.log(`  one ${kind.padEnd(9)} task ${singles[kind].toFixed(0).padStart(8)} ms   ${cpuNote(kind)}`);
  const one = Math.max(...Object.values(singles));
  const sixteenMs = median(samples.sixteen);
  console.log(`  16 tasks (${16 / KINDS.length} per kind, concurrency 16) ${sixteenMs.toFixed(0).padStart(8)} ms   ${cpuNote("sixteen")}: at least ${(median(cpu.sixteen) / cores / 1000).toFixed(1)} s of wall time on ${cores} cores`);
  console.log(`  the slowest single kind: ${one.toFixed(0)} ms`);
  return { one, sixteen: sixteenMs, floor: median(cpu.sixteen) / cores };
}

/** Runs bosun to its end: its stdout, and the CPU time the machine spent meanwhile (bosun and every CLI under it; the bench waits). */
function runBosun(argv, env, cwd) {
  const before = busyMs();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => (code === 0 ? resolve({ stdout, cpuMs: busyMs() - before }) : reject(new Error(`bosun exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** Milliseconds every core of the machine has spent busy (user, nice, system, interrupts) since it started. */
function busyMs() {
  return cpus().reduce((sum, cpu) => sum + cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq, 0);
}

async function benchWorktrees() {
  const { createTaskWorktree } = await import(dist("agent/worktrees/task-worktree.js"));
  const repo = join(scratch, "big");
  for (let i = 0; i < 5000; i++) {
    const dir = join(repo, `d${i % 50}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
  }
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "5000 files");
  const data = join(scratch, "data");
  const bare = join(scratch, "bare");
  mkdirSync(bare);
  const samples = { bosun: [], bare: [] };
  let n = 0;
  const runs = {
    bosun: () => createTaskWorktree({ cwd: repo, dataDir: data, session: "bench", task: `t${++n}`, carryChanges: false }),
    bare: () => new Promise((resolve, reject) => {
      const child = spawn("git", ["worktree", "add", "-q", "-b", `bare-${++n}`, join(bare, `w${n}`), "HEAD"], { cwd: repo, stdio: "ignore" });
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git worktree add exited ${code}`))));
    }),
  };
  await runs.bosun();
  await runs.bare();
  for (let i = 0; i < 10; i++) for (const name of i % 2 === 0 ? ["bosun", "bare"] : ["bare", "bosun"]) samples[name].push((await timed(runs[name])).ms);
  const result = { bosun: median(samples.bosun), bare: median(samples.bare) };
  console.log(`worktree creation, 5,000-file repository, 10 each (interleaved), medians: bosun ${result.bosun.toFixed(1)} ms, bare git worktree add ${result.bare.toFixed(1)} ms`);
  return result;
}

async function benchParsing() {
  const { runExternal } = await import(dist("agent/subagents/external/run-external.js"));
  const { streamParser } = await import(dist("agent/subagents/external/stream-parsers.js"));
  const { CapMeter, TreeMeter } = await import(dist("agent/subagents/limits.js"));
  const EVENTS = 20_000;
  const perEvent = [];
  console.log(`parsing: ${EVENTS.toLocaleString("en-US")} events of each CLI's real stream, printed by a process; medians of 5:`);
  for (const kind of ["claude", "codex", "gemini", "opencode", "grok"]) {
    const lines = readFileSync(join(root, "test/fixtures/cli-streams", `${kind}-${kind === "grok" ? "edit" : "3turns"}.jsonl`), "utf8").split("\n").filter(Boolean);
    const isEnd = (line) => /"type":"(result|turn\.completed)"/.test(line);
    const body = lines.filter((line) => !isEnd(line));
    const ends = lines.filter(isEnd);
    const stream = [];
    while (stream.length < EVENTS - ends.length) stream.push(...body);
    const file = join(scratch, `${kind}.jsonl`);
    writeFileSync(file, [...stream.slice(0, EVENTS - ends.length), ...ends].join("\n") + "\n");
    const command = { file: "cat", args: [file], env: { PATH: process.env.PATH }, cwd: scratch };
    const parse = () =>
      runExternal({ name: kind, command, parser: streamParser(kind), signal: new AbortController().signal, onEvent: () => {}, meter: new CapMeter({}, new TreeMeter({})), onCap: () => {}, price: () => null, redact: (text) => text });
    const count = () =>
      new Promise((resolve) => {
        const child = spawn("cat", [file], { stdio: ["ignore", "pipe", "ignore"] });
        let newlines = 0;
        child.stdout.setEncoding("utf8").on("data", (chunk) => {
          for (let i = chunk.indexOf("\n"); i >= 0; i = chunk.indexOf("\n", i + 1)) newlines++;
        });
        child.on("close", () => resolve(newlines));
      });
    const samples = { parse: [], count: [] };
    await parse();
    await count();
    for (let i = 0; i < 5; i++) for (const name of i % 2 === 0 ? ["parse", "count"] : ["count", "parse"]) samples[name].push((await timed(name === "parse" ? parse : count)).ms);
    const ms = (median(samples.parse) - median(samples.count)) / EVENTS;
    perEvent.push(ms);
    console.log(`  ${kind.padEnd(9)} read and parsed ${median(samples.parse).toFixed(1).padStart(7)} ms, only counted ${median(samples.count).toFixed(1).padStart(7)} ms: ${(ms * 1000).toFixed(1)} µs per event`);
  }
  return Math.max(...perEvent);
}

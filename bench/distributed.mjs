// Sub-agent tasks on bosun workers against the same tasks in the parent's process, side by side in
// one run (`npm run bench:distributed`). Whole processes, as the user runs them: `bosun run` (the
// parent) and `bosun worker`s, Debian's redis-server on a free 127.0.0.1 port, and the scripted
// model server from the tests on 127.0.0.1, every reply 200 ms late (BENCH_LATENCY_MS).
//
// The parent makes two model calls: one that calls the agent tool 4 times (16 tasks each, 64 in
// all), then its answer. Each task has 3 turns: read notes.txt, read todo.txt, answer.
//   in-process  the 64 tasks in the parent's process, concurrency 16;
//   four        on 4 workers of concurrency 4 (Redis), the parent's concurrency 16;
//   one         on 1 worker of concurrency 4, the parent's concurrency 16;
//   light       32 tasks on the same 4 workers, the parent's concurrency 4 (the cores not all busy).
// Rounds alternate (after a warm-up); medians. Targets: four <= 1.15x in-process; one >= 3.5x four.
// The machine's CPU time during each run is printed too (and the scripted server's share): on few
// cores, CPU over cores is a floor no scheduling beats.
// Queue overhead per task, from the parents' log (one line per task: when it was queued, started,
// finished, seen ended; a worker stamps start and finish, the parent the rest, one clock):
// enqueue -> start and finish -> parent sees it, over every task of the "four" runs and of the
// "light" runs. Targets p50 <= 5 ms, p99 <= 25 ms.
// A worker killed: 4 workers of concurrency 4 with a short lock (BOSUN_WORKER_LOCK_MS 2000, looked
// at every 1000 ms), a run left alone against a run in which one worker is SIGKILLed a second into
// its first wave and a replacement started at once: the difference is what the kill cost; it is
// compared with the longest a dead worker's task can wait to be seen stalled (the lock's length
// plus one stall check).
// Then what Redis keeps per finished task (job, checkpoint, the rest), for the README's paper on
// 10,000 tasks. Last line: the ratios.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { homeEnv } from "./home-env.mjs";
import { median, root, timed } from "./scripted-agent.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const TASKS = 64;
const LIGHT_TASKS = 32;
const PER_CALL = 16;
const SHORT_LOCK = { BOSUN_WORKER_LOCK_MS: "2000", BOSUN_WORKER_STALLED_MS: "1000" };
const bin = join(root, "bin", "bosun.js");
const scratch = mkdtempSync(join(tmpdir(), "bosun-bench-distributed-"));
const processes = new Set();
let runNumber = 0;
/** By scenario, for each run: the machine's CPU time, this process's (the scripted model server's), redis-server's. */
const cpu = {};
const serverCpu = {};
const redisCpu = {};
/** The kernel's clock ticks per second, in which /proc gives CPU times (100 on Linux). */
const CLOCK_TICKS = 100;
process.on("exit", () => {
  for (const child of processes) child.kill("SIGKILL");
});

const { tsImport } = await import("tsx/esm/api");
const { startLlmServer } = await tsImport(join(root, "test/fixtures/llm-server.ts"), import.meta.url);

const llm = await startLlmServer();
const redis = await startRedis();
try {
  const homes = {
    "in-process": home("in-process", { concurrency: 16, treeConcurrency: 16 }),
    four: home("four", { backend: "redis", url: redis.url, queue: "four", concurrency: 16, treeConcurrency: 16 }),
    // The four workers' queue, 32 tasks 4 at a time: the queue's cost on a machine with CPU to spare.
    light: home("light", { backend: "redis", url: redis.url, queue: "four", concurrency: 4, treeConcurrency: 4 }, {}, LIGHT_TASKS),
    one: home("one", { backend: "redis", url: redis.url, queue: "one", concurrency: 16, treeConcurrency: 16 }),
    kill: home("kill", { backend: "redis", url: redis.url, queue: "kill", concurrency: 16, treeConcurrency: 16 }, SHORT_LOCK),
  };
  const fleets = {
    four: await Promise.all([1, 2, 3, 4].map(() => startWorker(homes.four, 4))),
    one: [await startWorker(homes.one, 4)],
  };

  const samples = { "in-process": [], four: [], one: [], light: [] };
  const order = Object.keys(samples);
  for (const name of order) await runTree(homes[name]); // warm-up
  const warmedUp = Date.now();
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of i % 2 === 0 ? order : [...order].reverse()) samples[name].push(await runTree(homes[name]));
    llm.reset();
  }
  const overhead = { busy: queueOverhead(homes.four, warmedUp), light: queueOverhead(homes.light, warmedUp) };
  const span = { four: fanOutSpan(homes.four, warmedUp), one: fanOutSpan(homes.one, warmedUp) };

  const kill = await benchKill(homes.kill);
  const memory = await memoryPerTask("four");
  for (const fleet of Object.values(fleets)) for (const worker of fleet) await stop(worker);

  const result = Object.fromEntries(order.map((name) => [name, median(samples[name])]));
  console.log(`fan-out: whole bosun run processes; ${TASKS} tasks of 3 turns, every reply ${LATENCY_MS} ms late; ${ROUNDS} rounds (interleaved, after a warm-up), medians:`);
  const cores = availableParallelism();
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const row = (label, name) =>
    console.log(`  ${label.padEnd(42)}${result[name].toFixed(0).padStart(6)} ms   CPU ${seconds(median(cpu[name]))} (the machine's while it ran, ${seconds(median(serverCpu[name]))} of it the scripted model server's: at least ${seconds(median(cpu[name]) / cores)} on ${cores} cores)`);
  row("in the parent's process, concurrency 16", "in-process");
  row("4 workers of concurrency 4 (Redis)", "four");
  row("1 worker of concurrency 4 (Redis)", "one");
  console.log(`  ideal: 16 at once ${(2 + 4 * 3) * LATENCY_MS} ms, 4 at once ${(2 + 16 * 3) * LATENCY_MS} ms (replies alone; their ratio ${((2 + 16 * 3) / (2 + 4 * 3)).toFixed(2)})`);
  console.log(`  the fan-out alone (first task queued -> last one seen ended, from the parent's log): 4 workers ${span.four.toFixed(0)} ms, 1 worker ${span.one.toFixed(0)} ms (ideal ${4 * 3 * LATENCY_MS} and ${16 * 3 * LATENCY_MS})`);
  const spread = ({ p50, p99 }) => `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`;
  const overheadRow = (label, { count, start, seen }) => console.log(`  ${label} (${count} tasks): enqueue -> start ${spread(start)}; finish -> parent sees it ${spread(seen)}`);
  console.log(`queue overhead per task, on 4 workers of concurrency 4:`);
  overheadRow(`the 64-task runs, the machine's cores busy`, overhead.busy);
  overheadRow(`${LIGHT_TASKS} tasks 4 at a time, cores to spare (${seconds(median(samples.light))} a run)`, overhead.light);
  console.log(`a worker killed (lock ${SHORT_LOCK.BOSUN_WORKER_LOCK_MS} ms, stall check every ${SHORT_LOCK.BOSUN_WORKER_STALLED_MS} ms), ${ROUNDS} rounds, medians: left alone ${kill.calm.toFixed(0)} ms, one worker SIGKILLed ${kill.killed.toFixed(0)} ms: +${kill.extra.toFixed(0)} ms (at most lock + one check: ${kill.bound} ms)`);
  console.log(`Redis per finished task (${memory.tasks} tasks): ${kb(memory.total)} in all: job ${kb(memory.job)}, checkpoint ${kb(memory.checkpoint)}, the rest (events stream, sets) ${kb(memory.rest)}; CPU ${(median(redisCpu.four) / TASKS).toFixed(1)} ms (4 workers), ${(median(redisCpu.one) / TASKS).toFixed(1)} ms (1 worker)`);
  console.log(
    `distributed: four/in-process=${(result.four / result["in-process"]).toFixed(2)} one/four=${(result.one / result.four).toFixed(2)} one/four-fanout=${(span.one / span.four).toFixed(2)} ` +
      `enqueue-start-p50/p99=${figures(overhead.busy.start)} (light ${figures(overhead.light.start)}) finish-seen-p50/p99=${figures(overhead.busy.seen)} (light ${figures(overhead.light.seen)}) ` +
      `kill-extra/lock+check=${(kill.extra / kill.bound).toFixed(2)}`,
  );
} finally {
  for (const child of processes) child.kill("SIGKILL");
  await llm.close();
  await redis.stop();
  rmSync(scratch, { recursive: true, force: true });
}

/** A home of its own: bosun.json's `subagents`, the scripted model for the parent and its workers, the working folder. */
function home(name, subagents, extraEnv = {}, tasks = TASKS) {
  const dir = join(scratch, name);
  const config = join(dir, ".config", "bosun");
  mkdirSync(config, { recursive: true, mode: 0o700 });
  writeFileSync(join(config, "bosun.json"), JSON.stringify({ subagents: { confirmAbove: PER_CALL, ...subagents } }));
  const work = join(dir, "work");
  mkdirSync(work);
  writeFileSync(join(work, "notes.txt"), Array.from({ length: 40 }, (_, i) => `note ${i}: the queue costs little`).join("\n") + "\n");
  writeFileSync(join(work, "todo.txt"), "nothing left\n");
  const env = {
    ...homeEnv(dir),
    NO_COLOR: "1",
    AGENT_ZERO_HOST: "http://127.0.0.1:1",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "bench", model: "scripted", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 200_000, output: 4_000 }),
    ...extraEnv,
  };
  return { name, env, work, tasks, log: join(dir, ".local", "state", "bosun", "logs", "bosun.log") };
}

/** Scripts one tree of `where.tasks` tasks (prompts unique to this run) and runs `bosun run` to its end: its time in ms. */
async function runTree(where, { during } = {}) {
  const run = ++runNumber;
  const prompt = `[run ${run}] review everything`;
  const tasks = Array.from({ length: where.tasks }, (_, i) => `[run ${run} task ${String(i + 1).padStart(2, "0")}] review the notes`);
  let parentReply = llm.onPrompt(prompt).reply().latency(LATENCY_MS);
  for (let i = 0; i < where.tasks; i += PER_CALL) parentReply = parentReply.tool("agent", { tasks: tasks.slice(i, i + PER_CALL) });
  parentReply.usage({ input: 2_000, output: 400 });
  for (const task of tasks) {
    llm.onPrompt(task).reply().latency(LATENCY_MS).tool("read", { path: "notes.txt" }).usage({ input: 900, output: 20 });
    llm.onPrompt(task).reply().latency(LATENCY_MS).tool("read", { path: "todo.txt" }).usage({ input: 1_300, output: 20 });
    llm.onPrompt(task).reply().latency(LATENCY_MS).text(`${task}: the notes are consistent.`).usage({ input: 1_500, output: 12 });
  }
  llm.onPrompt(prompt).reply().latency(LATENCY_MS).text("Every review is done.").usage({ input: 8_000, output: 8 });
  const before = { machine: busyMs(), server: process.cpuUsage(), redis: redis.cpuMs() };
  const { ms, value } = await timed(() => runBosun(["run", "--json", "-y", prompt], where, during));
  const server = process.cpuUsage(before.server);
  cpu[where.name] = [...(cpu[where.name] ?? []), busyMs() - before.machine];
  serverCpu[where.name] = [...(serverCpu[where.name] ?? []), (server.user + server.system) / 1000];
  redisCpu[where.name] = [...(redisCpu[where.name] ?? []), redis.cpuMs() - before.redis];
  const json = JSON.parse(value);
  const completed = json.subagents.filter((child) => child.status === "completed").length;
  if (completed !== where.tasks) throw new Error(`${where.name}: ${completed} of ${where.tasks} tasks completed: ${JSON.stringify(json.subagents.filter((child) => child.status !== "completed").map((child) => child.error ?? child.status).slice(0, 3))}`);
  // A task cut off mid-reply asks again, and the script answers with its next reply: such a task
  // (on a killed worker) has fewer turns. Every other task has its 3.
  const short = json.subagents.filter((child) => child.turns !== 3);
  if (short.length > (during ? 4 : 0)) throw new Error(`${where.name}: ${short.length} tasks did not take 3 turns: ${JSON.stringify(short.map((child) => child.turns))}`);
  return ms;
}

/** `bosun run` to its end (its stdout); `during(child)` runs as it starts. */
function runBosun(argv, where, during) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd: where.work, env: where.env, stdio: ["ignore", "pipe", "pipe"] });
    processes.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => {
      processes.delete(child);
      code === 0 ? resolve(stdout) : reject(new Error(`${where.name}: bosun ${argv.slice(0, 3).join(" ")} exited ${code}: ${stderr.slice(-2000)}`));
    });
    during?.(child);
  });
}

/** Starts `bosun worker` in `where` and waits until it takes tasks. */
function startWorker(where, concurrency) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "worker", "--concurrency", String(concurrency)], { cwd: where.work, env: where.env, stdio: ["ignore", "ignore", "pipe"] });
    processes.add(child);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      if (/takes tasks from/.test(stderr)) resolve(child);
    });
    child.on("exit", (code, signal) => {
      processes.delete(child);
      reject(new Error(`bosun worker (${where.name}) ended (${code ?? signal}) before it took tasks: ${stderr.slice(-1000)}`));
    });
  });
}

/** Stops a worker as the user does (SIGTERM) and waits for it. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The parents' "sub-agent task ran on a worker" lines since `since` (one per task). */
function taskTimings(where, since) {
  const lines = readFileSync(where.log, "utf8").split("\n").filter((line) => line.includes('"msg":"sub-agent task ran on a worker"')).map((line) => JSON.parse(line));
  return lines.filter((line) => line.time >= since && line.startedAt !== null && line.finishedAt !== null);
}

/** The median over the runs since `since` of each run's fan-out: its first task queued to its last seen ended. */
function fanOutSpan(where, since) {
  const runs = new Map();
  for (const line of taskTimings(where, since)) runs.set(line.pid, [...(runs.get(line.pid) ?? []), line]);
  if (runs.size < ROUNDS) throw new Error(`${where.log}: task timings of ${runs.size} runs for ${ROUNDS}`);
  return median([...runs.values()].map((tasks) => Math.max(...tasks.map((task) => task.seenAt)) - Math.min(...tasks.map((task) => task.queuedAt))));
}

/** Each task's enqueue -> start and finish -> seen since `since`, p50 and p99. */
function queueOverhead(where, since) {
  const mine = taskTimings(where, since);
  if (mine.length < ROUNDS * where.tasks) throw new Error(`${where.log}: ${mine.length} task timings for ${ROUNDS * where.tasks} tasks`);
  const spread = (values) => {
    const sorted = values.sort((a, b) => a - b);
    return { p50: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] };
  };
  return {
    count: mine.length,
    start: spread(mine.map((line) => line.startedAt - line.queuedAt)),
    seen: spread(mine.map((line) => line.seenAt - line.finishedAt)),
  };
}

/** Runs left alone against runs in which a worker is SIGKILLed a second in (and replaced at once), interleaved. */
async function benchKill(where) {
  let fleet = await Promise.all([1, 2, 3, 4].map(() => startWorker(where, 4)));
  const calm = [];
  const killed = [];
  const killOne = (parent) => {
    setTimeout(() => {
      if (parent.exitCode !== null) return;
      const victim = fleet[0];
      victim.kill("SIGKILL");
      fleet = [...fleet.slice(1), null];
      startWorker(where, 4).then((replacement) => (fleet[3] = replacement));
    }, 1_000);
  };
  await runTree(where); // warm-up
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of i % 2 === 0 ? ["calm", "killed"] : ["killed", "calm"]) {
      const ms = await runTree(where, name === "killed" ? { during: killOne } : {});
      (name === "calm" ? calm : killed).push(ms);
      // A replacement may still be starting: wait for the whole fleet before the next run.
      while (fleet.includes(null)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    llm.reset();
  }
  for (const worker of fleet) await stop(worker);
  const result = { calm: median(calm), killed: median(killed) };
  return { ...result, extra: result.killed - result.calm, bound: Number(SHORT_LOCK.BOSUN_WORKER_LOCK_MS) + Number(SHORT_LOCK.BOSUN_WORKER_STALLED_MS) };
}

/** What Redis holds for a queue, over its finished tasks: job hashes, checkpoints, the rest (MEMORY USAGE of every key). */
async function memoryPerTask(queue) {
  const client = new Redis(redis.url, { lazyConnect: true });
  await client.connect();
  try {
    let cursor = "0";
    const sizes = { job: 0, checkpoint: 0, rest: 0 };
    let jobs = 0;
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `bosun:${queue}*`, "COUNT", 500);
      cursor = next;
      for (const key of keys) {
        const bytes = (await client.call("MEMORY", "USAGE", key, "SAMPLES", "0")) ?? 0;
        const rest = key.slice(`bosun:${queue}:`.length);
        if (rest.startsWith("checkpoint:")) sizes.checkpoint += bytes;
        else if (/^s[^:]*_c[^:]*_t\d+$/.test(rest)) {
          sizes.job += bytes;
          jobs++;
        } else sizes.rest += bytes;
      }
    } while (cursor !== "0");
    if (jobs === 0) throw new Error(`no finished task's job found in Redis under bosun:${queue}:`);
    return { tasks: jobs, job: sizes.job / jobs, checkpoint: sizes.checkpoint / jobs, rest: sizes.rest / jobs, total: (sizes.job + sizes.checkpoint + sizes.rest) / jobs };
  } finally {
    client.disconnect();
  }
}

/** Milliseconds every core of the machine has spent busy (user, nice, system, interrupts) since it started. */
function busyMs() {
  return cpus().reduce((sum, core) => sum + core.times.user + core.times.nice + core.times.sys + core.times.irq, 0);
}

function figures({ p50, p99 }) {
  return `${p50.toFixed(1)}/${p99.toFixed(1)}ms`;
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Debian's redis-server on a free 127.0.0.1 port, without persistence; waits until it answers. */
async function startRedis() {
  const port = await new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
  const dir = join(scratch, "redis");
  mkdirSync(dir);
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
  processes.add(child);
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const failed = new Promise((_, reject) => child.on("error", (error) => reject(new Error(`redis-server could not start (${error.message}); install it: apt-get install -y redis-server`))));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => undefined);
    const pong = await Promise.race([client.connect().then(() => client.ping()), failed]).catch((error) => (error.message.includes("redis-server could not start") ? Promise.reject(error) : null));
    client.disconnect();
    if (pong === "PONG") break;
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 10 s: ${output.slice(-1000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    /** CPU time the server has used so far, in ms (user + system, from /proc). */
    cpuMs: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

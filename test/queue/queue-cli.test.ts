// `bosun queue` and `bosun worker --status` against live fleets, and how a worker stops: the
// workers listed (ids, concurrency, state) and the counts of an idle queue on Redis and on
// PostgreSQL; a running task listed with its worker, in JSON and in human form; the task of a
// SIGKILLed worker shown stalled before another worker takes it over; an idle worker that gets
// SIGTERM exiting 0 at once and leaving the list; a busy one finishing its task first. Everything
// is real (Redis and PostgreSQL servers, BullMQ, `bosun worker`, `bosun run` and `bosun queue`
// processes on dist/) except the scripted model server. And a parent whose queue has no worker:
// it says so while its task waits, and the task runs once one starts.
import { describe, expect, it } from "vitest";
import type { QueueStatus } from "../../src/app/queue/queue-status.js";
import { runBinAsync } from "../fixtures/cli.js";
import { fleetHome, startBosun, startWorker, type FleetProcess } from "../fixtures/queue-fleet.js";
import { startPostgres, startRedis, type RunningStore } from "../fixtures/stores.js";
import type { TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

/** A fleet's home: its temp home, the environment of its processes and its queue's name. */
interface Fleet {
  t: TempHome;
  env: Record<string, string | undefined>;
  queue: string;
}

/** Runs `bosun queue --json` (or `bosun worker --status --json`) and reads what it printed; a failure fails the test with its stderr. */
async function queueJson(fleet: Fleet, argv: string[] = ["queue", "--json"]): Promise<QueueStatus> {
  const result = await runBinAsync(argv, fleet.env, { cwd: fleet.t.home, timeoutMs: 20_000 });
  expect(result.code, `bosun ${argv.join(" ")}: ${result.stderr}`).toBe(0);
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as QueueStatus;
}

/** Runs a human `bosun queue` / `bosun worker --status` and returns its stdout (exit 0, nothing on stderr). */
async function queueText(fleet: Fleet, argv: string[]): Promise<string> {
  const result = await runBinAsync(argv, fleet.env, { cwd: fleet.t.home, timeoutMs: 20_000 });
  expect(result.code, `bosun ${argv.join(" ")}: ${result.stderr}`).toBe(0);
  expect(result.stderr).toBe("");
  return result.stdout;
}

/** Asks `bosun queue --json` until `check` holds (up to `ms`); the last status when it never did fails the test. */
async function queueUntil(fleet: Fleet, check: (status: QueueStatus) => boolean, ms = 20_000): Promise<QueueStatus> {
  const deadline = Date.now() + ms;
  let last: QueueStatus | null = null;
  while (Date.now() < deadline) {
    last = await queueJson(fleet);
    if (check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`bosun queue --json never showed what the test waits for within ${ms / 1000} s; last:\n${JSON.stringify(last, null, 2)}`);
}

/** A worker's id, from its "<id> takes tasks from" line. */
function workerId(worker: FleetProcess): string {
  const found = /bosun worker: (\S+) takes tasks from/.exec(worker.stderr());
  if (!found) throw new Error(`no "takes tasks from" line:\n${worker.stderr()}`);
  return found[1]!;
}

/** Resolves with the process's exit (code or signal), or "still running" after `ms`. */
function exitWithin(process: FleetProcess, ms: number): Promise<number | string> {
  return Promise.race([process.exited, new Promise<string>((resolve) => setTimeout(() => resolve(`still running after ${ms} ms`), ms))]);
}

/** The idle queue of a fleet of `workers` (id → concurrency), as `bosun queue --json` must list it. */
function expectIdle(status: QueueStatus, store: RunningStore, fleet: Fleet, workers: Map<string, number>): void {
  expect(status).toMatchObject({ backend: store.kind, store: store.url, queue: fleet.queue, counts: { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 }, running: [] });
  expect(status.version).toMatch(/^\d+\.\d+/);
  expect(status.workers.map((worker) => worker.id).sort()).toEqual([...workers.keys()].sort());
  for (const worker of status.workers) {
    expect(worker).toMatchObject({ concurrency: workers.get(worker.id), state: "running", running: [], queue: fleet.queue });
    expect(typeof worker.pid).toBe("number");
    expect(Date.now() - worker.seenAt).toBeLessThan(10_000);
  }
}

describe("bosun queue on Redis", () => {
  it("lists both workers of an idle queue, with their concurrency, and counts of 0", async () => {
    const redis = await startRedis();
    const fleet = fleetHome(redis, llm.openaiURL);
    const [a, b] = [await startWorker(fleet.env, fleet.t.home, 2), await startWorker(fleet.env, fleet.t.home, 3)];
    const workers = new Map([
      [workerId(a), 2],
      [workerId(b), 3],
    ]);
    expect(workers.size).toBe(2);
    expectIdle(await queueJson(fleet), redis, fleet, workers);
    expectIdle(await queueJson(fleet, ["worker", "--status", "--json"]), redis, fleet, workers);
    const text = await queueText(fleet, ["queue"]);
    expect(text).toContain(`queue ${fleet.queue} on Redis `);
    expect(text).toContain(`at ${redis.url}`);
    expect(text).toContain("0 waiting, 0 running, 0 to retry, 0 done, 0 failed");
    expect(text).toMatch(new RegExp(`${workerId(a)}\\s+running\\s+0/2`));
    expect(text).toMatch(new RegExp(`${workerId(b)}\\s+running\\s+0/3`));
    // Another queue on the same store has none of them.
    const other = await queueJson(fleet, ["queue", "--json", "--queue", "elsewhere"]);
    expect(other).toMatchObject({ queue: "elsewhere", workers: [], running: [] });
  }, 60_000);

  it("shows a running task with its worker, then stalled once that worker is killed; an idle worker stops at SIGTERM and leaves the list", async () => {
    const redis = await startRedis();
    const fleet = fleetHome(redis, llm.openaiURL);
    // Long locks for the workers only: the dead worker's task stays stalled (not taken over) for ~30 s.
    const workerEnv = { ...fleet.env, BOSUN_WORKER_LOCK_MS: "30000", BOSUN_WORKER_STALLED_MS: "15000" };
    const workers = [await startWorker(workerEnv, fleet.t.home, 2), await startWorker(workerEnv, fleet.t.home, 2)];
    const ids = workers.map(workerId);
    llm.onPrompt("review").reply().text("Delegating.").tool("agent", { tasks: ["slow task"] });
    llm.onPrompt("slow task").reply().text("thinking…").hang();
    const parent = startBosun(["run", "-y", "review"], fleet.env, fleet.t.home);

    const busy = await queueUntil(fleet, (status) => status.running.length === 1 && status.workers.some((worker) => worker.running.length === 1));
    const [task] = busy.running as [QueueStatus["running"][number]];
    expect(task).toMatchObject({ pickups: 1, stalled: false });
    expect(task.key).toMatch(/^s.+_t1$/);
    expect(ids).toContain(task.worker);
    expect(busy.counts).toMatchObject({ waiting: 0, active: 1, failed: 0, completed: 0 });
    const runningOn = busy.workers.find((worker) => worker.id === task.worker)!;
    expect(runningOn.running).toEqual([task.key]);
    expect(busy.workers.find((worker) => worker.id !== task.worker)!.running).toEqual([]);
    const holder = workers[ids.indexOf(task.worker!)]!;
    const other = workers[1 - ids.indexOf(task.worker!)]!;
    await holder.waitFor(new RegExp(`task ${task.key} \\(sub-agent #1\\): started`));

    const human = await queueText(fleet, ["worker", "--status"]);
    expect(human).toContain(`queue ${fleet.queue} on Redis `);
    expect(human).toContain("0 waiting, 1 running, 0 to retry, 0 done, 0 failed");
    expect(human).toMatch(new RegExp(`${task.worker}\\s+running\\s+1/2`));
    expect(human).toMatch(/TASK\s+WORKER\s+PICKUPS\s+STARTED/);
    expect(human).toMatch(new RegExp(`${task.key}\\s+${task.worker}\\s+1\\s`));
    expect(human).not.toContain("stalled");

    holder.child.kill("SIGKILL");
    expect(await exitWithin(holder, 5_000)).toBe("SIGKILL");
    const stalled = await queueUntil(fleet, (status) => status.running[0]?.stalled === true, 20_000);
    expect(stalled.running).toEqual([expect.objectContaining({ key: task.key, worker: task.worker, stalled: true, pickups: 1 })]);
    expect(stalled.workers.map((worker) => worker.id)).toEqual([workerId(other)]);
    expect(stalled.counts.active).toBe(1);
    // Still stalled, not yet taken over by the other worker (its lock has ~30 s to run).
    expect(other.stderr()).not.toMatch(/started|picked up again/);
    const humanStalled = await queueText(fleet, ["queue"]);
    expect(humanStalled).toMatch(new RegExp(`${task.key}\\s+stalled \\(its worker is gone; picked up again once its lock expires\\)`));

    const asked = Date.now();
    other.child.kill("SIGTERM");
    expect(await exitWithin(other, 5_000), other.stderr()).toBe(0);
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(other.stderr()).toMatch(/bosun worker: stopping: no new tasks/);
    expect(other.stderr()).toMatch(/bosun worker: stopped\n$/);
    const after = await queueJson(fleet);
    expect(after.workers).toEqual([]);
    expect(parent.child.exitCode).toBeNull();
  }, 90_000);

  it("lets a busy worker finish its task at SIGTERM, then exit 0", async () => {
    const redis = await startRedis();
    const fleet = fleetHome(redis, llm.openaiURL);
    const worker = await startWorker(fleet.env, fleet.t.home, 2);
    llm.onPrompt("review").reply().text("Delegating.").tool("agent", { tasks: ["slow task"] });
    llm.onPrompt("slow task").reply().latency(1500).text("slow result 42");
    llm.onPrompt("review").reply().text("Reviewed.");
    const parent = startBosun(["run", "-y", "review"], fleet.env, fleet.t.home);
    await worker.waitFor(/\(sub-agent #1\): started/);
    // The task's model reply is still 1.5 s away: the worker is busy when it is asked to stop.
    worker.child.kill("SIGTERM");
    await worker.waitFor(/bosun worker: stopping: no new tasks; the running ones finish/);
    expect(await exitWithin(worker, 20_000), worker.stderr()).toBe(0);
    const lines = worker.stderr().split("\n");
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    expect(at(/: stopping: /)).toBeGreaterThan(at(/\(sub-agent #1\): started/));
    expect(at(/\(sub-agent #1\): completed in [\d.]+ s \(1 turn\)/)).toBeGreaterThan(at(/: stopping: /));
    expect(at(/^bosun worker: stopped$/)).toBeGreaterThan(at(/\(sub-agent #1\): completed in/));
    expect(worker.stderr()).not.toMatch(/handed back|handing/);
    // The parent got the task's answer from this worker, and finished.
    expect(await exitWithin(parent, 20_000), parent.stderr()).toBe(0);
    expect(parent.stdout()).toContain("Reviewed.");
    expect(parent.stderr()).toMatch(/sub-agent completed/);
    expect(llm.requests.filter((request) => request.prompt.includes("slow task"))).toHaveLength(1);
    expect(llm.requests.at(-1)!.text).toContain("slow result 42");
    const status = await queueJson(fleet);
    expect(status).toMatchObject({ workers: [], running: [], counts: { completed: 1, failed: 0, active: 0 } });
  }, 60_000);
});

describe("a parent whose queue has no worker", () => {
  it("says so while its task waits, and the task runs once a worker starts", async () => {
    const redis = await startRedis();
    const { t, env } = fleetHome(redis, llm.openaiURL);
    llm.onPrompt("delegate nobody").reply().tool("agent", { prompt: "a task for later" });
    llm.onPrompt("a task for later").reply().text("done at last");
    llm.onPrompt("delegate nobody").reply().text("Delegated.");
    const parent = startBosun(["run", "-y", "delegate nobody"], env, t.home);
    await parent.waitFor(/no bosun worker takes tasks from redis:\/\/127\.0\.0\.1:\d+ \(queue \S+\); the task waits in the queue \(start one: bosun worker\)/, 20_000);
    await startWorker(env, t.home, 1);
    expect(await exitWithin(parent, 20_000), parent.stderr()).toBe(0);
    expect(parent.stdout()).toContain("Delegated.");
    expect(llm.requests.filter((request) => request.prompt.includes("delegate nobody")).at(-1)!.text).toContain("done at last");
  }, 60_000);
});

describe("bosun queue on PostgreSQL", () => {
  it("lists the worker of an idle queue, with counts of 0", async () => {
    const postgres = await startPostgres();
    const fleet = fleetHome(postgres, llm.openaiURL);
    const worker = await startWorker(fleet.env, fleet.t.home, 3);
    expectIdle(await queueJson(fleet), postgres, fleet, new Map([[workerId(worker), 3]]));
    const text = await queueText(fleet, ["queue"]);
    expect(text).toContain(`queue ${fleet.queue} on PostgreSQL `);
    expect(text).toContain("0 waiting, 0 running, 0 to retry, 0 done, 0 failed");
    expect(text).toMatch(new RegExp(`${workerId(worker)}\\s+running\\s+0/3`));
    worker.child.kill("SIGTERM");
    expect(await exitWithin(worker, 5_000), worker.stderr()).toBe(0);
    expect((await queueJson(fleet)).workers).toEqual([]);
  }, 60_000);
});

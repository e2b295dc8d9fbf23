// What the queue must survive, on each store: a wide fan-out over several workers, a worker
// killed mid-task (its task goes on elsewhere from its last finished turn, no tool call done
// twice), a worker frozen past its lock (it stops its stale copy when it wakes; its result is
// refused), a tree cancelled while some of its tasks wait in the queue, a worker handing its task
// back as it shuts down, and the store itself restarting mid-run. All real: `bosun run` and
// `bosun worker` processes, Debian's redis-server, the machine's PostgreSQL; only the model is
// scripted (a server on 127.0.0.1 speaking the OpenAI protocol).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fleetHome, startBosun, startWorker, type FleetProcess } from "../fixtures/queue-fleet.js";
import { startPostgres, startRedis, type RunningStore } from "../fixtures/stores.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const TEST_MS = 90_000;

interface JsonRun {
  text: string;
  subagents: { task: number; status: string; turns: number; error?: string }[];
}

describe.each<"redis" | "postgres">(["redis", "postgres"])("sub-agent tasks on %s", (backend) => {
  const start = (): Promise<RunningStore> => (backend === "redis" ? startRedis() : startPostgres());

  it(
    "runs 64 tasks over 4 workers, each with its right result",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL, { concurrency: 16, treeConcurrency: 16, confirmAbove: 16 });
      const workers = await Promise.all([1, 2, 3, 4].map(() => startWorker(env, t.home, 4)));
      const tag = `${backend}-wide`;
      const calls = [0, 1, 2, 3].map((call) => ({ tasks: Array.from({ length: 16 }, (_, i) => `compute ${call * 16 + i + 1} ${tag}`) }));
      let reply = llm.onPrompt(`sixty-four ${tag}`).reply();
      for (const call of calls) reply = reply.tool("agent", call);
      for (let n = 1; n <= 64; n++) {
        llm.onPrompt(new RegExp(`compute ${n} ${tag}$`)).reply().tool("bash", { command: `echo ${n * n} > square-${n}.txt` });
        llm.onPrompt(new RegExp(`compute ${n} ${tag}$`)).reply().text(`the square of ${n} is ${n * n}`);
      }
      llm.onPrompt(`sixty-four ${tag}`).reply().text("All 64 squares are done.");
      const parent = startBosun(["run", "--json", "-y", `sixty-four ${tag}`], env, t.home);
      expect(await withTimeout(parent, 60_000), parent.stderr()).toBe(0);
      const json = JSON.parse(parent.stdout()) as JsonRun;
      expect(json.subagents).toHaveLength(64);
      expect(json.subagents.filter((child) => child.status !== "completed" || child.turns !== 2)).toEqual([]);
      const back = llm.requests.filter((request) => request.prompt.includes(`sixty-four ${tag}`)).at(-1)!.text;
      for (let n = 1; n <= 64; n++) {
        expect(readFileSync(join(t.home, `square-${n}.txt`), "utf8")).toBe(`${n * n}\n`);
        expect(back).toContain(`the square of ${n} is ${n * n}`);
      }
      // Every worker took its share.
      for (const worker of workers) expect(worker.stderr().match(/: completed in /g)?.length ?? 0, worker.stderr()).toBeGreaterThan(0);
    },
    TEST_MS,
  );

  it(
    "a worker killed mid-task: another picks the task up from its last finished turn; no tool call runs twice",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL);
      const tag = `${backend}-kill`;
      const task = `three steps ${tag}`;
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { prompt: task });
      llm.onPrompt(task).reply().tool("bash", { command: "echo one >> side-effects.txt" });
      llm.onPrompt(task).reply().tool("bash", { command: "echo two >> side-effects.txt" });
      // The first worker dies while it waits for its third reply; the next one gets the answer.
      llm.onPrompt(task).reply().text("…").hang();
      llm.onPrompt(task).reply().text("finished after one and two");
      llm.onPrompt(`delegate ${tag}`).reply().text("Delegated.");
      const first = await startWorker(env, t.home, 2);
      const parent = startBosun(["run", "--json", "-y", `delegate ${tag}`], env, t.home);
      await waitUntil(() => childRequests(task) === 3, "the third turn of the task on the first worker");
      const second = await startWorker(env, t.home, 2);
      first.child.kill("SIGKILL");
      expect(await withTimeout(parent, 30_000), parent.stderr()).toBe(0);
      const json = JSON.parse(parent.stdout()) as JsonRun;
      expect(json.subagents[0]).toMatchObject({ status: "completed", turns: 3 });
      expect(llm.requests.filter((request) => request.prompt.includes(`delegate ${tag}`)).at(-1)!.text).toContain("finished after one and two");
      expect(readFileSync(join(t.home, "side-effects.txt"), "utf8")).toBe("one\ntwo\n");
      // Four model calls in all: the third again, not the first two.
      expect(childRequests(task)).toBe(4);
      expect(second.stderr()).toMatch(/picked up again \(pickup 2\); it goes on after turn 2/);
      expect(parent.stderr()).toMatch(/picked up again by worker/);
    },
    TEST_MS,
  );

  it(
    "a task in a worktree of its own, its worker killed: another starts it over in a new worktree, and the first stays as it was left",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL);
      const repo = join(t.home, "repo");
      mkdirSync(repo);
      writeFileSync(join(repo, "notes.txt"), "notes\n");
      const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: { ...env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" }, encoding: "utf8" });
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("commit", "-q", "-m", "first");
      const tag = `${backend}-worktree`;
      const task = `edit in a worktree ${tag}`;
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { tasks: [{ prompt: task, isolation: "worktree" }] });
      llm.onPrompt(task).reply().tool("bash", { command: "echo first pickup > made.txt" });
      // The first worker dies while it waits for its second reply; the next one starts over.
      llm.onPrompt(task).reply().text("…").hang();
      llm.onPrompt(task).reply().tool("bash", { command: "echo second pickup > made.txt" });
      llm.onPrompt(task).reply().text("made it again");
      llm.onPrompt(`delegate ${tag}`).reply().text("Delegated.");
      const first = await startWorker(env, repo, 2);
      const parent = startBosun(["run", "--json", "-y", `delegate ${tag}`], env, repo);
      await waitUntil(() => childRequests(task) === 2, "the second turn of the task on the first worker");
      const second = await startWorker(env, repo, 2);
      first.child.kill("SIGKILL");
      expect(await withTimeout(parent, 30_000), parent.stderr()).toBe(0);
      const child = (JSON.parse(parent.stdout()) as JsonRun & { subagents: { worktree?: { path: string } }[] }).subagents[0]!;
      expect(child).toMatchObject({ status: "completed", turns: 2 });
      expect(second.stderr()).toMatch(/picked up again \(pickup 2\); it starts over in a new worktree/);
      expect(parent.stderr()).toMatch(/picked up again by worker \S+ \(pickup 2\); it starts over/);
      // All four replies were asked for: the first turn again, in the new worktree.
      expect(childRequests(task)).toBe(4);
      expect(child.worktree!.path).toMatch(/-p2$/);
      expect(readFileSync(join(child.worktree!.path, "made.txt"), "utf8")).toBe("second pickup\n");
      const firstPath = child.worktree!.path.replace(/-p2$/, "");
      expect(readFileSync(join(firstPath, "made.txt"), "utf8")).toBe("first pickup\n");
      expect(existsSync(join(repo, "made.txt"))).toBe(false);
    },
    TEST_MS,
  );

  it(
    "a worker frozen past its lock stops its stale copy when it wakes, and its result is refused",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL);
      const tag = `${backend}-freeze`;
      const task = `freeze me ${tag}`;
      const wake = latch();
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { prompt: task });
      llm.onPrompt(task).reply().tool("bash", { command: "echo one >> side-effects.txt" });
      // The frozen worker's second reply comes only after it has woken up (and should have stopped).
      llm.onPrompt(task).reply().after(wake.promise).tool("bash", { command: "echo stale >> side-effects.txt" });
      llm.onPrompt(task).reply().text("the second worker's answer");
      llm.onPrompt(`delegate ${tag}`).reply().text("Delegated.");
      const frozen = await startWorker(env, t.home, 2);
      const parent = startBosun(["run", "--json", "-y", `delegate ${tag}`], env, t.home);
      await waitUntil(() => childRequests(task) === 2, "the second turn of the task on the first worker");
      frozen.child.kill("SIGSTOP");
      const second = await startWorker(env, t.home, 2);
      expect(await withTimeout(parent, 30_000), parent.stderr()).toBe(0);
      const json = JSON.parse(parent.stdout()) as JsonRun;
      expect(json.subagents[0]!.status).toBe("completed");
      expect(llm.requests.filter((request) => request.prompt.includes(`delegate ${tag}`)).at(-1)!.text).toContain("the second worker's answer");
      expect(second.stderr()).toMatch(/picked up again \(pickup 2\); it goes on after turn 1/);
      frozen.child.kill("SIGCONT");
      await frozen.waitFor(/lost its lock/, 10_000);
      wake.resolve();
      // Its stale copy went no further: no second side effect, and the task's result is still the second worker's.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(readFileSync(join(t.home, "side-effects.txt"), "utf8")).toBe("one\n");
      const status = startBosun(["queue", "--json"], env, t.home);
      expect(await status.exited).toBe(0);
      expect(JSON.parse(status.stdout())).toMatchObject({ counts: { completed: 1, failed: 0, active: 0 } });
      frozen.child.kill("SIGKILL");
    },
    TEST_MS,
  );

  it(
    "cancelling the tree takes its waiting tasks out of the queue and stops its running ones within 2 s",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL, { concurrency: 4 });
      const tag = `${backend}-cancel`;
      const tasks = [1, 2, 3, 4].map((n) => `endless ${n} ${tag}`);
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { tasks });
      for (const task of tasks) llm.onPrompt(task).reply().text("working").hang();
      // One worker with room for two: two tasks run, two wait in the queue.
      const worker = await startWorker(env, t.home, 2);
      const parent = startBosun(["run", "-y", `delegate ${tag}`], env, t.home);
      await waitUntil(() => llm.requests.filter((request) => request.prompt.includes(tag) && request.prompt.includes("endless")).length === 2, "two tasks running");
      await waitUntil(async () => (await queueCounts(env, t.home)).waiting === 2, "two tasks waiting in the queue");
      const interrupted = Date.now();
      parent.child.kill("SIGINT");
      await parent.exited;
      await worker.waitFor(/(: cancelled in [^\n]*\n[^\n]*){2}/, Math.max(1, 2_000 - (Date.now() - interrupted)));
      expect(parent.stderr().match(/sub-agent cancelled/g)?.length ?? 0, parent.stderr()).toBe(4);
      expect(await queueCounts(env, t.home)).toMatchObject({ waiting: 0, active: 0 });
      // The two that waited never ran.
      expect(llm.requests.filter((request) => request.prompt.includes(tag) && request.prompt.includes("endless"))).toHaveLength(2);
    },
    TEST_MS,
  );

  it(
    "a worker asked twice to stop hands its task back, and another goes on from its last turn at once",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL);
      const tag = `${backend}-handback`;
      const task = `two steps ${tag}`;
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { prompt: task });
      llm.onPrompt(task).reply().tool("bash", { command: "echo one >> side-effects.txt" });
      llm.onPrompt(task).reply().text("…").hang();
      llm.onPrompt(task).reply().text("done after one");
      llm.onPrompt(`delegate ${tag}`).reply().text("Delegated.");
      const leaving = await startWorker(env, t.home, 2);
      const parent = startBosun(["run", "--json", "-y", `delegate ${tag}`], env, t.home);
      await waitUntil(() => childRequests(task) === 2, "the second turn on the first worker");
      const staying = await startWorker(env, t.home, 2);
      leaving.child.kill("SIGTERM");
      await leaving.waitFor(/stopping/);
      leaving.child.kill("SIGTERM");
      expect(await leaving.exited).toBe(0);
      expect(leaving.stderr()).toMatch(/handed back to the queue/);
      expect(await withTimeout(parent, 20_000), parent.stderr()).toBe(0);
      expect(staying.stderr()).toMatch(/picked up again \(pickup 2\); it goes on after turn 1/);
      expect(readFileSync(join(t.home, "side-effects.txt"), "utf8")).toBe("one\n");
      expect((JSON.parse(parent.stdout()) as JsonRun).subagents[0]!.status).toBe("completed");
    },
    TEST_MS,
  );

  it(
    "a parent run killed mid-task: its worker stops the task once the parent has been gone a lease; a live parent's slow task runs on",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL);
      // A short lease (1 s): the parent is seen gone within a few seconds, and a task that runs
      // for several leases shows a live parent's task is left alone.
      const short = { ...env, BOSUN_RELAY_LEASE_MS: "1000" };
      const tag = `${backend}-orphan`;
      const slow = `slow but wanted ${tag}`;
      const orphan = `nobody waits for this ${tag}`;
      llm.onPrompt(`wait for it ${tag}`).reply().tool("agent", { prompt: slow });
      llm.onPrompt(slow).reply().latency(5_000).text("the slow answer");
      llm.onPrompt(`wait for it ${tag}`).reply().text("Got it.");
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { prompt: orphan });
      llm.onPrompt(orphan).reply().text("working").hang();
      const worker = await startWorker(short, t.home, 2);
      const kept = startBosun(["run", "--json", "-y", `wait for it ${tag}`], short, t.home);
      expect(await withTimeout(kept, 30_000), kept.stderr()).toBe(0);
      expect((JSON.parse(kept.stdout()) as JsonRun).subagents[0]!.status).toBe("completed");
      expect(worker.stderr()).not.toMatch(/parent run is gone/);
      const parent = startBosun(["run", "-y", `delegate ${tag}`], short, t.home);
      await waitUntil(() => childRequests(orphan) === 1, "the orphan task's first model call");
      parent.child.kill("SIGKILL");
      await worker.waitFor(/: stopped after [^\n]*: its parent run is gone, nobody would read its answer/, 15_000);
      await waitUntil(async () => (await queueCounts(short, t.home)).active === 0, "the orphan task's job ended");
    },
    TEST_MS,
  );

  it(
    "the store restarting mid-run: the run completes (or fails with one line); it never hangs",
    async () => {
      const store = await start();
      const { t, env } = fleetHome(store, llm.openaiURL);
      const tag = `${backend}-restart`;
      const task = `slow answer ${tag}`;
      llm.onPrompt(`delegate ${tag}`).reply().tool("agent", { prompt: task });
      llm.onPrompt(task).reply().latency(1_500).text("the slow answer");
      llm.onPrompt(task).reply().text("the slow answer");
      llm.onPrompt(`delegate ${tag}`).reply().text("Delegated.");
      const worker = await startWorker(env, t.home, 2);
      const parent = startBosun(["run", "--json", "-y", `delegate ${tag}`], env, t.home);
      await waitUntil(() => childRequests(task) === 1, "the task's first model call");
      await store.kill();
      await store.start();
      const code = await withTimeout(parent, 45_000);
      if (code === 0) {
        expect(llm.requests.filter((request) => request.prompt.includes(`delegate ${tag}`)).at(-1)!.text).toContain("the slow answer");
      } else {
        const lines = parent.stderr().trim().split("\n").filter((line) => line.startsWith("bosun: ") && !line.startsWith("bosun: session"));
        expect(lines.at(-1), parent.stderr()).toMatch(/store/);
      }
      expect(worker.child.exitCode).toBeNull();
    },
    TEST_MS,
  );
});

/** How many model requests the conversation that started with `prompt` has made. */
function childRequests(prompt: string): number {
  return llm.requests.filter((request) => request.prompt.includes(prompt)).length;
}

/** The process's exit, or a failure saying what it printed when it has not ended in `ms`. */
async function withTimeout(process: FleetProcess, ms: number): Promise<number | string> {
  const timer = setTimeout(() => process.child.kill("SIGKILL"), ms);
  const code = await process.exited;
  clearTimeout(timer);
  if (code === "SIGKILL") throw new Error(`it did not end within ${ms / 1000} s; stderr:\n${process.stderr()}`);
  return code;
}

/** `bosun queue --json`'s counts, read by a real `bosun queue` process. */
async function queueCounts(env: Record<string, string | undefined>, cwd: string): Promise<{ waiting: number; active: number }> {
  const status = startBosun(["queue", "--json"], env, cwd);
  const code = await status.exited;
  if (code !== 0) throw new Error(`bosun queue failed: ${status.stderr()}`);
  return (JSON.parse(status.stdout()) as { counts: { waiting: number; active: number } }).counts;
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function latch(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

// One suite, three runners: the `agent` tool's fan-out as the user sees it (the `--json` report,
// the live lines on stderr, the session's records, what the sub-agents did in the folder) must be
// the same whether its tasks run in the parent's process (`subagents.backend` "local") or on
// `bosun worker`s through a queue in Redis or PostgreSQL. All real: `bosun run` and `bosun worker`
// processes, Debian's redis-server, the machine's PostgreSQL; only the model is scripted (a server
// on 127.0.0.1 speaking the OpenAI protocol).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplyBuilder } from "../fixtures/llm-server.js";
import { fleetHome, startBosun, startWorker, type FleetProcess } from "../fixtures/queue-fleet.js";
import { startPostgres, startRedis, type RunningStore } from "../fixtures/stores.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { BOSUN_BIN } from "../fixtures/cli.js";
import { KEYS, spawnInTerminal } from "../fixtures/pty.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const TEST_MS = 60_000;

type Backend = "local" | "redis" | "postgres";

/** A backend's setting-up: a home whose bosun.json points at it, and its workers (none for local). */
interface Fleet {
  t: TempHome;
  env: Record<string, string | undefined>;
  workers: FleetProcess[];
  /** Writes bosun.json `subagents` again with these settings added (for one test). */
  configure(extra: Record<string, unknown>): void;
}

interface JsonRun {
  text: string;
  sessionId: string;
  subagents: { task: number; kind: string; status: string; turns: number; prompt: string }[];
}

describe.each<Backend>(["local", "redis", "postgres"])("the fan-out on the %s runner", (backend) => {
  let store: RunningStore | null = null;
  let fleet: Fleet;

  beforeAll(async () => {
    if (backend === "local") {
      const t = makeTempHome();
      const write = (extra: Record<string, unknown>) => t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ subagents: { backend: "local", ...extra } }));
      write({});
      const env = { ...t.env, NO_COLOR: "1", BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }) };
      fleet = { t, env, workers: [], configure: write };
      return;
    }
    store = backend === "redis" ? await startRedis() : await startPostgres();
    const home = fleetHome(store, llm.openaiURL);
    const write = (extra: Record<string, unknown>) => home.t.write(join(home.t.paths.config, "bosun.json"), JSON.stringify({ subagents: { backend, url: store!.url, queue: home.queue, ...extra } }));
    fleet = { t: home.t, env: home.env, workers: [], configure: write };
    fleet.workers = await Promise.all([startWorker(home.env, home.t.home, 4, [], true), startWorker(home.env, home.t.home, 4, [], true)]);
  }, 60_000);

  afterAll(async () => {
    for (const worker of fleet?.workers ?? []) worker.child.kill("SIGTERM");
    await Promise.all((fleet?.workers ?? []).map((worker) => worker.exited));
  });

  /** Runs `bosun run --json` with the prompt and the flags; the parsed report and stderr. */
  async function run(prompt: string, flags: string[] = ["-y"], extra: Record<string, unknown> = {}): Promise<{ code: number | string; json: JsonRun; stderr: string }> {
    fleet.configure(extra);
    const parent = startBosun(["run", "--json", ...flags, prompt], fleet.env, fleet.t.home);
    const timer = setTimeout(() => parent.child.kill("SIGKILL"), 30_000);
    const code = await parent.exited;
    clearTimeout(timer);
    if (code === "SIGKILL") throw new Error(`bosun run did not end in 30 s; stderr:\n${parent.stderr()}\nworkers:\n${fleet.workers.map((worker) => worker.stderr()).join("\n")}`);
    let json: JsonRun;
    try {
      json = JSON.parse(parent.stdout()) as JsonRun;
    } catch {
      throw new Error(`bosun run printed no JSON (exit ${code}); stderr:\n${parent.stderr()}\nstdout:\n${parent.stdout()}`);
    }
    return { code, json, stderr: parent.stderr() };
  }

  /** The sub-agent records of a session's file. */
  function subagentRecords(sessionId: string): { phase: string; status?: string; task?: number }[] {
    const file = join(fleet.t.paths.data, "sessions", `${sessionId}.jsonl`);
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes('"type":"subagent"'))
      .map((line) => JSON.parse(line) as { phase: string; status?: string; task?: number });
  }

  it(
    "runs every task and reports each answer in task order, with the same live lines and session records",
    async () => {
      const tag = `${backend}-three`;
      llm.onPrompt(`review ${tag}`).reply().text("Delegating.").tool("agent", { tasks: [`check alpha ${tag}`, `check beta ${tag}`, `check gamma ${tag}`] });
      for (const name of ["alpha", "beta", "gamma"]) {
        llm.onPrompt(`check ${name} ${tag}`).reply().tool("bash", { command: `echo ${name} > ${name}-${tag}.txt` });
        llm.onPrompt(`check ${name} ${tag}`).reply().text(`${name} is fine`);
      }
      llm.onPrompt(`review ${tag}`).reply().text("All three are fine.");
      const { code, json, stderr } = await run(`review ${tag}`);
      expect(code, stderr).toBe(0);
      expect(json.text).toContain("All three are fine.");
      expect(byTask(json).map((child) => [child.task, child.kind, child.status, child.turns])).toEqual([
        [1, "bosun", "completed", 2],
        [2, "bosun", "completed", 2],
        [3, "bosun", "completed", 2],
      ]);
      for (const name of ["alpha", "beta", "gamma"]) expect(readFileSync(join(fleet.t.home, `${name}-${tag}.txt`), "utf8")).toBe(`${name}\n`);
      // What the parent's model read back: every answer, in task order.
      const back = llm.requests.filter((request) => request.prompt.includes(`review ${tag}`)).at(-1)!.text;
      expect(back.indexOf("alpha is fine")).toBeLessThan(back.indexOf("beta is fine"));
      expect(back.indexOf("beta is fine")).toBeLessThan(back.indexOf("gamma is fine"));
      // The live lines, as for a local sub-agent.
      for (const task of [1, 2, 3]) expect(stderr).toMatch(new RegExp(`#\\d sub-agent \\(task ${task}/3, `));
      expect(stderr).toMatch(/→ \$ echo alpha/);
      expect(stderr).toContain("3 sub-agents: 3 completed");
      const records = subagentRecords(json.sessionId);
      expect(records.filter((record) => record.phase === "start")).toHaveLength(3);
      expect(records.filter((record) => record.phase === "end").map((record) => record.status)).toEqual(["completed", "completed", "completed"]);
    },
    TEST_MS,
  );

  it(
    "records a failed task and still returns the others' answers",
    async () => {
      const tag = `${backend}-fail`;
      llm.onPrompt(`review ${tag}`).reply().tool("agent", { tasks: [`ok one ${tag}`, `broken ${tag}`, `ok two ${tag}`] });
      llm.onPrompt(`ok one ${tag}`).reply().text("one done");
      llm.onPrompt(`broken ${tag}`).reply().httpError(400, "this model refuses the request");
      llm.onPrompt(`ok two ${tag}`).reply().text("two done");
      llm.onPrompt(`review ${tag}`).reply().text("Two of three.");
      const { code, json, stderr } = await run(`review ${tag}`);
      expect(code, stderr).toBe(0);
      expect(byTask(json).map((child) => child.status)).toEqual(["completed", "failed", "completed"]);
      const back = llm.requests.filter((request) => request.prompt.includes(`review ${tag}`)).at(-1)!.text;
      expect(back).toContain("one done");
      expect(back).toContain("two done");
      expect(back).toContain("this model refuses the request");
    },
    TEST_MS,
  );

  it(
    "stops a task at its turns cap and keeps its work",
    async () => {
      const tag = `${backend}-cap`;
      llm.onPrompt(`review ${tag}`).reply().tool("agent", { prompt: `long job ${tag}`, limits: { turns: 1 } });
      llm.onPrompt(`long job ${tag}`).reply().tool("bash", { command: `echo step1 > cap-${tag}.txt` });
      llm.onPrompt(`long job ${tag}`).reply().text("never reached");
      llm.onPrompt(`review ${tag}`).reply().text("Stopped as asked.");
      const { code, json, stderr } = await run(`review ${tag}`);
      expect(code, stderr).toBe(0);
      expect(json.subagents[0]!.status).toBe("stopped");
      expect(readFileSync(join(fleet.t.home, `cap-${tag}.txt`), "utf8")).toBe("step1\n");
      const back = llm.requests.filter((request) => request.prompt.includes(`review ${tag}`)).at(-1)!.text;
      expect(back).toContain("turns cap (1)");
      expect(back).toContain("its work is kept");
    },
    TEST_MS,
  );

  it(
    "stops the whole tree at the tree's token cap",
    async () => {
      const tag = `${backend}-tree`;
      llm.onPrompt(`review ${tag}`).reply().tool("agent", { tasks: [`spend a ${tag}`, `spend b ${tag}`] });
      for (const name of ["a", "b"]) {
        llm.onPrompt(`spend ${name} ${tag}`).reply().tool("bash", { command: "true" }).usage({ input: 600, output: 100 });
        // The second turn would go on forever: only the cap ends it.
        llm.onPrompt(`spend ${name} ${tag}`).reply().text("still thinking").hang();
      }
      llm.onPrompt(`review ${tag}`).reply().text("The tree was stopped.");
      const { code, json, stderr } = await run(`review ${tag}`, ["-y"], { limits: { tree: { tokens: 1000 } } });
      expect(code, stderr).toBe(0);
      expect(byTask(json).map((child) => child.status)).toEqual(["stopped", "stopped"]);
      const back = llm.requests.filter((request) => request.prompt.includes(`review ${tag}`)).at(-1)!.text;
      expect(back).toMatch(/tree's tokens cap|tokens cap \(1,000\) of the tree|tree/);
    },
    TEST_MS,
  );

  it(
    "continues a finished sub-agent with its session_id, with its whole conversation",
    async () => {
      const tag = `${backend}-continue`;
      llm.onPrompt(`remember ${tag}`).reply().tool("agent", { prompt: `the secret word is kiwi, ${tag}; say ok` });
      llm.onPrompt(`the secret word is kiwi, ${tag}`).reply().text("ok, noted");
      // The parent continues the sub-agent it got back, by the session id in the tool result.
      llm.onPrompt(`remember ${tag}`).reply((request) => {
        const id = /sessionID[^A-Za-z0-9]*([0-9]{8}-[0-9]{6}-[0-9a-f]{6})/.exec(request.text)?.[1] ?? "none";
        return new ReplyBuilder().tool("agent", { prompt: "which word was it?", session_id: id });
      });
      llm.onPrompt(`the secret word is kiwi, ${tag}`).reply().text("it was kiwi");
      llm.onPrompt(`remember ${tag}`).reply().text("It remembered.");
      const { code, json, stderr } = await run(`remember ${tag}`);
      expect(code, stderr).toBe(0);
      expect(byTask(json).map((child) => child.status)).toEqual(["completed", "completed"]);
      const continued = llm.requests.filter((request) => request.prompt.includes(`the secret word is kiwi, ${tag}`)).at(-1)!;
      expect(continued.text).toContain("ok, noted");
      expect(continued.text).toContain("which word was it?");
      const back = llm.requests.filter((request) => request.prompt.includes(`remember ${tag}`)).at(-1)!.text;
      expect(back).toContain("it was kiwi");
    },
    TEST_MS,
  );

  it(
    "asks the parent's user a sub-agent's questions, and does what they answer",
    async () => {
      const tag = `${backend}-ask`;
      llm.onPrompt(`tidy ${tag}`).reply().tool("agent", { tasks: [`make a file ${tag}`, `remove a folder ${tag}`] });
      llm.onPrompt(`make a file ${tag}`).reply().barrier(`asks ${tag}`, 2).tool("bash", { command: `touch approved-${tag}.txt` });
      llm.onPrompt(`make a file ${tag}`).reply().text("made it");
      llm.onPrompt(`remove a folder ${tag}`).reply().barrier(`asks ${tag}`, 2).tool("bash", { command: `touch denied-${tag}.txt` });
      llm.onPrompt(`remove a folder ${tag}`).reply().text("the user said no");
      llm.onPrompt(`tidy ${tag}`).reply().text("Tidied.");
      fleet.configure({});
      const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run", "--mode", "ask", `tidy ${tag}`], { env: fleet.env, cwd: fleet.t.home });
      // One question at a time, whichever sub-agent asks first; each says which sub-agent asks.
      const answers = new Map([
        [`approved-${tag}`, "o"],
        [`denied-${tag}`, "d"],
      ]);
      for (let i = 0; i < 2; i++) {
        const asked = await term.waitFor("allow [o]nce, [a]lways for this session, or [d]eny? ", 30_000);
        expect(asked).toMatch(/sub-agent #\d/);
        // The screen may show the other sub-agent's command too (its line in the live tree): the
        // question is the one named last, just above the prompt.
        const which = [...answers.keys()].filter((name) => asked.includes(name)).sort((a, b) => asked.lastIndexOf(b) - asked.lastIndexOf(a))[0]!;
        expect(which, asked).toBeDefined();
        term.type(answers.get(which)! + KEYS.enter);
        answers.delete(which);
      }
      expect(await term.exit).toBe(0);
      expect(existsSync(join(fleet.t.home, `approved-${tag}.txt`))).toBe(true);
      expect(existsSync(join(fleet.t.home, `denied-${tag}.txt`))).toBe(false);
      const back = llm.requests.filter((request) => request.prompt.includes(`tidy ${tag}`)).at(-1)!.text;
      expect(back).toContain("made it");
      expect(back).toContain("the user said no");
    },
    TEST_MS,
  );

  it(
    "Ctrl-C cancels the tree: running and waiting tasks all end cancelled, and the workers stop theirs within 2 s",
    async () => {
      const tag = `${backend}-cancel`;
      const tasks = [1, 2, 3, 4].map((n) => `stuck ${n} ${tag}`);
      llm.onPrompt(`review ${tag}`).reply().tool("agent", { tasks });
      for (const task of tasks) llm.onPrompt(task).reply().text("working").hang();
      fleet.configure({ concurrency: 2 });
      const parent = startBosun(["run", "-y", `review ${tag}`], fleet.env, fleet.t.home);
      await waitUntil(() => llm.requests.filter((request) => request.prompt.includes(`stuck`) && request.prompt.includes(tag)).length >= 2, "two tasks running");
      const interrupted = Date.now();
      parent.child.kill("SIGINT");
      const code = await parent.exited;
      const stderr = parent.stderr();
      expect(code).not.toBe(0);
      expect(stderr.match(/sub-agent cancelled/g)?.length ?? 0, stderr).toBe(2);
      expect(stderr).toContain("⊘ cancelled");
      // The two that never started were never run anywhere.
      expect(llm.requests.filter((request) => request.prompt.includes(`stuck 3 ${tag}`) || request.prompt.includes(`stuck 4 ${tag}`))).toHaveLength(0);
      if (backend !== "local") {
        const session = /bosun: session (\S+)/.exec(stderr)![1]!;
        // Each worker says so as its copy ends: within 2 s of the Ctrl-C.
        await waitUntil(() => countCancelled(fleet.workers, session) === 2, "the workers report both running tasks cancelled", Math.max(0, 2_000 - (Date.now() - interrupted)));
      }
      fleet.configure({});
    },
    TEST_MS,
  );
});

/** The report's sub-agents in task order (it lists them as they end). */
function byTask(json: JsonRun): JsonRun["subagents"] {
  return [...json.subagents].sort((a, b) => a.task - b.task);
}

/** How many tasks of the parent session `session` the workers said ended cancelled. */
function countCancelled(workers: FleetProcess[], session: string): number {
  const key = `task s${session.replace(/[^A-Za-z0-9_-]/g, "-")}_`;
  const lines = workers.flatMap((worker) => worker.stderr().split("\n"));
  return lines.filter((line) => line.includes(key) && line.includes(": cancelled in ")).length;
}

async function waitUntil(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

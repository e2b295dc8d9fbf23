// A store that cannot be used, and jobs a worker cannot read, as the user meets them: whole
// `bosun run`, `bosun queue` and `bosun worker` processes (bin/bosun.js on dist/), each stopping
// with exit code 1 and exactly one `bosun: …` line naming what to fix (and, for `bosun run`,
// before any session file is written), or going on locally with `subagents.fallback: "local"`.
// Covered: nothing listening at the address, Redis refusing bosun's credentials (without
// showing the password anywhere), a Redis too old, PostgreSQL refusing an unknown role or
// naming a database that does not exist, an unset `{"env": NAME}`, `backend` without `url`,
// `bosun worker` without a queue or with bad flags, and jobs of a newer bosun or garbled ones
// (failed at once, not retried, the worker going on). Everything is real (Redis and PostgreSQL
// servers, BullMQ, bosun processes) except the scripted model server and the fake old Redis.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { sessionsDir } from "../../src/agent/session/list.js";
import { taskJobOptions } from "../../src/app/queue/job-options.js";
import { runBinAsync, type CliResult } from "../fixtures/cli.js";
import { fleetHome, startBosun, startWorker } from "../fixtures/queue-fleet.js";
import { freePort, startPostgres, startRedis } from "../fixtures/stores.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

/** A home whose bosun.json has these `subagents` settings, with the scripted model for `bosun run`. */
function homeWith(subagents: Record<string, unknown>): { t: TempHome; env: Record<string, string | undefined> } {
  const t = makeTempHome();
  t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ subagents }));
  const env = { ...t.env, NO_COLOR: "1", BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }) };
  return { t, env };
}

/** Runs bin/bosun.js in the home; a run still going after 30 s fails the test (it must stop by itself). */
async function bosun(argv: string[], home: { t: TempHome; env: Record<string, string | undefined> }): Promise<CliResult> {
  const result = await runBinAsync(argv, home.env, { cwd: home.t.home, timeoutMs: 30_000 });
  expect(result.timedOut, `bosun ${argv.join(" ")} did not end within 30 s; stderr:\n${result.stderr}`).toBe(false);
  return result;
}

/** Asserts a user error: exit code 1, nothing on stdout, and stderr exactly one `bosun: …` line matching `line`; returns that line. */
function expectOneLine(result: CliResult, line: RegExp | string): string {
  const lines = result.stderr.split("\n").filter((text) => text !== "");
  expect(lines, `stderr:\n${result.stderr}`).toHaveLength(1);
  const [only] = lines as [string];
  expect(only.startsWith("bosun: "), only).toBe(true);
  if (typeof line === "string") expect(only).toBe(`bosun: ${line}`);
  else expect(only).toMatch(line);
  expect(result.stdout).toBe("");
  expect(result.code).toBe(1);
  return only;
}

/** The session files in the home's sessions folder (none when it does not exist). */
function sessionFiles(t: TempHome): string[] {
  const dir = sessionsDir(t.paths);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".jsonl")) : [];
}

/** Every file under `dir` whose text contains `needle` (paths relative to `dir`). */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile() && readFileSync(path, "latin1").includes(needle)) found.push(path.slice(dir.length + 1));
    }
  };
  walk(dir);
  return found;
}

/** Asks a Redis server (without a password yet) to require one from now on. */
async function requirePassword(port: number, password: string): Promise<void> {
  const client = new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.config("SET", "requirepass", password);
  client.disconnect();
}

/** A RESP server that answers the way Redis 5.0.14 does, just enough for a client's connect; see `fakeOldRedis`. */
interface FakeRedis {
  port: number;
  /** The commands it was sent, by name (upper case). */
  commands: string[];
  close(): Promise<void>;
}

const fakes: Server[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A fake Redis 5.0.14 on 127.0.0.1: Redis older than 6.2 cannot be installed here, so this server
 * speaks RESP just enough for what ioredis sends on connect (CLIENT SETINFO, which Redis 5 does
 * not know; the ready check's INFO; SELECT, AUTH, PING, QUIT) and answers INFO as Redis 5 does;
 * HELLO (Redis 6) and anything else is an unknown command.
 */
async function fakeOldRedis(): Promise<FakeRedis> {
  const commands: string[] = [];
  const info = ["# Server", "redis_version:5.0.14", "redis_git_sha1:00000000", "redis_mode:standalone", "os:Linux", "tcp_port:6379", "", "# Persistence", "loading:0", ""].join("\r\n");
  const answer = (socket: Socket, args: string[]): void => {
    const name = (args[0] ?? "").toUpperCase();
    commands.push(name);
    if (name === "INFO") socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
    else if (name === "PING") socket.write("+PONG\r\n");
    else if (name === "SELECT" || name === "AUTH") socket.write("+OK\r\n");
    else if (name === "CLIENT" && (args[1] ?? "").toUpperCase() === "SETNAME") socket.write("+OK\r\n");
    else if (name === "CLIENT") socket.write("-ERR Syntax error, try CLIENT (LIST | KILL | GETNAME | SETNAME | PAUSE | REPLY)\r\n");
    else if (name === "QUIT") socket.end("+OK\r\n");
    else socket.write(`-ERR unknown command '${args[0] ?? ""}'\r\n`);
  };
  const server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = readCommand(buffer);
        if (!parsed) break;
        buffer = buffer.subarray(parsed.length);
        answer(socket, parsed.args);
      }
    });
  });
  fakes.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, commands, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** One RESP command (an array of bulk strings, or an inline command) from the start of `buffer`, or null until it is all there. */
function readCommand(buffer: Buffer): { args: string[]; length: number } | null {
  const lineEnd = (from: number) => buffer.indexOf("\r\n", from);
  if (buffer.length === 0) return null;
  if (buffer[0] !== 0x2a /* "*" */) {
    const end = lineEnd(0);
    return end < 0 ? null : { args: buffer.subarray(0, end).toString().trim().split(/\s+/), length: end + 2 };
  }
  let end = lineEnd(0);
  if (end < 0) return null;
  const count = Number(buffer.subarray(1, end).toString());
  let at = end + 2;
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    end = lineEnd(at);
    if (end < 0) return null;
    const size = Number(buffer.subarray(at + 1, end).toString());
    at = end + 2;
    if (buffer.length < at + size + 2) return null;
    args.push(buffer.subarray(at, at + size).toString());
    at += size + 2;
  }
  return { args, length: at };
}

describe("a store bosun cannot reach", () => {
  it("stops bosun run with one line naming the Redis address, before any session is written", async () => {
    const port = await freePort();
    const home = homeWith({ backend: "redis", url: `redis://127.0.0.1:${port}` });
    const result = await bosun(["run", "-y", "hello"], home);
    expectOneLine(result, /^bosun: cannot reach the Redis store at redis:\/\/127\.0\.0\.1:(\d+): connection refused \(is the server running, on that port\?\)$/);
    expect(result.stderr).toContain(`redis://127.0.0.1:${port}:`);
    expect(sessionFiles(home.t)).toEqual([]);
    expect(llm.requests).toHaveLength(0);
  }, 60_000);

  it("stops bosun queue and bosun worker the same way", async () => {
    const port = await freePort();
    const home = homeWith({ backend: "redis", url: `redis://127.0.0.1:${port}` });
    const line = `cannot reach the Redis store at redis://127.0.0.1:${port}: connection refused (is the server running, on that port?)`;
    expectOneLine(await bosun(["queue"], home), line);
    expectOneLine(await bosun(["worker", "--concurrency", "1"], home), line);
    expectOneLine(await bosun(["worker", "--status", "--json"], home), line);
  }, 60_000);

  it("names the PostgreSQL address the same way", async () => {
    const port = await freePort();
    const home = homeWith({ backend: "postgres", url: `postgres://postgres@127.0.0.1:${port}/postgres` });
    expectOneLine(await bosun(["run", "-y", "hello"], home), `cannot reach the PostgreSQL store at postgres://postgres@127.0.0.1:${port}/postgres: connection refused (is the server running, on that port?)`);
    expect(sessionFiles(home.t)).toEqual([]);
  }, 60_000);

  it('with fallback "local", runs the sub-agents in this process and says so once', async () => {
    const port = await freePort();
    const home = homeWith({ backend: "redis", url: `redis://127.0.0.1:${port}`, fallback: "local" });
    llm.onPrompt("review").reply().text("Delegating.").tool("agent", { tasks: ["check alpha"] });
    llm.onPrompt("check alpha").reply().text("alpha fine");
    llm.onPrompt("review").reply().text("Reviewed.");
    const result = await bosun(["run", "-y", "review"], home);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Reviewed.");
    const said = result.stderr.split("\n").filter((line) => line.includes("cannot reach"));
    expect(said, result.stderr).toEqual([expect.stringContaining(`cannot reach the Redis store at redis://127.0.0.1:${port}: connection refused (is the server running, on that port?); sub-agents run in this process (subagents.fallback is "local")`)]);
    expect(result.stderr).toMatch(/sub-agent completed/);
    // The sub-agent really ran (here): its answer went back to the parent.
    expect(llm.requests.filter((request) => request.prompt.includes("check alpha"))).toHaveLength(1);
    expect(llm.requests.at(-1)!.text).toContain("alpha fine");
    expect(sessionFiles(home.t).length).toBeGreaterThan(0);
  }, 60_000);
});

describe("a store that refuses bosun", () => {
  it("stops at a Redis that wants a password when none is given", async () => {
    const redis = await startRedis();
    await requirePassword(redis.port, "s3cret");
    const home = homeWith({ backend: "redis", url: redis.url });
    const result = await bosun(["run", "-y", "hello"], home);
    expectOneLine(result, new RegExp(`^bosun: the Redis store at redis://127\\.0\\.0\\.1:${redis.port} refused bosun's credentials \\(.*NOAUTH.*\\): check the user and password in subagents\\.url$`));
    expect(sessionFiles(home.t)).toEqual([]);
  }, 60_000);

  it("stops at a wrong password without showing it anywhere", async () => {
    const redis = await startRedis();
    await requirePassword(redis.port, "s3cret");
    const written = homeWith({ backend: "redis", url: `redis://:wrongpass@127.0.0.1:${redis.port}` });
    for (const argv of [["run", "-y", "hello"], ["queue", "--json"], ["worker"]]) {
      const result = await bosun(argv, written);
      expectOneLine(result, new RegExp(`^bosun: the Redis store at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port} refused bosun's credentials \\(.*WRONGPASS.*\\): check the user and password in subagents\\.url$`));
      expect(result.stdout + result.stderr).not.toContain("wrongpass");
    }
    expect(sessionFiles(written.t)).toEqual([]);
    // From the environment, the password is in no file bosun wrote either (its log included).
    const fromEnv = homeWith({ backend: "redis", url: { env: "BOSUN_TEST_QUEUE_URL" } });
    fromEnv.env.BOSUN_TEST_QUEUE_URL = `redis://:wrongpass@127.0.0.1:${redis.port}`;
    const result = await bosun(["run", "-y", "hello"], fromEnv);
    expectOneLine(result, /refused bosun's credentials/);
    expect(result.stdout + result.stderr).not.toContain("wrongpass");
    expect(filesHolding(fromEnv.t.root, "wrongpass")).toEqual([]);
  }, 60_000);

  it("stops at a Redis older than 6.2 naming its version (a fake Redis 5.0.14: an old one cannot be installed here)", async () => {
    const fake = await fakeOldRedis();
    const home = homeWith({ backend: "redis", url: `redis://127.0.0.1:${fake.port}` });
    const result = await bosun(["run", "-y", "hello"], home);
    expectOneLine(result, `the Redis store at redis://127.0.0.1:${fake.port} is version 5.0.14; bosun needs 6.2.0 or newer (BullMQ's recommendation)`);
    expect(fake.commands).toContain("INFO");
    expect(sessionFiles(home.t)).toEqual([]);
    expectOneLine(await bosun(["worker"], home), `the Redis store at redis://127.0.0.1:${fake.port} is version 5.0.14; bosun needs 6.2.0 or newer (BullMQ's recommendation)`);
  }, 60_000);

  it("stops at a PostgreSQL role that does not exist, and at a database that does not exist", async () => {
    const postgres = await startPostgres();
    const nobody = homeWith({ backend: "postgres", url: `postgres://nobody@127.0.0.1:${postgres.port}/postgres` });
    const refused = await bosun(["run", "-y", "hello"], nobody);
    expectOneLine(refused, new RegExp(`^bosun: the PostgreSQL store at postgres://nobody@127\\.0\\.0\\.1:${postgres.port}/postgres refused bosun's credentials \\(role "nobody" does not exist\\): check the user and password in subagents\\.url$`));
    expect(sessionFiles(nobody.t)).toEqual([]);
    const missing = homeWith({ backend: "postgres", url: `postgres://postgres@127.0.0.1:${postgres.port}/nosuchdb` });
    const result = await bosun(["run", "-y", "hello"], missing);
    expectOneLine(result, `the PostgreSQL store at postgres://postgres@127.0.0.1:${postgres.port}/nosuchdb: database "nosuchdb" does not exist; create it or name another database in subagents.url`);
    expect(sessionFiles(missing.t)).toEqual([]);
    expectOneLine(await bosun(["queue"], missing), /database "nosuchdb" does not exist/);
  }, 60_000);
});

/**
 * Starts bosun, waits for its `bosun: …` line and returns how long after that line it took to
 * exit (and its code): a store's check must not leave a connection or timer holding it open.
 */
async function exitAfterLine(argv: string[], home: { t: TempHome; env: Record<string, string | undefined> }): Promise<{ code: number | string; ms: number; stderr: string }> {
  const run = startBosun(argv, home.env, home.t.home);
  await run.waitFor(/^bosun: .*\n/m, 20_000);
  const said = Date.now();
  const code = await Promise.race([run.exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running 10 s after its line"), 10_000))]);
  return { code, ms: Date.now() - said, stderr: run.stderr() };
}

describe("a store bosun cannot use, in time", () => {
  it("lets bosun exit at once after its line, whatever the store's problem", async () => {
    const port = await freePort();
    const redis = await startRedis();
    await requirePassword(redis.port, "s3cret");
    const fake = await fakeOldRedis();
    const postgres = await startPostgres();
    const urls = [`redis://127.0.0.1:${port}`, redis.url, `redis://:wrongpass@127.0.0.1:${redis.port}`, `redis://127.0.0.1:${fake.port}`, `postgres://nobody@127.0.0.1:${postgres.port}/postgres`];
    for (const url of urls) {
      const backend = url.startsWith("redis") ? "redis" : "postgres";
      for (const argv of [["run", "-y", "hello"], ["queue"]]) {
        const ended = await exitAfterLine(argv, homeWith({ backend, url }));
        expect(ended.code, `${url}: ${ended.stderr}`).toBe(1);
        // Generous for a loaded machine; ioredis's disconnect of a connection that never opened waited 2 s.
        expect(ended.ms, `bosun ${argv[0]} at ${url} exited ${ended.ms} ms after its line: ${ended.stderr}`).toBeLessThan(1_000);
      }
    }
  }, 90_000);
});

describe("store settings bosun cannot use", () => {
  it('stops with one line naming an unset {"env": NAME}', async () => {
    const home = homeWith({ backend: "redis", url: { env: "BOSUN_TEST_QUEUE_URL" } });
    delete home.env.BOSUN_TEST_QUEUE_URL;
    const line = "bosun.json subagents.url: the environment variable BOSUN_TEST_QUEUE_URL is not set; set it to the redis store's address";
    expectOneLine(await bosun(["run", "-y", "hello"], home), line);
    expect(sessionFiles(home.t)).toEqual([]);
    expectOneLine(await bosun(["worker"], home), line);
    expectOneLine(await bosun(["queue", "--json"], home), line);
  }, 60_000);

  it("refuses bosun.json with backend redis and no url, naming subagents.url", async () => {
    const home = homeWith({ backend: "redis" });
    const configFile = join(home.t.paths.config, "bosun.json");
    for (const argv of [["run", "-y", "hello"], ["worker"], ["queue"]]) {
      expectOneLine(await bosun(argv, home), `${configFile}:1: subagents.url: backend "redis" needs the store's address: "url": "redis://127.0.0.1:6379" or {"env": "NAME"}`);
    }
    expect(sessionFiles(home.t)).toEqual([]);
  }, 60_000);
});

describe("bosun worker's own mistakes", () => {
  it("says to set subagents.backend when there is no queue", async () => {
    const home = homeWith({});
    expectOneLine(await bosun(["worker"], home), 'bosun worker takes tasks from a queue: set subagents.backend to "redis" or "postgres" and subagents.url in bosun.json');
    const local = homeWith({ backend: "local" });
    expectOneLine(await bosun(["worker", "--concurrency", "2"], local), /set subagents\.backend to "redis" or "postgres"/);
    expectOneLine(await bosun(["queue"], local), 'no queue: sub-agents run in this process (subagents.backend is "local"); set it to "redis" or "postgres" with subagents.url to use workers');
  }, 60_000);

  it("refuses --concurrency that is not a whole number from 1 to 64, and --json without --status", async () => {
    const home = homeWith({});
    expectOneLine(await bosun(["worker", "--concurrency", "0"], home), '--concurrency "0": use a whole number from 1 to 64');
    expectOneLine(await bosun(["worker", "--concurrency", "abc"], home), '--concurrency "abc": use a whole number from 1 to 64');
    expectOneLine(await bosun(["worker", "--concurrency", "65"], home), '--concurrency "65": use a whole number from 1 to 64');
    expectOneLine(await bosun(["worker", "--concurrency", "2.5"], home), '--concurrency "2.5": use a whole number from 1 to 64');
    expectOneLine(await bosun(["worker", "--json"], home), "--json goes with --status");
  }, 60_000);

  it("refuses a bad BOSUN_WORKER_LOCK_MS with one line naming it", async () => {
    const redis = await startRedis();
    const { t, env } = fleetHome(redis, llm.openaiURL);
    const result = await bosun(["worker"], { t, env: { ...env, BOSUN_WORKER_LOCK_MS: "soon" } });
    expectOneLine(result, 'BOSUN_WORKER_LOCK_MS="soon": use a whole number of milliseconds, 500 or more');
  }, 60_000);
});

describe("jobs a worker cannot read", () => {
  it("fails a newer bosun's job and a garbled one at once, with one line each, and goes on taking tasks", async () => {
    const redis = await startRedis();
    const { t, env, queue: queueName } = fleetHome(redis, llm.openaiURL);
    const worker = await startWorker(env, t.home, 2);
    const queue = new Queue(queueName, { connection: { host: "127.0.0.1", port: redis.port }, prefix: "bosun" });
    queue.on("error", () => undefined);
    try {
      // As a parent queues them: 3 attempts, so that a retry would show.
      await queue.add("task", { format: 2, bosun: "9.9.9", parentNode: "x", order: {} }, { ...taskJobOptions(), jobId: "k1" });
      await queue.add("task", { hello: "world" }, { ...taskJobOptions(), jobId: "k2" });
      const newer = await worker.waitFor(/^bosun worker: job k1 .*$/m);
      const garbled = await worker.waitFor(/^bosun worker: job k2 .*$/m);
      expect(newer[0]).toMatch(/^bosun worker: job k1 was queued by bosun 9\.9\.9 in task format 2; this worker runs bosun \S+, which reads format 1: update bosun on this worker$/);
      expect(garbled[0]).toMatch(/^bosun worker: job k2 is not a bosun task bosun can read \(format: .+\)$/);
      for (const [id, line] of [["k1", newer[0]], ["k2", garbled[0]]] as const) {
        expect(worker.stderr().split("\n").filter((text) => text.includes(`job ${id} `)), worker.stderr()).toHaveLength(1);
        const job = (await queue.getJob(id))!;
        await expect.poll(() => job.getState(), { timeout: 10_000 }).toBe("failed");
        const failed = (await queue.getJob(id))!;
        expect(failed.failedReason).toBe(line.replace(/^bosun worker: /, ""));
        expect(failed.attemptsMade).toBe(1);
      }
      // Not retried: still failed, still one attempt, a while (more than the 1 s backoff) later.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (const id of ["k1", "k2"]) {
        const job = (await queue.getJob(id))!;
        expect(await job.getState()).toBe("failed");
        expect(job.attemptsMade).toBe(1);
      }
      expect(worker.stderr().split("\n").filter((text) => / job k[12] /.test(text))).toHaveLength(2);
      // The worker goes on: a real task still runs on it.
      llm.onPrompt("review").reply().text("Delegating.").tool("agent", { tasks: ["check alpha"] });
      llm.onPrompt("check alpha").reply().text("alpha fine");
      llm.onPrompt("review").reply().text("Reviewed.");
      const run = startBosun(["run", "-y", "review"], env, t.home);
      expect(await run.exited, run.stderr()).toBe(0);
      expect(run.stdout()).toContain("Reviewed.");
      expect(llm.requests.at(-1)!.text).toContain("alpha fine");
      await worker.waitFor(/\(sub-agent #1\): completed in /);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      await queue.close();
    }
  }, 90_000);
});

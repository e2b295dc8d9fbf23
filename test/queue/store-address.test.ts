// The pure parts of the sub-agent queue, without a store: `storeAddress` (bosun.json
// `subagents` read into the store's address, `{env: NAME}` resolved, the password kept out of
// what the user sees, queue names checked), `readTaskJob` / `readTaskEnd` (a job's data and a
// finished job's result as a worker and a parent read them: a newer bosun's job, a garbled one,
// an id that disagrees with its task, a result that is not JSON), `atLeast` (the Redis version
// check), `workerTimings` (BOSUN_WORKER_LOCK_MS / BOSUN_WORKER_STALLED_MS) and `relayLeaseMs`.
// Everything here is the real code called directly; nothing is faked.
import { describe, expect, it } from "vitest";
import type { TaskOrder } from "../../src/agent/subagents/runner.js";
import { UserError } from "../../src/kernel/errors.js";
import { relayLeaseMs, workerTimings } from "../../src/app/queue/job-options.js";
import { atLeast, MIN_REDIS_VERSION } from "../../src/app/queue/redis-store.js";
import { DEFAULT_QUEUE, storeAddress, StoreAddressError, type QueueSettings } from "../../src/app/queue/store-address.js";
import { readTaskEnd, readTaskJob, TASK_JOB_FORMAT, taskEndIn, TaskJobError } from "../../src/app/queue/task-job.js";

/** What `storeAddress` threw (failing the test when it did not throw). */
function addressError(settings: QueueSettings | undefined, env: Record<string, string | undefined> = {}, queue?: string): Error {
  try {
    const address = storeAddress(settings, env, queue);
    throw new Error(`storeAddress did not throw; it gave ${JSON.stringify(address)}`);
  } catch (error) {
    if (!(error instanceof StoreAddressError)) throw error;
    return error;
  }
}

/** What `readTaskJob` threw (failing the test when it did not throw). */
function jobError(jobId: string, data: unknown, workerVersion = "1.2.3"): TaskJobError {
  try {
    const job = readTaskJob(jobId, data, workerVersion);
    throw new Error(`readTaskJob did not throw; it gave ${JSON.stringify(job)}`);
  } catch (error) {
    if (!(error instanceof TaskJobError)) throw error;
    return error;
  }
}

/** A task order as a parent queues it, for the job `key`. */
function order(key: string): TaskOrder {
  return {
    key,
    ref: { id: "20260101-000000-abcdef", seq: 1, depth: 1, task: 1, tasks: 2 },
    spec: { prompt: "check alpha", agent: "bosun", isolation: null, carryChanges: false },
    caps: { turns: 10 },
    continueFrom: null,
    parent: {
      session: "20260101-000000-aaaaaa",
      callId: "call_1",
      model: { providerID: "scripted", modelID: "m1" },
      mode: "full-access",
      rules: {},
      grants: [],
      workdir: "/tmp/project",
      sandbox: null,
      maxTurns: null,
      systemPrompt: null,
      maxDepth: 1,
    },
  } as TaskOrder;
}

/** A job's data as a parent of this bosun queues it. */
function job(key: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { format: TASK_JOB_FORMAT, bosun: "0.1.0", parentNode: "node-1", order: order(key), ...changes };
}

describe("storeAddress", () => {
  it("is null when tasks run here: no subagents settings, no backend, or backend local", () => {
    expect(storeAddress(undefined, {})).toBeNull();
    expect(storeAddress({}, {})).toBeNull();
    expect(storeAddress({ backend: "local" }, {})).toBeNull();
    expect(storeAddress({ backend: "local" }, {}, "other")).toBeNull();
  });

  it("reads a written Redis address, with the default queue and no fallback", () => {
    expect(storeAddress({ backend: "redis", url: "redis://127.0.0.1:6379" }, {})).toEqual({ backend: "redis", url: "redis://127.0.0.1:6379", shown: "redis://127.0.0.1:6379", queue: DEFAULT_QUEUE, fallback: false });
    expect(DEFAULT_QUEUE).toBe("bosun");
  });

  it("takes rediss://, postgres:// and postgresql:// addresses, the queue of bosun.json, --queue over it, and fallback local", () => {
    expect(storeAddress({ backend: "redis", url: "rediss://cache.example:6380/2", queue: "reviews", fallback: "local" }, {})).toMatchObject({ backend: "redis", shown: "rediss://cache.example:6380/2", queue: "reviews", fallback: true });
    expect(storeAddress({ backend: "postgres", url: "postgres://bob@db.example:5432/bosun", queue: "reviews" }, {}, "nightly")).toMatchObject({ backend: "postgres", url: "postgres://bob@db.example:5432/bosun", shown: "postgres://bob@db.example:5432/bosun", queue: "nightly", fallback: false });
    expect(storeAddress({ backend: "postgres", url: "postgresql://db.example/bosun" }, {})?.backend).toBe("postgres");
  });

  it('reads {"env": NAME} from the environment', () => {
    const address = storeAddress({ backend: "redis", url: { env: "BOSUN_TEST_QUEUE_URL" } }, { BOSUN_TEST_QUEUE_URL: "redis://10.0.0.5:6379" });
    expect(address).toMatchObject({ backend: "redis", url: "redis://10.0.0.5:6379", shown: "redis://10.0.0.5:6379" });
  });

  it('stops with one line naming the variable when {"env": NAME} is unset or empty', () => {
    const line = "bosun.json subagents.url: the environment variable BOSUN_TEST_QUEUE_URL is not set; set it to the redis store's address";
    expect(addressError({ backend: "redis", url: { env: "BOSUN_TEST_QUEUE_URL" } }, {}).message).toBe(line);
    expect(addressError({ backend: "redis", url: { env: "BOSUN_TEST_QUEUE_URL" } }, { BOSUN_TEST_QUEUE_URL: "" }).message).toBe(line);
    expect(addressError({ backend: "postgres", url: { env: "PGURL" } }, { OTHER: "postgres://x/y" }).message).toBe("bosun.json subagents.url: the environment variable PGURL is not set; set it to the postgres store's address");
  });

  it("is a user error (exit code 1), one line", () => {
    const error = addressError({ backend: "redis", url: { env: "NOPE" } });
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(1);
    expect(error.message).not.toContain("\n");
  });

  it("needs a url with a store backend, and refuses an unknown backend", () => {
    expect(addressError({ backend: "redis" }).message).toBe('bosun.json subagents.url: backend "redis" needs the store\'s address (or {"env": "NAME"})');
    expect(addressError({ backend: "postgres" }).message).toContain('backend "postgres" needs the store\'s address');
    expect(addressError({ backend: "mysql", url: "mysql://x" }).message).toBe('bosun.json subagents.backend: "mysql" is not a backend; use "local", "redis" or "postgres"');
  });

  it("refuses an address of the other backend's scheme, or of no store's", () => {
    expect(addressError({ backend: "redis", url: "postgres://bob@db/bosun" }).message).toBe('bosun.json subagents.url: backend "redis" needs a redis:// (or rediss://) address, not postgres://');
    expect(addressError({ backend: "postgres", url: "redis://127.0.0.1:6379" }).message).toBe('bosun.json subagents.url: backend "postgres" needs a postgres:// address, not redis://');
    expect(addressError({ backend: "redis", url: "http://127.0.0.1:6379" }).message).toContain("not http://");
    // From the environment the same check applies: the schema cannot see the variable's value.
    expect(addressError({ backend: "postgres", url: { env: "Q" } }, { Q: "rediss://cache:6380" }).message).toContain('backend "postgres" needs a postgres:// address, not rediss://');
  });

  it("refuses what is not an address, without echoing a variable's value (it may hold a password)", () => {
    expect(addressError({ backend: "redis", url: "not an address" }).message).toBe('bosun.json subagents.url: "not an address" is not an address; use redis://host:6379');
    const fromEnv = addressError({ backend: "postgres", url: { env: "PGURL" } }, { PGURL: "s3cretpass@nowhere" });
    expect(fromEnv.message).toBe("bosun.json subagents.url: the value of PGURL is not an address; use postgres://user@host:5432/database");
    expect(fromEnv.message).not.toContain("s3cretpass");
  });

  it("keeps the password (and any query) out of the address it shows", () => {
    const redis = storeAddress({ backend: "redis", url: "redis://:s3cret@127.0.0.1:6379/1" }, {})!;
    expect(redis.url).toBe("redis://:s3cret@127.0.0.1:6379/1");
    expect(redis.shown).toBe("redis://:***@127.0.0.1:6379/1");
    const acl = storeAddress({ backend: "redis", url: "rediss://worker:hunter2@cache.example:6380" }, {})!;
    expect(acl.shown).toBe("rediss://worker:***@cache.example:6380");
    const postgres = storeAddress({ backend: "postgres", url: { env: "PGURL" } }, { PGURL: "postgres://bosun:pa55word@db.example:5432/queue?sslmode=require&password=other" })!;
    expect(postgres.shown).toBe("postgres://bosun:***@db.example:5432/queue");
    for (const secret of ["s3cret", "hunter2", "pa55word", "other"]) expect([redis.shown, acl.shown, postgres.shown].join(" ")).not.toContain(secret);
  });

  it("refuses queue names that are not up to 40 lowercase letters, digits, - and _ (from bosun.json or --queue)", () => {
    const base = { backend: "redis", url: "redis://127.0.0.1:6379" };
    for (const name of ["Reviews", "-lead", "_lead", "a:b", "a b", "a.b", "é", "a".repeat(41)]) {
      expect(addressError({ ...base, queue: name }).message).toBe(`queue name ${JSON.stringify(name)}: use up to 40 lowercase letters, digits, - and _`);
      expect(addressError(base, {}, name).message).toBe(`queue name ${JSON.stringify(name)}: use up to 40 lowercase letters, digits, - and _`);
    }
    expect(addressError(base, {}, "").message).toBe('queue name "": use up to 40 lowercase letters, digits, - and _');
    expect(storeAddress({ ...base, queue: "a".repeat(40) }, {})?.queue).toBe("a".repeat(40));
    expect(storeAddress({ ...base, queue: "0-night_ly" }, {})?.queue).toBe("0-night_ly");
  });
});

describe("readTaskJob", () => {
  it("reads a job of this format whose id is its task's key", () => {
    const data = job("k1");
    expect(readTaskJob("k1", data, "0.1.0")).toEqual(data);
  });

  it("refuses a newer bosun's job with one line: who queued it, both formats, update bosun on this worker", () => {
    const error = jobError("k1", { format: 2, bosun: "9.9.9", parentNode: "x", order: {} }, "0.1.0");
    expect(error.message).toBe(`job k1 was queued by bosun 9.9.9 in task format 2; this worker runs bosun 0.1.0, which reads format ${TASK_JOB_FORMAT}: update bosun on this worker`);
    // Not read further: a newer format's data is not judged by this format's schema.
    expect(jobError("k1", { format: 7, bosun: "10.0.0", anything: true }).message).toMatch(/^job k1 was queued by bosun 10\.0\.0 in task format 7; .*: update bosun on this worker$/);
    expect(jobError("k9", { format: 2 }).message).toContain("queued by bosun (a newer one) in task format 2");
  });

  it("refuses garbled data as not a bosun task, naming the field", () => {
    expect(jobError("k2", { hello: "world" }).message).toMatch(/^job k2 is not a bosun task bosun can read \(format: .+\)$/);
    expect(jobError("k2", null).message).toMatch(/^job k2 is not a bosun task bosun can read \(its data: .+\)$/);
    expect(jobError("k2", "garbage").message).toMatch(/^job k2 is not a bosun task bosun can read \(its data: .+\)$/);
    expect(jobError("k3", job("k3", { parentNode: "" })).message).toMatch(/^job k3 is not a bosun task bosun can read \(parentNode: .+\)$/);
    const relative = job("k4");
    (relative.order as TaskOrder).parent.workdir = "project";
    expect(jobError("k4", relative).message).toMatch(/^job k4 is not a bosun task bosun can read \(order\.parent\.workdir: .+\)$/);
    const noPrompt = job("k5");
    delete (noPrompt.order as { spec: Partial<TaskOrder["spec"]> }).spec.prompt;
    expect(jobError("k5", noPrompt).message).toMatch(/\(order\.spec\.prompt: .+\)$/);
  });

  it("refuses an older format it does not read", () => {
    expect(jobError("k1", job("k1", { format: 0 })).message).toBe(`job k1 has task format 0; this worker reads format ${TASK_JOB_FORMAT}`);
  });

  it("refuses a job whose id and task key disagree", () => {
    expect(jobError("k1", job("k2")).message).toBe("job k1 carries the task k2: its id and its task disagree");
  });

  it("is one line each time", () => {
    for (const data of [{ format: 2, bosun: "9.9.9" }, { hello: "world" }, job("other")]) expect(jobError("k1", data).message).not.toContain("\n");
  });
});

describe("readTaskEnd", () => {
  const end = { status: "completed", text: "alpha fine", turns: 2, usage: { inputTokens: 10, outputTokens: 3 }, costUsd: null };

  it("reads a finished job's result, as an object or as JSON text", () => {
    expect(readTaskEnd("k1", end)).toEqual(end);
    expect(readTaskEnd("k1", JSON.stringify(end))).toEqual(end);
    expect(readTaskEnd("k1", { ...end, status: "cancelled", costUsd: undefined })).toMatchObject({ status: "cancelled", text: "alpha fine" });
  });

  it("makes a result that is not JSON a failed task saying so", () => {
    expect(readTaskEnd("k1", "{not json")).toEqual({ status: "failed", text: "job k1 ended with a result bosun cannot read", turns: 0, usage: {} });
  });

  it("makes a result of the wrong shape, or none, a failed task saying so", () => {
    for (const value of [null, undefined, 42, "\"done\"", { ...end, status: "exploded" }, { ...end, turns: -1 }, { status: "completed" }]) {
      expect(readTaskEnd("k7", value)).toEqual({ status: "failed", text: "job k7 ended with a result bosun cannot read", turns: 0, usage: {} });
    }
  });

  it("finds the end in a completed event's result (taskEndIn), or none: the parent then reads the job itself", () => {
    expect(taskEndIn(end)).toEqual(end);
    expect(taskEndIn(JSON.stringify(end))).toEqual(end);
    for (const value of [undefined, null, "{not json", { ...end, status: "exploded" }]) expect(taskEndIn(value)).toBeNull();
  });
});

describe("atLeast", () => {
  it("compares dotted versions by their numbers", () => {
    expect(MIN_REDIS_VERSION).toBe("6.2.0");
    expect(atLeast("6.2.0", "6.2.0")).toBe(true);
    expect(atLeast("7.0.15", "6.2.0")).toBe(true);
    expect(atLeast("6.2.14", "6.2.0")).toBe(true);
    expect(atLeast("6.10.0", "6.2.0")).toBe(true); // numbers, not text: 10 > 2
    expect(atLeast("7", "6.2.0")).toBe(true);
    expect(atLeast("6.2", "6.2.0")).toBe(true); // a missing part counts as 0
    expect(atLeast("5.0.14", "6.2.0")).toBe(false);
    expect(atLeast("6.0.20", "6.2.0")).toBe(false);
    expect(atLeast("6.1.99", "6.2.0")).toBe(false);
  });

  it("does not take a version it cannot read for a recent one", () => {
    expect(atLeast("unknown", "6.2.0")).toBe(false);
    expect(atLeast("", "6.2.0")).toBe(false);
  });
});

describe("workerTimings", () => {
  it("is BullMQ's lock of 30 s, looked at every 15 s, 3 stalls allowed, by default", () => {
    expect(workerTimings({})).toEqual({ lockMs: 30_000, stalledMs: 15_000, maxStalled: 3 });
    expect(workerTimings({ BOSUN_WORKER_LOCK_MS: "", BOSUN_WORKER_STALLED_MS: "" })).toEqual({ lockMs: 30_000, stalledMs: 15_000, maxStalled: 3 });
  });

  it("takes shorter timings from the environment; a short lock is looked at as often as it lasts", () => {
    expect(workerTimings({ BOSUN_WORKER_LOCK_MS: "2000" })).toEqual({ lockMs: 2_000, stalledMs: 2_000, maxStalled: 3 });
    expect(workerTimings({ BOSUN_WORKER_LOCK_MS: "2000", BOSUN_WORKER_STALLED_MS: "1000" })).toEqual({ lockMs: 2_000, stalledMs: 1_000, maxStalled: 3 });
    expect(workerTimings({ BOSUN_WORKER_LOCK_MS: "500", BOSUN_WORKER_STALLED_MS: "250" })).toMatchObject({ lockMs: 500, stalledMs: 250 });
  });

  it("stops with one line naming the variable for a value that is not a whole number of ms, or too small", () => {
    const cases: [Record<string, string>, string][] = [
      [{ BOSUN_WORKER_LOCK_MS: "abc" }, 'BOSUN_WORKER_LOCK_MS="abc": use a whole number of milliseconds, 500 or more'],
      [{ BOSUN_WORKER_LOCK_MS: "1500.5" }, 'BOSUN_WORKER_LOCK_MS="1500.5": use a whole number of milliseconds, 500 or more'],
      [{ BOSUN_WORKER_LOCK_MS: "499" }, 'BOSUN_WORKER_LOCK_MS="499": use a whole number of milliseconds, 500 or more'],
      [{ BOSUN_WORKER_LOCK_MS: "-30000" }, 'BOSUN_WORKER_LOCK_MS="-30000": use a whole number of milliseconds, 500 or more'],
      [{ BOSUN_WORKER_STALLED_MS: "100" }, 'BOSUN_WORKER_STALLED_MS="100": use a whole number of milliseconds, 250 or more'],
      [{ BOSUN_WORKER_STALLED_MS: "soon" }, 'BOSUN_WORKER_STALLED_MS="soon": use a whole number of milliseconds, 250 or more'],
    ];
    for (const [env, line] of cases) {
      let thrown: unknown = null;
      try {
        workerTimings(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(env)).toBeInstanceOf(UserError);
      expect((thrown as Error).message).toBe(line);
    }
  });
});

describe("relayLeaseMs", () => {
  it("is BullMQ's 30 s by default, shorter from BOSUN_RELAY_LEASE_MS, one line naming it when wrong", () => {
    expect(relayLeaseMs({})).toBe(30_000);
    expect(relayLeaseMs({ BOSUN_RELAY_LEASE_MS: "" })).toBe(30_000);
    expect(relayLeaseMs({ BOSUN_RELAY_LEASE_MS: "1000" })).toBe(1_000);
    for (const value of ["0", "499", "1.5", "later"]) {
      expect(() => relayLeaseMs({ BOSUN_RELAY_LEASE_MS: value })).toThrow(new UserError(`BOSUN_RELAY_LEASE_MS=${JSON.stringify(value)}: use a whole number of milliseconds, 500 or more`));
    }
  });
});

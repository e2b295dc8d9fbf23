import { Queue, QueueEvents, Relay, Worker, type Processor, type RedisOptions as BullRedisOptions, type WorkerOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { CHECKPOINT_TTL_MS, parseWorkerBeat, StoreError, storeProblem, type QueueStore, type StoredCheckpoint, type WorkerBeat } from "./store.js";
import type { StoreAddress } from "./store-address.js";

/** The oldest Redis bosun runs on: what BullMQ recommends (it needs 5.0 at least). */
export const MIN_REDIS_VERSION = "6.2.0";

/** BullMQ's keys and bosun's own start with this. */
const PREFIX = "bosun";

/** Keeps a checkpoint unless a later pickup already kept one (KEYS[1]: the checkpoint; ARGV: attempt, body, ttl ms). */
const SAVE_CHECKPOINT = `
local kept = tonumber(redis.call('HGET', KEYS[1], 'attempt') or '0')
if kept > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'attempt', ARGV[1], 'body', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Opens a Redis store: checks it answers, takes the credentials and is at least 6.2. */
export async function openRedisStore(address: StoreAddress): Promise<QueueStore> {
  const options = redisOptions(address.url);
  const version = await checkRedis(address, options);
  // BullMQ's connections wait out a restart of the server: they reconnect and go on.
  const connection: RedisOptions = { ...options, maxRetriesPerRequest: null };
  // BullMQ declares ioredis's options in its own words; they are the same options.
  const bull = connection as BullRedisOptions;
  const client = new Redis({ ...connection, lazyConnect: true });
  client.on("error", () => undefined);
  await client.connect();
  const key = (what: string, id: string) => `${PREFIX}:${address.queue}:${what}:${id}`;
  const workersKey = `${PREFIX}:${address.queue}:workers`;
  return {
    address,
    version,
    queue: (name) => new Queue(name, { connection: bull, prefix: PREFIX }),
    worker: (name, processor: Processor, workerOptions: Omit<WorkerOptions, "connection">) => new Worker(name, processor, { ...workerOptions, connection: bull, prefix: PREFIX }),
    events: (name) => new QueueEvents(name, { connection: bull, prefix: PREFIX }),
    relay: (name, leaseMs) => new Relay({ connection: bull, prefix: PREFIX, namespace: `${address.queue}-${name}`, leaseDuration: leaseMs }),
    async saveCheckpoint(id, checkpoint) {
      const kept = await client.eval(SAVE_CHECKPOINT, 1, key("checkpoint", id), String(checkpoint.attempt), checkpoint.body, String(CHECKPOINT_TTL_MS));
      return kept === 1;
    },
    async loadCheckpoint(id): Promise<StoredCheckpoint | null> {
      const [attempt, body] = await client.hmget(key("checkpoint", id), "attempt", "body");
      return attempt && typeof body === "string" ? { attempt: Number(attempt), body } : null;
    },
    async beat(worker) {
      await client.hset(workersKey, worker.id, JSON.stringify(worker));
    },
    async workers(withinMs) {
      const all = await client.hgetall(workersKey);
      const now = Date.now();
      const beats: WorkerBeat[] = [];
      const gone: string[] = [];
      for (const [id, text] of Object.entries(all)) {
        const beat = parseWorkerBeat(text);
        if (beat && now - beat.seenAt <= withinMs) beats.push(beat);
        else gone.push(id);
      }
      // A worker that stopped beating long ago is forgotten; one a little late is still listed by the caller's window.
      const stale = gone.filter((id) => {
        const beat = parseWorkerBeat(all[id]!);
        return !beat || now - beat.seenAt > 10 * withinMs;
      });
      if (stale.length > 0) await client.hdel(workersKey, ...stale);
      return beats.sort((a, b) => a.startedAt - b.startedAt);
    },
    async leave(id) {
      await client.hdel(workersKey, id);
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** ioredis's options for a `redis://` or `rediss://` address. */
export function redisOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, "");
  return {
    host: parsed.hostname || "127.0.0.1",
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
  };
}

/** Connects once, without retrying: the server's version, or the one line of why it cannot be used. */
async function checkRedis(address: StoreAddress, options: RedisOptions): Promise<string> {
  const probe = new Redis({ ...options, lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  let lastError: unknown = null;
  probe.on("error", (error) => {
    lastError = error;
  });
  try {
    await probe.connect();
    const info = await probe.info("server");
    const version = /redis_version:([0-9.]+)/.exec(info)?.[1] ?? "unknown";
    if (!atLeast(version, MIN_REDIS_VERSION)) throw new StoreError(`the Redis store at ${address.shown} is version ${version}; bosun needs ${MIN_REDIS_VERSION} or newer (BullMQ's recommendation)`);
    return version;
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(storeProblem(address, lastError ?? error));
  } finally {
    // A connection that never opened (or already ended) has nothing to close: disconnect() would
    // still wait out ioredis's 2 s disconnectTimeout for a "close" that never comes.
    if (probe.status !== "end") probe.disconnect();
  }
}

/** Whether dotted version `version` is at least `minimum`. */
export function atLeast(version: string, minimum: string): boolean {
  const a = version.split(".").map(Number);
  const b = minimum.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (Number.isNaN(x)) return false;
    if (x !== y) return x > y;
  }
  return true;
}

import { createPostgresBackend, createPostgresRelayBackend, Queue, QueueEvents, Relay, runMigrations, Worker, type Processor, type WorkerOptions } from "bullmq";
import pg from "pg";
import { CHECKPOINT_TTL_MS, parseWorkerBeat, StoreError, storeProblem, type QueueStore, type StoreEvents, type StoreQueue, type StoreRelay, type StoredCheckpoint, type StoreWorker, type WorkerBeat } from "./store.js";
import type { StoreAddress } from "./store-address.js";

/** The oldest PostgreSQL BullMQ's backend runs on. */
export const MIN_POSTGRES_VERSION_NUM = 130000;

/** bosun's own tables, beside BullMQ's schema; made once, idempotently. */
const BOSUN_TABLES = `
CREATE TABLE IF NOT EXISTS bosun_checkpoints (
  queue text NOT NULL, key text NOT NULL, attempt integer NOT NULL, body text NOT NULL, expires_at timestamptz NOT NULL,
  PRIMARY KEY (queue, key));
CREATE TABLE IF NOT EXISTS bosun_workers (
  queue text NOT NULL, id text NOT NULL, beat jsonb NOT NULL, seen_at timestamptz NOT NULL,
  PRIMARY KEY (queue, id));`;

/** Each BullMQ object opens a pool of its own: a few connections each, so that many workers fit in `max_connections`. */
const POOL_SIZE = 4;

/** Opens a PostgreSQL store: checks it answers, takes the credentials and is at least 13; applies BullMQ's migrations and bosun's tables. */
export async function openPostgresStore(address: StoreAddress): Promise<QueueStore> {
  const pool = new pg.Pool({ connectionString: address.url, max: 2, connectionTimeoutMillis: 3000 });
  pool.on("error", () => undefined);
  let version: string;
  try {
    const result = await pool.query<{ server_version_num: string; server_version: string }>("SELECT current_setting('server_version_num') AS server_version_num, current_setting('server_version') AS server_version");
    const row = result.rows[0]!;
    version = row.server_version;
    if (Number(row.server_version_num) < MIN_POSTGRES_VERSION_NUM) throw new StoreError(`the PostgreSQL store at ${address.shown} is version ${version}; bosun needs 13 or newer (BullMQ's PostgreSQL backend)`);
    // Idempotent and advisory-locked: workers and parents starting at once apply them once.
    await runMigrations(pool);
    await pool.query(BOSUN_TABLES);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof StoreError) throw error;
    throw new StoreError(storeProblem(address, error));
  }
  const connection = { connectionString: address.url, max: POOL_SIZE, skipMigrations: true };
  const queueName = address.queue;
  return {
    address,
    version,
    // See StoreQueue: the same methods as on Redis, under Redis's types.
    queue: (name) => new Queue(name, { connection }, createPostgresBackend) as unknown as StoreQueue,
    worker: (name, processor: Processor, workerOptions: Omit<WorkerOptions, "connection">) => new Worker(name, processor, { ...(workerOptions as WorkerOptions<never>), connection }, createPostgresBackend) as unknown as StoreWorker,
    events: (name) => new QueueEvents(name, { connection }, createPostgresBackend) as unknown as StoreEvents,
    relay: (name, leaseMs) => new Relay({ connection, namespace: `${queueName}-${name}`, leaseDuration: leaseMs, backend: createPostgresRelayBackend }) as unknown as StoreRelay,
    async saveCheckpoint(key, checkpoint) {
      const result = await pool.query(
        `INSERT INTO bosun_checkpoints (queue, key, attempt, body, expires_at) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
         ON CONFLICT (queue, key) DO UPDATE SET attempt = excluded.attempt, body = excluded.body, expires_at = excluded.expires_at
         WHERE bosun_checkpoints.attempt <= excluded.attempt`,
        [queueName, key, checkpoint.attempt, checkpoint.body, CHECKPOINT_TTL_MS],
      );
      return result.rowCount === 1;
    },
    async loadCheckpoint(key): Promise<StoredCheckpoint | null> {
      const result = await pool.query<{ attempt: number; body: string }>("SELECT attempt, body FROM bosun_checkpoints WHERE queue = $1 AND key = $2 AND expires_at > now()", [queueName, key]);
      const row = result.rows[0];
      return row ? { attempt: row.attempt, body: row.body } : null;
    },
    async beat(worker) {
      await pool.query("INSERT INTO bosun_workers (queue, id, beat, seen_at) VALUES ($1, $2, $3, now()) ON CONFLICT (queue, id) DO UPDATE SET beat = excluded.beat, seen_at = excluded.seen_at", [queueName, worker.id, JSON.stringify(worker)]);
    },
    async workers(withinMs) {
      await pool.query("DELETE FROM bosun_workers WHERE queue = $1 AND seen_at < now() - $2 * interval '1 millisecond'", [queueName, 10 * withinMs]);
      await pool.query("DELETE FROM bosun_checkpoints WHERE expires_at < now()");
      const result = await pool.query<{ beat: unknown }>("SELECT beat FROM bosun_workers WHERE queue = $1 ORDER BY seen_at", [queueName]);
      const now = Date.now();
      return result.rows
        .map((row) => parseWorkerBeat(JSON.stringify(row.beat)))
        .filter((beat): beat is WorkerBeat => beat !== null && now - beat.seenAt <= withinMs)
        .sort((a, b) => a.startedAt - b.startedAt);
    },
    async leave(id) {
      await pool.query("DELETE FROM bosun_workers WHERE queue = $1 AND id = $2", [queueName, id]);
    },
    async close() {
      await pool.end().catch(() => undefined);
    },
  };
}

import type { Boot } from "../start.js";
import { openStore } from "./open-store.js";
import { BEAT_MS } from "./job-options.js";
import { storeAddress, StoreAddressError } from "./store-address.js";
import type { WorkerBeat } from "./store.js";

/** A job that is running, as the queue and the workers' beats have it. */
export interface RunningTask {
  key: string;
  /** The worker running it by its beats, or the one BullMQ last gave it to. */
  worker: string | null;
  /** How many times it was picked up (2 and more: its worker died or handed it back). */
  pickups: number;
  startedAt: number | null;
  /** No live worker says it runs it: its worker died or froze; it is picked up again once its lock expires. */
  stalled: boolean;
}

/** `bosun queue` and `bosun worker --status`: the store, its workers, and the queue's jobs by state. */
export interface QueueStatus {
  backend: "redis" | "postgres";
  store: string;
  version: string;
  queue: string;
  workers: WorkerBeat[];
  counts: { waiting: number; active: number; delayed: number; completed: number; failed: number };
  running: RunningTask[];
}

/** How many running jobs are listed one by one. */
const LIST_RUNNING = 100;

/** Reads the queue of `bosun.json` `subagents` (or `--queue`): one line if it has none or its store cannot be used. */
export async function queueStatus(boot: Boot, queueName?: string): Promise<QueueStatus> {
  const address = storeAddress(boot.config?.value.subagents, boot.env, queueName);
  if (!address) throw new StoreAddressError('no queue: sub-agents run in this process (subagents.backend is "local"); set it to "redis" or "postgres" with subagents.url to use workers');
  const store = await openStore(address);
  const queue = store.queue(address.queue);
  queue.on("error", () => undefined);
  try {
    const [counts, active, workers] = await Promise.all([queue.getJobCounts("waiting", "active", "delayed", "prioritized", "completed", "failed"), queue.getActive(0, LIST_RUNNING - 1), store.workers(3 * BEAT_MS)]);
    const byKey = new Map<string, string>();
    for (const worker of workers) for (const key of worker.running) byKey.set(key, worker.id);
    const running = active.map((job): RunningTask => {
      const key = job.id ?? "";
      const worker = byKey.get(key) ?? null;
      return { key, worker: worker ?? job.processedBy ?? null, pickups: job.attemptsStarted, startedAt: job.processedOn ?? null, stalled: worker === null && Date.now() - (job.processedOn ?? 0) > 2 * BEAT_MS };
    });
    return {
      backend: address.backend,
      store: address.shown,
      version: store.version,
      queue: address.queue,
      workers,
      counts: { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0, delayed: counts.delayed ?? 0, completed: counts.completed ?? 0, failed: counts.failed ?? 0 },
      running,
    };
  } finally {
    await queue.close().catch(() => undefined);
    await store.close();
  }
}

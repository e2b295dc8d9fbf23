import { resumesWhenPickedUpAgain, type SubagentRunner, type TaskEnd, type TaskIo, type TaskOrder } from "../../agent/subagents/runner.js";
import { packageVersion } from "../../kernel/package-info.js";
import { readTaskEnd, TASK_JOB_FORMAT, taskEndIn, type TaskJob } from "./task-job.js";
import { ANSWER_TOPIC, CANCEL_TOPIC, parentTopic, RELAY_NAME, type AnswerMessage, type CancelMessage, type WorkerMessage } from "./task-messages.js";
import { StoreError, storeProblem, type QueueStore, type StoreEvents, type StoreQueue, type StoreRelay } from "./store.js";
import { BEAT_MS, taskJobOptions } from "./job-options.js";

/** How often a waiting task's job is looked at in the store, besides the events that say it ended. */
const POLL_MS = 1_000;

/** How long a cancelled task's worker has to report it stopped before the parent reports it cancelled anyway. */
export const CANCEL_WAIT_MS = 5_000;

/** A task waiting this long in the queue makes the runner look for workers, and say so when there is none. */
const NO_WORKER_MS = 5_000;

/** How many times a task whose job the store lost (it restarted without its data) is queued again. */
const REQUEUES = 2;

/** When a task's job was queued, started, finished, and seen ended here (ms since the epoch). */
export interface TaskTimings {
  key: string;
  queuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  seenAt: number;
}

/** A task this runner waits for. */
interface Waiting {
  order: TaskOrder;
  io: TaskIo;
  /** The latest pickup heard from: messages of earlier ones are a stale copy's. */
  attempt: number;
  worker: string | null;
  requeued: number;
  cancelling: boolean;
  /** Whether it was told that no worker takes tasks (once per task). */
  warned: boolean;
  queuedAt: number;
  settle(end: TaskEnd): void;
}

/**
 * The parent's side of a queue of `bosun worker`s (`subagents.backend` "redis" or "postgres"):
 * each task becomes a job whose id is its key (queued twice, it is one job), its events and
 * questions come back through the store's relay, and its end is the job's result (which BullMQ
 * takes only from the worker that holds the job's lock: a stale copy's is refused). Cancelling
 * takes out a job that has not started, and tells the worker of a running one to stop it.
 */
export class QueueRunner implements SubagentRunner {
  readonly backend;
  readonly where: string;
  private readonly waiting = new Map<string, Waiting>();
  private readonly poller: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly store: QueueStore,
    private readonly queue: StoreQueue,
    private readonly events: StoreEvents,
    private readonly relay: StoreRelay,
    private readonly onTimings: (timings: TaskTimings) => void,
  ) {
    this.backend = store.address.backend;
    this.where = `${store.address.shown} (queue ${store.address.queue})`;
    events.on("completed", ({ jobId, returnvalue }) => this.completed(jobId, returnvalue));
    events.on("failed", ({ jobId }) => void this.look(jobId));
    events.on("error", () => undefined);
    this.poller = setInterval(() => {
      for (const key of this.waiting.keys()) void this.look(key);
    }, POLL_MS);
    this.poller.unref();
  }

  /**
   * Connects to the store's queue, its events and relay (listed there `leaseMs` without a
   * heartbeat: see `relayLeaseMs`); a store that cannot be used throws its one line. `onTimings`
   * hears each finished task's times in the queue (the run's log keeps them).
   */
  static async open(store: QueueStore, leaseMs: number, onTimings: (timings: TaskTimings) => void = () => undefined): Promise<QueueRunner> {
    const queue = store.queue(store.address.queue);
    const events = store.events(store.address.queue);
    const relay = store.relay(RELAY_NAME, leaseMs);
    relay.on("error", () => undefined);
    queue.on("error", () => undefined);
    try {
      await Promise.all([queue.waitUntilReady(), events.waitUntilReady(), relay.waitUntilReady()]);
      const runner = new QueueRunner(store, queue, events, relay, onTimings);
      await relay.subscribe<WorkerMessage>(parentTopic(relay.nodeId), (message) => runner.heard(message.data));
      return runner;
    } catch (error) {
      await Promise.allSettled([queue.close(), events.close(), relay.close()]);
      throw new StoreError(storeProblem(store.address, error));
    }
  }

  async run(order: TaskOrder, io: TaskIo): Promise<TaskEnd> {
    if (this.closed) return { status: "failed", text: "not run: the queue runner is closed", turns: 0, usage: {} };
    const ended = new Promise<TaskEnd>((resolve) => {
      const entry: Waiting = {
        order,
        io,
        attempt: 0,
        worker: null,
        requeued: 0,
        cancelling: false,
        warned: false,
        queuedAt: Date.now(),
        settle: (end) => {
          if (this.waiting.get(order.key) !== entry) return;
          this.waiting.delete(order.key);
          io.signal.removeEventListener("abort", onAbort);
          resolve(end);
        },
      };
      const onAbort = () => void this.cancel(entry);
      this.waiting.set(order.key, entry);
      io.signal.addEventListener("abort", onAbort, { once: true });
    });
    const entry = this.waiting.get(order.key)!;
    try {
      await this.enqueue(order);
    } catch (error) {
      entry.settle({ status: "failed", text: `not queued: ${storeProblem(this.store.address, error)}`, turns: 0, usage: {} });
    }
    if (io.signal.aborted) void this.cancel(entry);
    return ended;
  }

  private async enqueue(order: TaskOrder): Promise<void> {
    const job: TaskJob = { format: TASK_JOB_FORMAT, bosun: packageVersion(), parentNode: this.relay.nodeId, order };
    await this.queue.add("task", job, { ...taskJobOptions(), jobId: order.key });
  }

  /** A worker's message: an event of the task's current pickup, or a question for the user. */
  private heard(message: WorkerMessage): void {
    const entry = this.waiting.get(message.key);
    if (!entry || message.attempt < entry.attempt) return;
    if (message.type === "event") {
      if (message.attempt > entry.attempt || entry.worker !== message.worker) {
        const again = entry.attempt > 0;
        entry.attempt = message.attempt;
        entry.worker = message.worker;
        const how = resumesWhenPickedUpAgain(entry.order.spec) ? "it goes on from its last finished turn" : "it starts over";
        if (again) entry.io.onEvent({ type: "notice", message: `picked up again by worker ${message.worker} (pickup ${message.attempt}); ${how}` });
      }
      entry.io.onEvent(message.event);
      return;
    }
    const answer = async () => {
      const reply = await entry.io.ask(message.request, entry.io.signal).catch(() => "deny" as const);
      const data: AnswerMessage = { key: message.key, id: message.id, reply };
      await this.relay.publish(ANSWER_TOPIC, data).catch(() => undefined);
    };
    void answer();
  }

  /**
   * A task's job completed: the event carries the task's end (a job completes only from the
   * pickup that holds its lock, so a stale copy's end never comes here), which settles the task
   * at once; its times in the queue are read after. An event without an end bosun can read is
   * looked into.
   */
  private completed(key: string, value: unknown): void {
    const entry = this.waiting.get(key);
    const end = entry ? taskEndIn(value) : null;
    if (!entry || !end) return void this.look(key);
    entry.settle(end);
    const seenAt = Date.now();
    void this.queue.getJob(key).then(
      (job) => this.timed(entry, job?.processedOn ?? null, job?.finishedOn ?? null, seenAt),
      () => undefined,
    );
  }

  /** Looks at a task's job: ended, it settles the task; gone from the store, it is queued again (or fails saying so). */
  private async look(key: string): Promise<void> {
    const entry = this.waiting.get(key);
    if (!entry || this.closed) return;
    let job;
    try {
      job = await this.queue.getJob(key);
    } catch {
      return; // the store is away for now: its connections reconnect, and the next look tries again
    }
    if (this.waiting.get(key) !== entry) return;
    if (!job) {
      if (entry.cancelling) return entry.settle({ status: "cancelled", text: "cancelled before it started", turns: 0, usage: {} });
      if (entry.requeued >= REQUEUES) {
        return entry.settle({ status: "failed", text: `the ${this.store.address.backend === "redis" ? "Redis" : "PostgreSQL"} store at ${this.store.address.shown} lost this task ${REQUEUES + 1} times (did it restart without its data?)`, turns: 0, usage: {} });
      }
      entry.requeued++;
      entry.io.onEvent({ type: "notice", message: `the store lost this task (did it restart without its data?); queued again` });
      await this.enqueue(entry.order).catch(() => undefined);
      return;
    }
    const state = await job.getState().catch(() => "unknown");
    // Read before it ended, the job has no result yet: read it again.
    if ((state === "completed" || state === "failed") && job.finishedOn === undefined) job = (await this.queue.getJob(key).catch(() => undefined)) ?? job;
    if (this.waiting.get(key) !== entry) return;
    if (state === "waiting" && !entry.warned && Date.now() - entry.queuedAt > NO_WORKER_MS) {
      entry.warned = true;
      const workers = await this.store.workers(3 * BEAT_MS).catch(() => null);
      if (workers && workers.length === 0) entry.io.onEvent({ type: "notice", message: `no bosun worker takes tasks from ${this.where}; the task waits in the queue (start one: bosun worker)` });
      return;
    }
    if (state === "completed") {
      this.timed(entry, job.processedOn ?? null, job.finishedOn ?? null, Date.now());
      entry.settle(readTaskEnd(key, job.returnvalue));
    } else if (state === "failed") {
      this.timed(entry, job.processedOn ?? null, job.finishedOn ?? null, Date.now());
      entry.settle({ status: entry.cancelling ? "cancelled" : "failed", text: job.failedReason || "its worker failed it without a reason", turns: 0, usage: {} });
    }
  }

  private timed(entry: Waiting, startedAt: number | null, finishedAt: number | null, seenAt: number): void {
    this.onTimings({ key: entry.order.key, queuedAt: entry.queuedAt, startedAt, finishedAt, seenAt });
  }

  /**
   * Cancels a task: a job not started yet is taken out of the queue; a running one's worker is
   * told to stop it (it ends "cancelled" with what it did); a worker that does not confirm within
   * `CANCEL_WAIT_MS` leaves the task reported cancelled anyway.
   */
  private async cancel(entry: Waiting): Promise<void> {
    if (entry.cancelling) return;
    entry.cancelling = true;
    const { key } = entry.order;
    const reason = entry.io.signal.reason instanceof Error ? entry.io.signal.reason.message : "cancelled";
    try {
      const job = await this.queue.getJob(key);
      const state = job ? await job.getState() : "unknown";
      if (job && (state === "waiting" || state === "delayed" || state === "prioritized" || state === "waiting-children")) {
        const removed = await job.remove().then(
          () => true,
          () => false,
        );
        if (removed) return entry.settle({ status: "cancelled", text: "cancelled before it started", turns: 0, usage: {} });
      }
      const message: CancelMessage = { keys: [key], reason };
      await this.relay.publish(CANCEL_TOPIC, message);
    } catch {
      // The store is away: the wait below ends the task for the parent.
    }
    const timer = setTimeout(() => entry.settle({ status: "cancelled", text: `cancelled; its worker did not confirm within ${CANCEL_WAIT_MS / 1000} s that it stopped`, turns: 0, usage: {} }), CANCEL_WAIT_MS);
    timer.unref();
    void this.look(key);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poller);
    for (const entry of [...this.waiting.values()]) entry.settle({ status: "cancelled", text: "cancelled: bosun stopped", turns: 0, usage: {} });
    await Promise.allSettled([this.relay.close(), this.events.close(), this.queue.close()]);
    await this.store.close();
  }
}

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ModelMessage } from "ai";
import { UnrecoverableError, WaitingError, type Job } from "bullmq";
import type { ApprovalReply, ApprovalRequest, Approver } from "../../agent/approval/approval.js";
import type { AgentEvent } from "../../agent/events.js";
import { runWorkerTask } from "../../agent/subagents/subagent.js";
import { resumesWhenPickedUpAgain, type TaskEnd } from "../../agent/subagents/runner.js";
import { describeError } from "../../kernel/errors.js";
import { packageVersion } from "../../kernel/package-info.js";
import type { ModelSource } from "../../llm/model-source.js";
import type { Boot } from "../start.js";
import { BEAT_MS, relayLeaseMs, workerOptions, workerTimings } from "./job-options.js";
import { storeAddress, StoreAddressError } from "./store-address.js";
import { openStore } from "./open-store.js";
import { type QueueStore, type StoreRelay, type StoreWorker, type WorkerBeat } from "./store.js";
import { readTaskJob, type TaskJob } from "./task-job.js";
import { ANSWER_TOPIC, CANCEL_TOPIC, parentTopic, RELAY_NAME, type AnswerMessage, type CancelMessage, type WorkerMessage } from "./task-messages.js";
import { workerAgent, WorkerRefusal, type WorkerAgent } from "./worker-agent.js";

/** How long a question of a task waits for the parent's answer before it counts as declined. */
const ANSWER_WAIT_MS = 10 * 60_000;

/** How long a cancel for a task that is not running here is remembered (it may be about to start). */
const CANCEL_MEMORY_MS = 60_000;

/** Text deltas go to the parent together, at most this often. */
const TEXT_FLUSH_MS = 50;

export interface WorkerRequest {
  concurrency: number;
  /** `--queue NAME`: this queue instead of `subagents.queue`. */
  queue?: string;
}

export interface WorkerIo {
  /** A line for the worker's operator (stderr). */
  say(line: string): void;
  /** Called once the worker takes tasks. */
  ready?(info: { id: string; where: string; version: string }): void;
  /** Aborted: stop taking tasks and finish the running ones. */
  drain: AbortSignal;
  /** Aborted (after `drain`): hand the running tasks back to the queue now, for another worker. */
  handBack: AbortSignal;
}

/** Why a running task's copy stops before its end. */
type StopWhy = "cancel" | "lost-lock" | "hand-back" | "parent-gone";

/** A task's checkpoint as kept in the store. */
interface Checkpoint {
  turns: number;
  usage: { inputTokens: number; outputTokens: number };
  messages: ModelMessage[];
}

/** What a worker keeps while it runs. */
interface WorkerState {
  id: string;
  boot: Boot;
  source: ModelSource;
  store: QueueStore;
  relay: StoreRelay;
  io: WorkerIo;
  /** The tasks running here by key, and how to stop each. */
  running: Map<string, (why: StopWhy, message: string) => void>;
  /** Cancels heard for tasks not running here, until when they count. */
  cancelled: Map<string, number>;
  /** Questions waiting for the parent's answer, by `<key>/<question id>`. */
  answers: Map<string, (reply: ApprovalReply) => void>;
  /** The parent of each running task: its relay node, and since when it has not been listed alive. */
  parents: Map<string, { node: string; missingSince: number | null }>;
  /** Whether a look at the parents is under way (a slow store must not pile them up). */
  watching: boolean;
}

/**
 * `bosun worker`: takes sub-agent tasks from the queue of `bosun.json` `subagents` and runs
 * each as a local sub-agent would run (the same loop, tools, sandbox and approval rules; its
 * questions go to the parent), up to `concurrency` at once. Each task's conversation is kept in
 * the store after every turn, so a task picked up again (its worker died) goes on from there.
 * A copy whose lock was lost (its worker froze, another took the task) is stopped at once. On
 * `drain` it takes no new task and finishes its running ones; on `handBack` it puts them back.
 */
export async function runQueueWorker(boot: Boot, source: ModelSource, request: WorkerRequest, io: WorkerIo): Promise<void> {
  const address = storeAddress(boot.config?.value.subagents, boot.env, request.queue);
  if (!address) throw new StoreAddressError('bosun worker takes tasks from a queue: set subagents.backend to "redis" or "postgres" and subagents.url in bosun.json');
  const timings = workerTimings(boot.env);
  const leaseMs = relayLeaseMs(boot.env);
  const store = await openStore(address);
  const relay = store.relay(RELAY_NAME, leaseMs);
  relay.on("error", () => undefined);
  const state: WorkerState = {
    id: `${hostname()}-${process.pid}-${randomBytes(2).toString("hex")}`,
    boot,
    source,
    store,
    relay,
    io,
    running: new Map(),
    cancelled: new Map(),
    answers: new Map(),
    parents: new Map(),
    watching: false,
  };
  try {
    await relay.waitUntilReady();
    await relay.subscribe<CancelMessage>(CANCEL_TOPIC, ({ data }) => {
      for (const key of data.keys) {
        const stop = state.running.get(key);
        if (stop) stop("cancel", data.reason);
        else state.cancelled.set(key, Date.now() + CANCEL_MEMORY_MS);
      }
    });
    await relay.subscribe<AnswerMessage>(ANSWER_TOPIC, ({ data }) => state.answers.get(`${data.key}/${data.id}`)?.(data.reply));
  } catch (error) {
    await relay.close().catch(() => undefined);
    await store.close();
    throw error;
  }
  const started = Date.now();
  let draining = false;
  const beat = () => {
    const info: WorkerBeat = { id: state.id, host: hostname(), pid: process.pid, queue: address.queue, concurrency: request.concurrency, bosun: packageVersion(), startedAt: started, seenAt: Date.now(), running: [...state.running.keys()], state: draining ? "draining" : "running" };
    return store.beat(info).catch(() => undefined);
  };
  const worker: StoreWorker = store.worker(address.queue, (job, token, signal) => processJob(state, job, token, signal, beat), workerOptions(timings, request.concurrency, state.id));
  // A lock that could not be renewed belongs to another worker now (this one froze or lost the store): stop those copies.
  worker.on("lockRenewalFailed", (ids: string[]) => {
    for (const key of ids) {
      state.running.get(key)?.("lost-lock", "this worker lost the task's lock");
      worker.cancelJob(key, "lost its lock");
    }
  });
  let lastError = "";
  worker.on("error", (error: Error) => {
    const line = describeError(error);
    if (line !== lastError) io.say(`the queue: ${line}`);
    lastError = line;
  });
  await worker.waitUntilReady();
  await beat();
  const beats = setInterval(() => {
    void beat();
    void watchParents(state, leaseMs);
  }, BEAT_MS);
  io.ready?.({ id: state.id, where: `${address.shown} (queue ${address.queue})`, version: store.version });
  try {
    await new Promise<void>((resolve) => {
      if (io.drain.aborted) resolve();
      io.drain.addEventListener("abort", () => resolve(), { once: true });
    });
    draining = true;
    void beat();
    const handBack = () => {
      for (const stop of state.running.values()) stop("hand-back", "this worker is shutting down");
    };
    if (io.handBack.aborted) handBack();
    io.handBack.addEventListener("abort", handBack, { once: true });
    // Waits for the running tasks: finished, or handed back.
    await worker.close();
  } finally {
    clearInterval(beats);
    await store.leave(state.id).catch(() => undefined);
    await relay.close().catch(() => undefined);
    await store.close();
  }
}

/**
 * Stops the running tasks whose parent run is gone: not listed alive in the relay (its lease ran
 * out: it was killed, or lost the store) for a whole lease more. A parent that only missed a
 * heartbeat comes back within that; one that is gone would never read the answers.
 */
async function watchParents(state: WorkerState, leaseMs: number): Promise<void> {
  if (state.parents.size === 0 || state.watching) return;
  state.watching = true;
  try {
    const nodes = await state.relay.getNodes().catch(() => null);
    if (!nodes) return; // the store is away for now: the task's lock decides what happens to it
    const now = Date.now();
    const alive = new Set(nodes.filter((node) => node.leaseUntil >= now).map((node) => node.id));
    for (const [key, parent] of state.parents) {
      if (alive.has(parent.node)) parent.missingSince = null;
      else if (parent.missingSince === null) parent.missingSince = now;
      else if (now - parent.missingSince >= leaseMs) state.running.get(key)?.("parent-gone", "its parent run is gone (the store has not heard from it); nobody would read its answer");
    }
  } finally {
    state.watching = false;
  }
}

/** One job: read, then run as a task (or refused with one line, not retried). */
async function processJob(state: WorkerState, job: Job, token: string | undefined, signal: AbortSignal | undefined, beat: () => Promise<void>): Promise<TaskEnd> {
  const key = job.id ?? "";
  let task: TaskJob;
  try {
    task = readTaskJob(key, job.data, packageVersion());
  } catch (error) {
    state.io.say(describeError(error));
    throw new UnrecoverableError(describeError(error));
  }
  const until = state.cancelled.get(key);
  if (until !== undefined && until > Date.now()) return { status: "cancelled", text: "cancelled before it started", turns: 0, usage: {} };
  const controller = new AbortController();
  let why: StopWhy | null = null;
  const stop = (reason: StopWhy, message: string) => {
    if (controller.signal.aborted) return;
    why = reason;
    controller.abort(new Error(message));
  };
  // BullMQ aborts it when the job is cancelled here, which bosun does only for a lost lock.
  signal?.addEventListener("abort", () => stop("lost-lock", "this worker lost the task's lock"), { once: true });
  state.running.set(key, stop);
  state.parents.set(key, { node: task.parentNode, missingSince: null });
  void beat();
  let agent: WorkerAgent | null = null;
  const began = Date.now();
  const label = `task ${key} (sub-agent #${task.order.ref.seq})`;
  try {
    const end = await runTask(state, job, task, controller.signal, (opened) => (agent = opened), stop, (line) => state.io.say(`${label}: ${line}`));
    const took = `${((Date.now() - began) / 1000).toFixed(1)} s`;
    if (why === "lost-lock") {
      state.io.say(`${label}: this worker lost its lock (another worker runs it now); its copy stopped after ${took}`);
      throw new Error(`worker ${state.id} lost the lock of task ${key}; its copy stopped (another worker runs the task)`);
    }
    const turns = `${end.turns} turn${end.turns === 1 ? "" : "s"}`;
    state.io.say(
      why === "hand-back"
        ? `${label}: handed back to the queue after ${took}`
        : why === "parent-gone"
          ? `${label}: stopped after ${took} (${turns}): its parent run is gone, nobody would read its answer`
          : `${label}: ${end.status} in ${took} (${turns})`,
    );
    if (why === "hand-back" && token) {
      await job.moveToWait(token);
      throw new WaitingError();
    }
    return end;
  } catch (error) {
    if (error instanceof WaitingError) throw error;
    if (error instanceof WorkerRefusal) {
      state.io.say(`task ${key}: ${error.message}`);
      throw new UnrecoverableError(error.message);
    }
    throw error;
  } finally {
    state.running.delete(key);
    state.parents.delete(key);
    await (agent as WorkerAgent | null)?.close();
    void beat();
  }
}

/**
 * Runs a task's agent: from its checkpoint when it was picked up again, from the conversation it
 * continues (`continueFrom`), or afresh; its events and questions go to the parent, its
 * conversation to the store after each turn (a write refused because a later pickup wrote first
 * stops this copy).
 */
async function runTask(state: WorkerState, job: Job, task: TaskJob, signal: AbortSignal, opened: (agent: WorkerAgent) => void, stop: (why: StopWhy, message: string) => void, say: (line: string) => void): Promise<TaskEnd> {
  const { order } = task;
  const key = order.key;
  const attempt = job.attemptsStarted;
  const stored = await readCheckpoint(state.store, key);
  if (stored && stored.attempt > attempt) throw new Error(`task ${key} was picked up again after this copy started (pickup ${stored.attempt})`);
  const resumes = resumesWhenPickedUpAgain(order.spec);
  const checkpoint = resumes ? stored : null;
  const over = resumes
    ? "no turn had finished, it starts over"
    : order.spec.agent === "bosun"
      ? "it starts over in a new worktree (what it changed is in its last one)"
      : "it starts over (an agent CLI cannot go on from a turn)";
  say(checkpoint ? `picked up again (pickup ${attempt}); it goes on after turn ${checkpoint.data.turns}` : attempt === 1 ? "started" : `picked up again (pickup ${attempt}); ${over}`);
  const continued = order.continueFrom ? await readCheckpoint(state.store, order.continueFrom) : null;
  if (order.continueFrom && !continued) return { status: "failed", text: `its conversation (task ${order.continueFrom}) is no longer in the store; start a new task`, turns: 0, usage: {} };
  const topic = parentTopic(task.parentNode);
  const send = (message: WorkerMessage) => void state.relay.publish(topic, message).catch(() => undefined);
  let redact = <T>(value: T): T => value;
  const approver: Approver = (request, wait) => askParent(state, key, attempt, redact(request), send, wait);
  const agent = await workerAgent(state.boot, state.source, order, approver, { onEvent: () => undefined }, signal);
  opened(agent);
  redact = (value) => agent.redactor.deep(value);
  const events = eventSender(send, key, attempt, state.id);
  try {
    const end = await runWorkerTask(agent.options, agent.setup, {
      order,
      signal,
      onEvent: (event) => events.add(redact(event)),
      resume: checkpoint ? checkpoint.data : null,
      pickup: attempt,
      continued: continued?.data.messages ?? null,
      checkpoint: async (messages, turns, usage) => {
        const body = JSON.stringify({ turns, usage, messages } satisfies Checkpoint);
        const kept = await state.store.saveCheckpoint(key, { attempt, body }).catch(() => true);
        if (!kept) stop("lost-lock", "another worker has taken this task over");
      },
    });
    return redact(end);
  } finally {
    events.flush();
  }
}

/** Asks the parent a question and waits for its answer (declined when none comes in time or the task stops). */
function askParent(state: WorkerState, key: string, attempt: number, request: ApprovalRequest, send: (message: WorkerMessage) => void, wait: AbortSignal): Promise<ApprovalReply> {
  const id = randomBytes(4).toString("hex");
  return new Promise<ApprovalReply>((resolve) => {
    const done = (answer: ApprovalReply) => {
      state.answers.delete(`${key}/${id}`);
      clearTimeout(timer);
      wait.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const onAbort = () => done("deny");
    const timer = setTimeout(() => done("deny"), ANSWER_WAIT_MS);
    timer.unref();
    wait.addEventListener("abort", onAbort, { once: true });
    state.answers.set(`${key}/${id}`, done);
    send({ type: "ask", key, attempt, id, request });
  });
}

/** A checkpoint from the store, read; one that cannot be read counts as none. */
async function readCheckpoint(store: QueueStore, key: string): Promise<{ attempt: number; data: Checkpoint } | null> {
  const stored = await store.loadCheckpoint(key);
  if (!stored) return null;
  try {
    const data = JSON.parse(stored.body) as Checkpoint;
    return Array.isArray(data.messages) && typeof data.turns === "number" ? { attempt: stored.attempt, data } : null;
  } catch {
    return null;
  }
}

/**
 * Sends a task's events to its parent in order: each as it comes, except text deltas, which are
 * joined and sent at most every `TEXT_FLUSH_MS` (or before the next other event).
 */
function eventSender(send: (message: WorkerMessage) => void, key: string, attempt: number, worker: string): { add(event: AgentEvent): void; flush(): void } {
  let text = "";
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (text === "") return;
    send({ type: "event", key, attempt, worker, event: { type: "text", delta: text } });
    text = "";
  };
  return {
    add(event) {
      if (event.type === "text") {
        text += event.delta;
        timer ??= setTimeout(flush, TEXT_FLUSH_MS);
        return;
      }
      flush();
      send({ type: "event", key, attempt, worker, event });
    },
    flush,
  };
}

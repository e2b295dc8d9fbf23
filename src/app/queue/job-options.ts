import type { JobsOptions, WorkerOptions } from "bullmq";
import { UserError } from "../../kernel/errors.js";
import type { Env } from "../../kernel/paths.js";

/** How often a worker tells the store it is alive and what it runs (`bosun queue` lists those seen within 3 beats). */
export const BEAT_MS = 2_000;

/** How long finished tasks stay in the store (for `bosun queue` and `session_id` continuations): a week, at most 10,000. */
const KEEP = { age: 7 * 24 * 3600, count: 10_000 };

/**
 * A task job's options. At-least-once made safe: 3 attempts for real errors (a refusal, a
 * cancel or a job bosun cannot read is not retried), a second after each; a stall (its worker
 * died) does not use an attempt, see `workerTimings`.
 */
export function taskJobOptions(): JobsOptions {
  return { attempts: 3, backoff: { type: "fixed", delay: 1_000 }, removeOnComplete: KEEP, removeOnFail: KEEP };
}

/** The lock and stall timings of a worker, in ms. */
export interface WorkerTimings {
  /** How long a job's lock lasts without renewal (renewed at half of it while the task runs). */
  lockMs: number;
  /** How often workers look for jobs whose worker stopped renewing their lock. */
  stalledMs: number;
  /** How many times a task may be picked up again after its worker died before it fails. */
  maxStalled: number;
}

/**
 * BullMQ's lock of 30 s, looked at every 15 s, and 3 stalls allowed, so that a worker preempted
 * twice does not fail a task that could still succeed. `BOSUN_WORKER_LOCK_MS` and
 * `BOSUN_WORKER_STALLED_MS` shorten them (tests, a fleet that wants a dead worker's task back sooner).
 */
export function workerTimings(env: Env): WorkerTimings {
  const lockMs = readMs(env, "BOSUN_WORKER_LOCK_MS", 30_000, 500);
  return { lockMs, stalledMs: readMs(env, "BOSUN_WORKER_STALLED_MS", Math.min(15_000, lockMs), 250), maxStalled: 3 };
}

/**
 * How long a bosun process (a parent run, a worker) stays listed in the store's relay without
 * telling it it is alive (it does so every third of that): BullMQ's 30 s. A worker stops a task
 * whose parent has not been listed for that long again (the parent was killed, or lost the store):
 * nobody would read its answer. `BOSUN_RELAY_LEASE_MS` shortens it (tests).
 */
export function relayLeaseMs(env: Env): number {
  return readMs(env, "BOSUN_RELAY_LEASE_MS", 30_000, 500);
}

/** A duration in ms from the environment variable `name`: `fallback` when unset; one line naming it when it is not a whole number of at least `min`. */
function readMs(env: Env, name: string, fallback: number, min: number): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < min) throw new UserError(`${name}=${JSON.stringify(value)}: use a whole number of milliseconds, ${min} or more`);
  return ms;
}

/** BullMQ's worker options for these timings. */
export function workerOptions(timings: WorkerTimings, concurrency: number, name: string): Omit<WorkerOptions, "connection"> {
  return { concurrency, lockDuration: timings.lockMs, stalledInterval: timings.stalledMs, maxStalledCount: timings.maxStalled, name, autorun: true };
}

import type { Processor, Queue, QueueEvents, Relay, Worker, WorkerOptions } from "bullmq";
import { UserError } from "../../kernel/errors.js";
import type { StoreAddress } from "./store-address.js";

/** The store cannot be used: unreachable, refused bosun's credentials, too old. One line naming it. */
export class StoreError extends UserError {
  override name = "StoreError";
}

/** A task's checkpoint: its conversation after its last finished turn, and which pickup wrote it. */
export interface StoredCheckpoint {
  attempt: number;
  body: string;
}

/** What a worker tells the store every few seconds: who it is and what it runs. */
export interface WorkerBeat {
  id: string;
  host: string;
  pid: number;
  queue: string;
  concurrency: number;
  bosun: string;
  startedAt: number;
  seenAt: number;
  /** The task keys it runs now. */
  running: string[];
  /** "running", or "draining" once it was asked to stop (it takes no new task). */
  state: "running" | "draining";
}

/**
 * BullMQ's classes as bosun uses them on either backend. They are generic over the backend and
 * its connection type; bosun calls only what both backends have, so the PostgreSQL store hands
 * its objects out under the default (Redis) types.
 */
export type StoreQueue = Queue;
export type StoreWorker = Worker;
export type StoreEvents = QueueEvents;
export type StoreRelay = Relay;

/**
 * A queue's store (Redis or PostgreSQL), checked and open: BullMQ's queue, workers, events and
 * relay on it, and what bosun keeps beside BullMQ's own data (checkpoints, the workers' beats).
 */
export interface QueueStore {
  readonly address: StoreAddress;
  /** The server's version, as it reports it. */
  readonly version: string;
  queue(name: string): StoreQueue;
  worker(name: string, processor: Processor, options: Omit<WorkerOptions, "connection">): StoreWorker;
  events(name: string): StoreEvents;
  /** The relay `name` of this queue; this process stays listed there `leaseMs` without a heartbeat. */
  relay(name: string, leaseMs: number): StoreRelay;
  /** Keeps a checkpoint unless a later pickup of the task already wrote one: false then (this copy is stale). */
  saveCheckpoint(key: string, checkpoint: StoredCheckpoint): Promise<boolean>;
  loadCheckpoint(key: string): Promise<StoredCheckpoint | null>;
  beat(worker: WorkerBeat): Promise<void>;
  /** The workers seen lately (their last beat within `withinMs`); older beats are forgotten. */
  workers(withinMs: number): Promise<WorkerBeat[]>;
  leave(id: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a checkpoint (and a finished task's record) stays for `session_id` continuations: a week. */
export const CHECKPOINT_TTL_MS = 7 * 24 * 3600 * 1000;

/** The line for a failure to reach or use a store, from the driver's error. */
export function storeProblem(address: StoreAddress, error: unknown): string {
  const name = address.backend === "redis" ? "Redis" : "PostgreSQL";
  const where = `the ${name} store at ${address.shown}`;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ECONNREFUSED" || /ECONNREFUSED/.test(message)) return `cannot reach ${where}: connection refused (is the server running, on that port?)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot reach ${where}: its host name does not resolve`;
  if (code === "ETIMEDOUT" || /timed? ?out/i.test(message)) return `cannot reach ${where}: no answer in time`;
  if (/WRONGPASS|NOAUTH|invalid password|password authentication failed|no password was provided|AUTH/i.test(message) && address.backend === "redis") return `${where} refused bosun's credentials (${firstLine(message)}): check the user and password in subagents.url`;
  if (code === "28P01" || code === "28000" || /password authentication failed|role .* does not exist|no pg_hba.conf entry/i.test(message)) return `${where} refused bosun's credentials (${firstLine(message)}): check the user and password in subagents.url`;
  if (code === "3D000") return `${where}: ${firstLine(message)}; create it or name another database in subagents.url`;
  return `${where} failed: ${firstLine(message)}`;
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

/** A worker's beat as the store keeps it (JSON), or null when it is not one. */
export function parseWorkerBeat(text: string): WorkerBeat | null {
  try {
    const beat = JSON.parse(text) as WorkerBeat;
    return typeof beat.id === "string" && typeof beat.seenAt === "number" && Array.isArray(beat.running) ? beat : null;
  } catch {
    return null;
  }
}

import { z } from "zod";
import type { TaskEnd, TaskOrder } from "../../agent/subagents/runner.js";

/**
 * The format of a task job's data. A worker refuses a job of a newer format (made by a newer
 * bosun) with a line that says to update it, instead of misreading it.
 */
export const TASK_JOB_FORMAT = 1;

/** A sub-agent task as it travels through the queue. */
export interface TaskJob {
  format: number;
  /** The bosun version of the parent that queued it. */
  bosun: string;
  /** The parent's relay node: where the task's events and questions go. */
  parentNode: string;
  order: TaskOrder;
}

/** A job bosun cannot run: garbled, not a bosun task, or of a newer format. One line naming it. */
export class TaskJobError extends Error {
  override name = "TaskJobError";
}

const tokenUsage = z.object({ inputTokens: z.number().optional(), outputTokens: z.number().optional() }).passthrough();

const orderSchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]+$/),
  ref: z.object({ id: z.string(), seq: z.number().int(), depth: z.number().int().min(1), task: z.number().int().min(1), tasks: z.number().int().min(1), parent: z.string().optional(), kind: z.string().optional() }),
  spec: z.object({ prompt: z.string(), agent: z.string(), isolation: z.enum(["worktree", "none"]).nullable(), carryChanges: z.boolean() }),
  caps: z.object({ turns: z.number().optional(), tokens: z.number().optional(), seconds: z.number().optional(), costUsd: z.number().optional() }),
  continueFrom: z.string().nullable(),
  parent: z.object({
    session: z.string(),
    callId: z.string(),
    model: z.object({ providerID: z.string(), modelID: z.string() }),
    mode: z.enum(["ask", "auto-edit", "full-access"]),
    rules: z.record(z.string(), z.unknown()),
    grants: z.array(z.string()),
    workdir: z.string().startsWith("/"),
    sandbox: z.object({ mode: z.string(), network: z.enum(["on", "off"]), writable: z.array(z.string()) }).nullable(),
    maxTurns: z.number().int().positive().nullable(),
    systemPrompt: z.string().nullable(),
    maxDepth: z.number().int().min(0),
  }),
});

const jobSchema = z.object({ format: z.number().int(), bosun: z.string(), parentNode: z.string().min(1), order: orderSchema });

/**
 * Reads a job's data: a task this worker can run, or a `TaskJobError` naming the job and what is
 * wrong (its format first: a newer bosun's job is not read further).
 */
export function readTaskJob(jobId: string, data: unknown, workerVersion: string): TaskJob {
  const format = (data as { format?: unknown } | null)?.format;
  if (typeof format === "number" && format > TASK_JOB_FORMAT) {
    const by = (data as { bosun?: unknown }).bosun;
    throw new TaskJobError(`job ${jobId} was queued by bosun ${typeof by === "string" ? by : "(a newer one)"} in task format ${format}; this worker runs bosun ${workerVersion}, which reads format ${TASK_JOB_FORMAT}: update bosun on this worker`);
  }
  const parsed = jobSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "its data";
    throw new TaskJobError(`job ${jobId} is not a bosun task bosun can read (${where}: ${issue.message})`);
  }
  if (parsed.data.format !== TASK_JOB_FORMAT) throw new TaskJobError(`job ${jobId} has task format ${parsed.data.format}; this worker reads format ${TASK_JOB_FORMAT}`);
  if (parsed.data.order.key !== jobId) throw new TaskJobError(`job ${jobId} carries the task ${parsed.data.order.key}: its id and its task disagree`);
  return parsed.data as TaskJob;
}

const endSchema = z.object({
  status: z.enum(["completed", "failed", "cancelled", "stopped"]),
  text: z.string(),
  turns: z.number().int().min(0),
  usage: tokenUsage,
  costUsd: z.number().nullable().optional(),
  worktree: z.record(z.string(), z.unknown()).optional(),
});

/** A finished job's return value as the parent reads it; a garbled one is a failed task saying so. */
export function readTaskEnd(jobId: string, value: unknown): TaskEnd {
  return taskEndIn(value) ?? { status: "failed", text: `job ${jobId} ended with a result bosun cannot read`, turns: 0, usage: {} };
}

/** The task's end in a job's return value (an object, or its JSON), or null when there is none bosun can read. */
export function taskEndIn(value: unknown): TaskEnd | null {
  let data = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const parsed = endSchema.safeParse(data);
  return parsed.success ? (parsed.data as TaskEnd) : null;
}

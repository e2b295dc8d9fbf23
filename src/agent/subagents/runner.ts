import type { ApprovalMode, PermissionRules } from "../approval/approval-policy.js";
import type { ApprovalReply, ApprovalRequest } from "../approval/approval.js";
import type { AgentEvent, SubagentRef } from "../events.js";
import type { SubagentStatus, SubagentWorktree, TokenUsage } from "../session/format.js";
import type { AgentTask } from "../tools/agent.js";
import type { Caps } from "./limits.js";

/** Where sub-agent tasks run: in this process, or on `bosun worker`s through a queue in Redis or PostgreSQL. */
export type SubagentBackend = "local" | "redis" | "postgres";

export const SUBAGENT_BACKENDS: readonly SubagentBackend[] = ["local", "redis", "postgres"];

/**
 * What the parent's run is made of, as a task elsewhere needs it: plain data, so that it can
 * travel in a job. The worker holds its own provider keys and agent CLIs; it gets the model's
 * name, never a credential.
 */
export interface ParentContext {
  /** The top-level session: task worktrees and branches are named after it. */
  session: string;
  /** The `agent` call the task belongs to. */
  callId: string;
  model: { providerID: string; modelID: string };
  mode: ApprovalMode;
  /** The sub-agent's rules (dangerous calls never looser than "ask"). */
  rules: PermissionRules;
  /** What the user granted for the session so far. */
  grants: string[];
  workdir: string;
  /** The parent's sandbox as its sub-agents get it, or null when tools run without one. */
  sandbox: { mode: string; network: "on" | "off"; writable: string[] } | null;
  maxTurns: number | null;
  systemPrompt: string | null;
  /** `subagents.maxDepth`: nested sub-agents of a remote task run on its worker. */
  maxDepth: number;
}

/** One task as a runner gets it. */
export interface TaskOrder {
  /**
   * The idempotency key: the parent session, the tool call and the task's position. The same
   * fan-out handed over twice (a parent that crashed and came back) finds the same tasks.
   */
  key: string;
  ref: SubagentRef;
  spec: AgentTask;
  /** Its own caps (`subagents.limits` narrowed by the call's); the tree's are the parent's to hold. */
  caps: Caps;
  /** The key of the earlier task whose conversation this one continues (`session_id`), or null. */
  continueFrom: string | null;
  parent: ParentContext;
}

/** How a task ended, as the runner reports it. */
export interface TaskEnd {
  status: SubagentStatus;
  text: string;
  turns: number;
  usage: TokenUsage;
  costUsd?: number | null;
  worktree?: SubagentWorktree;
}

/** What a runner reports to while a task runs, and what stops it. */
export interface TaskIo {
  /** Aborted: the task is cancelled (Ctrl-C, a cap, the dashboard): it ends as soon as it can. */
  signal: AbortSignal;
  /** The task's own events (turns, tool calls, text), as a sub-agent in this process reports them. */
  onEvent(event: AgentEvent): void;
  /** A question its approval rules say must be asked: the parent asks its user and answers. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply>;
}

/**
 * Runs sub-agent tasks somewhere else than the parent's loop: the `agent` tool hands every task
 * of a call to one (fan out), reads its events as they come (progress), aborts a task's signal
 * to cancel it (the tree: every task's at once), and gets one end per task (results). It never
 * throws for a task's own failure: that is an end with status "failed".
 */
export interface SubagentRunner {
  readonly backend: SubagentBackend;
  /** Where its tasks run, for the user: "this process", "redis://host:6379 (queue bosun)". */
  readonly where: string;
  run(order: TaskOrder, io: TaskIo): Promise<TaskEnd>;
}

/**
 * Whether a task picked up again (its worker died, froze or handed it back) goes on after its last
 * finished turn: only bosun's own agent working in the parent's folder. One in a worktree of its
 * own starts over in a new worktree (what it changed is in the last pickup's, kept on whichever
 * machine ran it), and an agent CLI cannot be resumed inside the CLI.
 */
export function resumesWhenPickedUpAgain(spec: AgentTask): boolean {
  return spec.agent === "bosun" && spec.isolation !== "worktree";
}

/** A task key: letters, digits, `-` and `_` only (BullMQ refuses `:` in job ids). */
export function taskKey(session: string, callId: string, task: number): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "-");
  return `s${clean(session)}_c${clean(callId)}_t${task}`;
}

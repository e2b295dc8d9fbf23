import type { ApprovalReply, ApprovalRequest } from "../../agent/approval/approval.js";
import type { AgentEvent } from "../../agent/events.js";

/**
 * What parents and workers tell each other through the store's relay, beside the jobs
 * themselves. A worker's messages name the pickup (`attempt`) they come from: once a task has
 * been picked up again, the parent no longer listens to the copy before.
 */
export type WorkerMessage =
  /** One of the task's events (a turn, a tool call, text), redacted with the worker's secrets. */
  | { type: "event"; key: string; attempt: number; worker: string; event: AgentEvent }
  /** A question the task's approval rules say must be asked: the parent asks its user and answers. */
  | { type: "ask"; key: string; attempt: number; id: string; request: ApprovalRequest };

/** The parent's answer to a question. */
export interface AnswerMessage {
  key: string;
  id: string;
  reply: ApprovalReply;
}

/** Stop these tasks where they run (the parent's tree cancel, or a cap reached). */
export interface CancelMessage {
  keys: string[];
  reason: string;
}

/** The relay all of a queue's parents and workers share. */
export const RELAY_NAME = "relay";

/** Where a worker's messages to the parent with relay node `node` go. */
export function parentTopic(node: string): string {
  return `parent.${node}`;
}

export const CANCEL_TOPIC = "cancel";
export const ANSWER_TOPIC = "answer";

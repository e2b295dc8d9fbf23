import { z } from "zod";
import type { ApprovalMode } from "../../agent/approval/approval-policy.js";
import type { ApprovalAnswer } from "../../agent/approval/approval.js";
import type { LiveSubagent } from "../../agent/subagents/live-tree.js";

/**
 * The control channel of a running `bosun run`: one JSON object per line over a unix socket of its
 * own (see run-records.ts). The run sends its whole state on connect and after every change
 * (a snapshot: a client that missed one loses nothing), and a reply to each command; a client (the
 * dashboard) answers approvals, cancels sub-agents, stops the run, and says how many pages it has
 * open (a run without a terminal asks its approvals there only while one is).
 */
export const RUN_CONTROL_VERSION = 1;

/** The turn a run is on (or last ran). */
export interface RunTurn {
  session: string;
  model: string;
  mode: ApprovalMode;
  workdir: string;
  startedAt: number;
  /** Set once the turn ended: why (`completed`, `aborted`, …, or `failed`), and when. */
  ended: { reason: string; at: number } | null;
}

/** An approval question the run waits on, as the terminal would ask it (already redacted). */
export interface PendingApproval {
  /** Unique within the run: what an answer names. */
  id: string;
  /** Which sub-agent asks (`sub-agent #3`), or null for the top-level agent. */
  agent: string | null;
  tool: string;
  description: string;
  preview: string | null;
  danger: string | null;
  escape: string | null;
  /** Other questions waiting behind it. */
  waiting: number;
  askedAt: number;
}

export interface RunControlState {
  version: typeof RUN_CONTROL_VERSION;
  pid: number;
  /** Whether the run has a terminal: its questions are asked there too, and the first answer counts. */
  terminal: boolean;
  turn: RunTurn | null;
  subagents: LiveSubagent[];
  approvals: PendingApproval[];
  /** Bumped on every event of the run: the session's transcript may have grown. */
  changes: number;
}

export type RunMessage = { type: "state"; state: RunControlState } | { type: "reply"; id: number; ok: boolean; message: string };

const answer = z.enum(["once", "session", "deny"]) satisfies z.ZodType<ApprovalAnswer>;
const id = z.number().int().nonnegative();

const command = z.discriminatedUnion("type", [
  z.object({ type: z.literal("pages"), id, count: z.number().int().nonnegative() }),
  z.object({ type: z.literal("answer"), id, approval: z.string().min(1).max(64), answer }),
  z.object({ type: z.literal("cancel"), id, agent: z.string().min(1).max(128) }),
  z.object({ type: z.literal("cancel-all"), id }),
  z.object({ type: z.literal("stop"), id }),
]);

/** What a client asks of a run; `id` numbers its reply. */
export type RunCommand = z.infer<typeof command>;

/** Longest line either side accepts: a state with 16 × 5 sub-agents and their prompts fits many times over. */
export const MAX_LINE = 4 * 1024 * 1024;

/** A command line from a client, or a one-line reason it is not one. Pure. */
export function parseRunCommand(line: string): RunCommand | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not a JSON line" };
  }
  const parsed = command.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return { error: `not a command: ${issue ? `${issue.path.join(".") || "type"}: ${issue.message}` : "unknown"}` };
}

/** A line from a run, or null when it is not one this bosun understands (another version's). Pure. */
export function parseRunMessage(line: string): RunMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const message = value as Partial<RunMessage> & { state?: { version?: unknown } };
  if (message.type === "state" && message.state?.version === RUN_CONTROL_VERSION) return message as RunMessage;
  if (message.type === "reply" && typeof (message as { id?: unknown }).id === "number") return message as RunMessage;
  return null;
}

/** Splits a byte stream into lines, at most MAX_LINE each (a longer one ends the stream with `onTooLong`). */
export function lineReader(onLine: (line: string) => void, onTooLong: () => void): (chunk: Buffer | string) => void {
  let buffered = "";
  return (chunk) => {
    buffered += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") onLine(line);
      newline = buffered.indexOf("\n");
    }
    if (buffered.length > MAX_LINE) {
      buffered = "";
      onTooLong();
    }
  };
}

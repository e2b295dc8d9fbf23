import type { ModelMessage } from "ai";
import { UserError } from "../../kernel/errors.js";
import type { InstructionRecord } from "../instructions.js";

/** The version in each session file's header; a newer one is refused, not misread. */
export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
  type: "header";
  version: number;
  id: string;
  createdAt: string;
  workdir: string;
  model: { providerID: string; modelID: string; name: string };
  bosun: string;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * One line of a session file after the header. Messages are AI SDK `ModelMessage`s as sent to
 * the model (plain JSON); the other events say what happened around them. Replaying the lines in
 * order rebuilds the conversation the model sees, compactions included.
 */
export type SessionEvent =
  | { type: "message"; at: string; message: ModelMessage; usage?: TokenUsage }
  /** `instructions`: the AGENTS.md files the run's system prompt held (absent when none). */
  | { type: "run"; at: string; phase: "start"; prompt: string; mode: string; model: string; instructions?: InstructionRecord[] }
  | { type: "run"; at: string; phase: "end"; reason: RunEndReason; turns: number; usage: TokenUsage; error?: string }
  | { type: "tool"; at: string; callId: string; tool: string; status: ToolStatus; summary?: string; ms: number; spill?: string }
  | { type: "grant"; at: string; key: string }
  | { type: "compaction"; at: string; step: "stub"; stubs: Record<string, string>; tokensBefore: number; tokensAfter: number }
  | { type: "compaction"; at: string; step: "summarize"; replaced: number; summary: string; tokensBefore: number; tokensAfter: number }
  | SubagentStartEvent
  | SubagentEndEvent;

/**
 * A sub-agent run started, at any depth of the tree: recorded in the top-level agent's session
 * (sub-agents' own sessions live in memory), so the file holds the whole tree. A run is `id` +
 * `run` (a continued session has runs 2, 3, …); `parent`/`parentRun` name the run that started it
 * (no `parentRun` when the parent is the top-level agent), `callId` the `agent` call.
 */
export interface SubagentStartEvent {
  type: "subagent";
  at: string;
  phase: "start";
  id: string;
  run: number;
  parent: string;
  parentRun?: number;
  callId: string;
  depth: number;
  task: number;
  tasks: number;
  prompt: string;
  continued: boolean;
  /** The user's agent CLI that ran it; absent for bosun's own sub-agents. */
  kind?: string;
}

/** A sub-agent's git worktree and what changed there against the commit it started from. */
export interface SubagentWorktree {
  path: string;
  branch: string;
  /** The commit it started from, and its branch's commit at the end. */
  base: string;
  head: string;
  /** Commits on its branch since `base`. */
  commits: number;
  /** Files changed against `base`: committed, uncommitted and new ones (repository-relative). */
  changedFiles: string[];
  diffStat: { files: number; insertions: number; deletions: number };
  /** Whether it left uncommitted changes. */
  dirty: boolean;
}

export interface SubagentEndEvent {
  type: "subagent";
  at: string;
  phase: "end";
  id: string;
  run: number;
  status: SubagentStatus;
  ms: number;
  turns: number;
  usage: TokenUsage;
  error?: string;
  /** USD, when known (see the `subagent-end` event). */
  costUsd?: number | null;
  worktree?: SubagentWorktree;
}

export type RunEndReason = "final" | "turn-limit" | "aborted" | "error";
export type ToolStatus = "ok" | "error" | "denied" | "vetoed" | "aborted";
/**
 * `completed`: a final answer; `failed`: an error, or no final answer; `cancelled`: the run was
 * aborted; `stopped`: a cap (turns, tokens, time, cost) ended it, its work kept.
 */
export type SubagentStatus = "completed" | "failed" | "cancelled" | "stopped";

/** An event as a caller gives it: the time is added when it is written. */
export type NewSessionEvent = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, "at"> : never) : never;

/** The conversation state that the lines of a session add up to. */
export interface SessionState {
  /** The messages the model sees next, with compactions applied. */
  messages: ModelMessage[];
  /** "Always for this session" approvals. */
  grants: Set<string>;
  /** The usage reported with the last model reply, and how many messages the context had then. */
  lastUsage: { usage: TokenUsage; messageCount: number } | null;
}

export class SessionFileError extends UserError {
  override name = "SessionFileError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${problem}`);
  }
}

export function emptySessionState(): SessionState {
  return { messages: [], grants: new Set(), lastUsage: null };
}

/** Applies one event to the state (the same function serves live runs and loading). */
export function applySessionEvent(state: SessionState, event: SessionEvent): void {
  switch (event.type) {
    case "message":
      state.messages.push(event.message);
      if (event.message.role === "assistant" && event.usage && (event.usage.inputTokens ?? 0) > 0) {
        state.lastUsage = { usage: event.usage, messageCount: state.messages.length };
      }
      return;
    case "grant":
      state.grants.add(event.key);
      return;
    case "compaction":
      if (event.step === "stub") state.messages = stubToolOutputs(state.messages, event.stubs);
      else state.messages = [summaryMessage(event.summary), ...state.messages.slice(event.replaced)];
      state.lastUsage = null;
      return;
    default:
      return;
  }
}

/** The message that stands for the turns a summary replaced. */
export function summaryMessage(summary: string): ModelMessage {
  return { role: "user", content: `[Summary of the earlier part of this conversation, written to save context]\n\n${summary}` };
}

/** The tool results named in `stubs` with their output replaced by the stub text. */
export function stubToolOutputs(messages: ModelMessage[], stubs: Record<string, string>): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== "tool") return message;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== "tool-result" || !(part.toolCallId in stubs)) return part;
      changed = true;
      return { ...part, output: { type: "text" as const, value: stubs[part.toolCallId]! } };
    });
    return changed ? { ...message, content } : message;
  });
}

export interface ParsedSession {
  header: SessionHeader;
  events: SessionEvent[];
  /** Byte length of the complete lines; a torn last line after it is ignored. */
  validBytes: number;
  /** True when the last line was cut short (a crash during a write) and was ignored. */
  tornTail: boolean;
}

/**
 * Parses a session file. A last line that is not complete JSON is the trace of a crash during a
 * write and is ignored; a bad line anywhere else means the file was damaged, and is an error
 * naming the line.
 */
export function parseSessionFile(file: string, text: string): ParsedSession {
  const lines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) lines.pop();
  let header: SessionHeader | null = null;
  const events: SessionEvent[] = [];
  let validBytes = 0;
  let tornTail = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const last = i === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last && !endsWithNewline) {
        tornTail = true;
        break;
      }
      if (line.trim() === "") {
        validBytes += Buffer.byteLength(line) + 1;
        continue;
      }
      throw new SessionFileError(file, i + 1, "is not valid JSON; the session file is damaged");
    }
    // A complete last line that only lost its newline is kept.
    validBytes += Buffer.byteLength(line) + (last && !endsWithNewline ? 0 : 1);
    if (i === 0) {
      header = readHeader(file, value);
      continue;
    }
    if (isEvent(value)) events.push(value);
  }
  if (!header) throw new SessionFileError(file, 1, "has no session header");
  return { header, events, validBytes, tornTail };
}

function readHeader(file: string, value: unknown): SessionHeader {
  const header = value as Partial<SessionHeader> | null;
  if (!header || header.type !== "header" || typeof header.id !== "string" || typeof header.version !== "number") {
    throw new SessionFileError(file, 1, "does not start with a session header");
  }
  if (header.version > SESSION_FORMAT_VERSION) {
    throw new SessionFileError(file, 1, `was written by a newer bosun (session format ${header.version}); upgrade bosun to open it`);
  }
  return header as SessionHeader;
}

const EVENT_TYPES = new Set(["message", "run", "tool", "grant", "compaction", "subagent"]);

/** Unknown event types (from a newer minor format) are skipped rather than refused. */
function isEvent(value: unknown): value is SessionEvent {
  return typeof value === "object" && value !== null && EVENT_TYPES.has((value as { type?: string }).type ?? "");
}

/** The state a list of events adds up to. */
export function replaySession(events: SessionEvent[]): SessionState {
  const state = emptySessionState();
  for (const event of events) applySessionEvent(state, event);
  return state;
}

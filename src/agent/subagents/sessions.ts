import type { AgentLanguageModel } from "../../llm/agent-language-model.js";
import type { Session } from "../session/store.js";
import { ToolError } from "../tools/tool.js";

/** How many sub-agent sessions a process keeps for continuation. */
export const SUBAGENT_SESSION_KEEP = 32;

/** The model a sub-agent was started with; a continuation keeps it. */
export interface SubagentModel {
  model: AgentLanguageModel;
  modelRef: { providerID: string; modelID: string };
  limits: { context: number; output: number };
  toolCalls: boolean;
}

export interface SubagentSessionEntry {
  readonly session: Session;
  readonly model: SubagentModel;
  /** True while a run of this session is in progress. */
  running: boolean;
  /** How many runs the session has had (1 for a new one; each continuation adds one). */
  runs: number;
}

/** `session_id` names no session this process still has. */
export class UnknownSubagentSessionError extends ToolError {
  override name = "UnknownSubagentSessionError";
  constructor(
    readonly id: string,
    keep: number,
  ) {
    super(
      `there is no sub-agent session ${JSON.stringify(id)} in this bosun process: sub-agent sessions last only as long as the process ` +
        `and only the ${keep} most recently used are kept. Start a new task instead, with a prompt that gives all the context it needs.`,
    );
  }
}

/** `session_id` names a session that is still running (a parallel task is using it). */
export class SubagentSessionBusyError extends ToolError {
  override name = "SubagentSessionBusyError";
  constructor(readonly id: string) {
    super(`sub-agent session ${id} is still running, so it cannot be continued now; wait for its result, or start a new task with a complete prompt.`);
  }
}

/**
 * The sub-agent sessions a process keeps so that the model can continue one (`session_id`): the
 * `keep` most recently used, in memory only. A running session is never evicted; when more than
 * `keep` run at once, the surplus is evicted as they finish.
 */
export class SubagentSessionCache {
  /** Least recently used first (a Map keeps insertion order; a use re-inserts). */
  private readonly entries = new Map<string, SubagentSessionEntry>();

  constructor(readonly keep: number = SUBAGENT_SESSION_KEEP) {}

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Keeps a new session, running. */
  add(session: Session, model: SubagentModel): SubagentSessionEntry {
    if (this.entries.has(session.id)) throw new Error(`sub-agent session ${session.id} is already kept`);
    const entry: SubagentSessionEntry = { session, model, running: true, runs: 1 };
    this.entries.set(session.id, entry);
    this.trim();
    return entry;
  }

  /** Takes a kept session to continue it: it becomes the most recently used, and running. */
  checkout(id: string): SubagentSessionEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new UnknownSubagentSessionError(id, this.keep);
    if (entry.running) throw new SubagentSessionBusyError(id);
    this.entries.delete(id);
    this.entries.set(id, entry);
    entry.running = true;
    entry.runs++;
    return entry;
  }

  /** A run of the session ended; it may now be continued (or evicted). */
  finish(entry: SubagentSessionEntry): void {
    entry.running = false;
    this.trim();
  }

  private trim(): void {
    if (this.entries.size <= this.keep) return;
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.keep) return;
      if (!entry.running) this.entries.delete(id);
    }
  }
}

let processSessions: SubagentSessionCache | null = null;

/**
 * The process's sub-agent sessions: the one process-wide registry bosun has (a continuation may
 * come from any later `agent` call in the process). Everything else is passed in.
 */
export function processSubagentSessions(): SubagentSessionCache {
  processSessions ??= new SubagentSessionCache();
  return processSessions;
}

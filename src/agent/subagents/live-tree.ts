import type { AgentEvent, SubagentRef } from "../events.js";
import type { SubagentStatus } from "../session/format.js";

/** One sub-agent run of a tree as a live view shows it. */
export interface LiveSubagent {
  /** Its session id. */
  id: string;
  /** Its number in the tree (1 for the first sub-agent started, …); a continued session runs again under a new one. */
  seq: number;
  /** The session id of the sub-agent that started it; null when the top-level agent did. */
  parent: string | null;
  depth: number;
  task: number;
  tasks: number;
  /** "bosun", or the user's agent CLI that runs it. */
  kind: string;
  /** The task's first line, at most 200 characters (redacted, as the events are). */
  prompt: string;
  status: "running" | SubagentStatus;
  /** Model calls started so far. */
  turns: number;
  tokens: { input: number; output: number };
  /** When it started (ms since the epoch), and how long it ran once it ended. */
  startedAt: number;
  ms: number | null;
  /** What it does now: the tool call that runs, or null. */
  activity: string | null;
  /** Why it failed or was cancelled. */
  error: string | null;
}

const PROMPT_CHARS = 200;

/**
 * A run's sub-agent tree, kept current from the events the run reports (every level's, as
 * `subagent-start`, `subagent-event` and `subagent-end`): each sub-agent's status, turns, tokens,
 * time and current tool call. Pure apart from the clock it is given.
 */
export class LiveSubagentTree {
  private readonly nodes = new Map<number, LiveSubagent>();

  constructor(private readonly now: () => number = Date.now) {}

  onEvent(event: AgentEvent): void {
    if (event.type === "subagent-start") {
      this.nodes.set(event.agent.seq, {
        id: event.agent.id,
        seq: event.agent.seq,
        parent: event.agent.parent ?? null,
        depth: event.agent.depth,
        task: event.agent.task,
        tasks: event.agent.tasks,
        kind: event.agent.kind ?? "bosun",
        prompt: firstLine(event.prompt),
        status: "running",
        turns: 0,
        tokens: { input: 0, output: 0 },
        startedAt: this.now(),
        ms: null,
        activity: null,
        error: null,
      });
    } else if (event.type === "subagent-event") {
      this.inner(event.agent, event.event);
    } else if (event.type === "subagent-end") {
      const node = this.nodes.get(event.agent.seq);
      if (!node) return;
      Object.assign(node, { status: event.status, ms: event.ms, turns: Math.max(node.turns, event.turns), activity: null, error: event.error ?? null });
    }
  }

  /** Every sub-agent run so far, in the order they started. */
  snapshot(): LiveSubagent[] {
    return [...this.nodes.values()].map((node) => ({ ...node, tokens: { ...node.tokens } }));
  }

  private inner(agent: SubagentRef, event: AgentEvent): void {
    const node = this.nodes.get(agent.seq);
    if (!node) return;
    if (event.type === "turn-start") node.turns = Math.max(node.turns, event.turn);
    else if (event.type === "reply-end" || event.type === "summary-end") {
      node.tokens.input += event.usage.inputTokens ?? 0;
      node.tokens.output += event.usage.outputTokens ?? 0;
    } else if (event.type === "tool-start") node.activity = `${event.tool}: ${firstLine(event.description)}`;
    else if (event.type === "tool-end") node.activity = null;
  }
}

function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > PROMPT_CHARS ? `${line.slice(0, PROMPT_CHARS - 1)}…` : line;
}

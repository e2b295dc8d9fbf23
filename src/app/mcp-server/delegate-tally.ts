import type { AgentEvent, SubagentRef } from "../../agent/events.js";
import type { SubagentStatus, TokenUsage } from "../../agent/session/format.js";
import type { ToolAccess } from "../../agent/tools/tool.js";

/** How one delegated task went: its sub-agent's status, session, turns and tokens, and its answer or why there is none. */
export interface DelegatedTask {
  /** 1-based, in the order the tasks were given. */
  task: number;
  prompt: string;
  status: SubagentStatus;
  /** The sub-agent's session: `session_id` continues it (while this server runs); null when it never started. */
  sessionId: string | null;
  turns: number;
  /** The task's own model calls (its nested sub-agents' count in the totals). */
  tokens: { input: number; output: number };
  ms: number;
  /** The final answer (completed), or why there is none. */
  answer?: string;
  error?: string;
}

/** A tool call a sub-agent made that was refused because it needed approval and nobody can approve a delegated task. */
export interface RefusedCall {
  /** The delegated task whose tree made it (null: a nested sub-agent's, which the tally does not trace back). */
  task: number | null;
  tool: string;
  access: ToolAccess;
  dangerous: boolean;
  sandbox: boolean;
  /** Where the tool's rule is set when that is not `permissions.<tool>` (an MCP tool's). */
  setting?: string;
}

interface Running {
  ref: SubagentRef;
  prompt: string;
  tokens: { input: number; output: number };
  lastText: string;
}

interface Ended extends Running {
  status: SubagentStatus;
  turns: number;
  ms: number;
  error?: string;
}

/**
 * What a delegate run adds up to, from the events its agent tree reports: per task (the first
 * level of sub-agents) its status, turns, tokens and final reply, and for the whole tree the
 * tokens, turns and sub-agent runs, and every call refused for want of an approver. Pure: fed
 * one event at a time.
 */
export class DelegateTally {
  readonly tokens = { input: 0, output: 0 };
  readonly refused: RefusedCall[] = [];
  /** Model calls of every sub-agent of the tree. */
  turns = 0;
  subagents = 0;
  private readonly running = new Map<string, Running>();
  private readonly ended: Ended[] = [];

  onEvent(event: AgentEvent): void {
    if (event.type === "subagent-start") {
      if (event.agent.depth === 1) this.running.set(key(event.agent), { ref: event.agent, prompt: event.prompt, tokens: { input: 0, output: 0 }, lastText: "" });
    } else if (event.type === "subagent-event") {
      this.inner(event.agent, event.event);
    } else if (event.type === "subagent-end") {
      this.turns += event.turns;
      this.subagents++;
      const entry = this.running.get(key(event.agent));
      if (!entry) return;
      this.running.delete(key(event.agent));
      this.ended.push({ ...entry, status: event.status, turns: event.turns, ms: event.ms, ...(event.error === undefined ? {} : { error: event.error }) });
    }
  }

  /**
   * The tasks of the call, in order: each as its sub-agent ended, with its final reply (through
   * `redact`) when it completed; a task that never started (cancelled while it waited) as such.
   */
  tasks(prompts: readonly string[], redact: (text: string) => string): DelegatedTask[] {
    return prompts.map((prompt, index) => {
      const task = index + 1;
      const ended = [...this.ended].reverse().find((entry) => entry.ref.task === task);
      if (!ended) return { task, prompt, status: "cancelled", sessionId: null, turns: 0, tokens: { input: 0, output: 0 }, ms: 0, error: "cancelled before it started" };
      const base = { task, prompt, status: ended.status, sessionId: ended.ref.id, turns: ended.turns, tokens: ended.tokens, ms: ended.ms };
      if (ended.status === "completed") return { ...base, answer: redact(ended.lastText.trim()) };
      return { ...base, error: ended.error ?? ended.status };
    });
  }

  private inner(agent: SubagentRef, event: AgentEvent): void {
    const entry = agent.depth === 1 ? this.running.get(key(agent)) : undefined;
    if (event.type === "reply-end" || event.type === "summary-end") {
      const usage = counted(event.usage);
      this.tokens.input += usage.input;
      this.tokens.output += usage.output;
      if (entry) {
        entry.tokens.input += usage.input;
        entry.tokens.output += usage.output;
        if (event.type === "reply-end") entry.lastText = event.text;
      }
    } else if (event.type === "tool-end" && event.unapproved) {
      this.refused.push({ task: entry ? agent.task : null, tool: event.tool, ...event.unapproved });
    } else if (event.type === "subagent-event") {
      this.inner(event.agent, event.event);
    }
  }
}

/** A sub-agent run: its session and its place in the tree (a continued session runs again under a new number). */
function key(agent: SubagentRef): string {
  return `${agent.id}#${agent.seq}`;
}

function counted(usage: TokenUsage): { input: number; output: number } {
  return { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 };
}

import type { SubagentStatus, SubagentWorktree, TokenUsage, ToolStatus } from "./session/format.js";
import type { ExternalKind } from "./subagents/kinds.js";
import type { ToolAccess, ToolUi } from "./tools/tool.js";

/** What the loop reports while it runs; the CLI turns these into stdout text and stderr progress. */
export type AgentEvent =
  | { type: "turn-start"; turn: number }
  | { type: "text"; delta: string }
  /** The model's reply for this turn is complete (`text` is all of it; `usage` as the provider reported it). */
  | { type: "reply-end"; text: string; usage: TokenUsage }
  | { type: "tool-start"; callId: string; tool: string; description: string }
  | {
      type: "tool-end";
      callId: string;
      tool: string;
      status: ToolStatus;
      summary: string;
      ms: number;
      /** The last lines of what the call printed (a command's output), redacted, for the user to see. */
      outputTail?: string[];
      /**
       * Set when the call was refused only because it needed approval and nobody could be asked;
       * `setting` names where its rule is set when that is not `permissions.<tool>` (an MCP tool's).
       */
      unapproved?: { access: ToolAccess; dangerous: boolean; sandbox: boolean; setting?: string };
    }
  | { type: "retry"; attempt: number; delayMs: number; reason: string; hadPartialReply: boolean }
  | { type: "compaction"; step: "stub" | "summarize"; tokensBefore: number; tokensAfter: number }
  /** One model call of a compaction summary ended (`usage` as the provider reported it; it counts in the run's tokens). */
  | { type: "summary-end"; usage: TokenUsage }
  | { type: "notice"; message: string }
  /** A sub-agent starts (a new task, or a continued session). */
  | { type: "subagent-start"; agent: SubagentRef; prompt: string; continued: boolean }
  /** Something a sub-agent (at any depth) reported, as it would for a top-level agent. */
  | { type: "subagent-event"; agent: SubagentRef; event: AgentEvent }
  | {
      type: "subagent-end";
      agent: SubagentRef;
      status: SubagentStatus;
      ms: number;
      turns: number;
      error?: string;
      /** Its tokens (its own model calls; its sub-agents report theirs). */
      usage?: TokenUsage;
      /** What it cost, when known: an external agent's as its CLI (or the catalog) prices it; bosun's from the catalog. */
      costUsd?: number | null;
      /** Its worktree and what changed there, when it ran in one. */
      worktree?: SubagentWorktree;
    };

/** Which sub-agent an event is about: its session id, its number in the tree, where it sits. */
export interface SubagentRef {
  id: string;
  /** 1 for the first sub-agent the tree started, 2 for the next, … (across all levels). */
  seq: number;
  depth: number;
  /** Its task's position in the `agent` call that started it (1-based), and how many tasks the call had. */
  task: number;
  tasks: number;
  /** The session id of the sub-agent that started it; absent when the top-level agent did. */
  parent?: string;
  /** The user's agent CLI that runs it; absent for bosun's own sub-agents. */
  kind?: ExternalKind;
}

/** The loop's way to the user: progress events plus the tools' questions and plan display. */
export interface AgentUi extends ToolUi {
  onEvent(event: AgentEvent): void;
}

export const silentUi: AgentUi = { onEvent: () => {} };

/** The same UI with its events passed through `onEvent` first (which forwards them, changed or not). */
export function interceptEvents(ui: AgentUi, onEvent: (event: AgentEvent, forward: (event: AgentEvent) => void) => void): AgentUi {
  return {
    ...(ui.askUser ? { askUser: ui.askUser.bind(ui) } : {}),
    ...(ui.showPlan ? { showPlan: ui.showPlan.bind(ui) } : {}),
    onEvent: (event) => onEvent(event, (forwarded) => ui.onEvent(forwarded)),
  };
}

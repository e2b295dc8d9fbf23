import { formatTokens } from "../../llm/token-count.js";
import type { SessionEvent, SubagentEndEvent, SubagentStartEvent } from "../session/format.js";
import { oneLine } from "../session/list.js";
import type { TranscriptStyle } from "../session/transcript-style.js";

interface SubagentRunNode {
  start: SubagentStartEvent;
  end: SubagentEndEvent | undefined;
}

/** The sub-agent runs a session recorded, findable by who started them. */
export interface SubagentIndex {
  /** Runs started by one `agent` call of the top-level agent. */
  fromCall(rootId: string, callId: string): SubagentRunNode[];
  /** Runs started by a sub-agent run (any of its `agent` calls). */
  fromRun(node: SubagentRunNode): SubagentRunNode[];
}

export function indexSubagents(events: readonly SessionEvent[]): SubagentIndex {
  const nodes: SubagentRunNode[] = [];
  const byRun = new Map<string, SubagentRunNode>();
  for (const event of events) {
    if (event.type !== "subagent") continue;
    if (event.phase === "start") {
      const node = { start: event, end: undefined };
      nodes.push(node);
      byRun.set(`${event.id}#${event.run}`, node);
    } else {
      const node = byRun.get(`${event.id}#${event.run}`);
      if (node) node.end = event;
    }
  }
  return {
    fromCall: (rootId, callId) => nodes.filter((node) => node.start.parent === rootId && node.start.parentRun === undefined && node.start.callId === callId),
    fromRun: (parent) => nodes.filter((node) => node.start.parent === parent.start.id && node.start.parentRun === parent.start.run),
  };
}

/**
 * The tree of sub-agents one `agent` call started, for `bosun sessions show`: one line per run
 * (status, session id, turns and time or why it failed, prompt), nested runs below their parent.
 */
export function subagentTreeLines(index: SubagentIndex, rootId: string, callId: string, style: TranscriptStyle, pad: string): string[] {
  const lines: string[] = [];
  const walk = (nodes: SubagentRunNode[], prefix: string) => {
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      lines.push(pad + style("dim", prefix + (last ? "└─ " : "├─ ")) + runLine(node, style));
      walk(index.fromRun(node), prefix + (last ? "   " : "│  "));
    });
  };
  const top = index.fromCall(rootId, callId);
  if (top.length === 0) return [];
  lines.push(pad + style("dim", "sub-agents:"));
  walk(top, "");
  return lines;
}

function runLine(node: SubagentRunNode, style: TranscriptStyle): string {
  const { start, end } = node;
  const task = start.tasks > 1 ? `${start.task}/${start.tasks} ` : "";
  const continued = start.continued ? ` (continued, run ${start.run})` : "";
  let mark: string;
  let outcome: string;
  if (!end) {
    mark = style("yellow", "…");
    outcome = "no end recorded (still running, or interrupted)";
  } else if (end.status === "completed") {
    mark = style("green", "✓");
    const tokens = (end.usage.inputTokens ?? 0) + (end.usage.outputTokens ?? 0) > 0 ? `, ${formatTokens(end.usage.inputTokens ?? 0)} in / ${formatTokens(end.usage.outputTokens ?? 0)} out tokens` : "";
    const cost = typeof end.costUsd === "number" ? `, $${end.costUsd.toFixed(4)}` : "";
    outcome = `${end.turns} turn${end.turns === 1 ? "" : "s"}, ${seconds(end.ms)}${tokens}${cost}`;
  } else {
    mark = end.status === "failed" ? style("red", "✗") : style("yellow", "⊘");
    outcome = `${end.status} after ${seconds(end.ms)}${end.error ? `: ${oneLine(end.error, 120)}` : ""}`;
  }
  const kind = start.kind ? `${start.kind} ` : "";
  const branch = end?.worktree ? ` · branch ${end.worktree.branch} (${end.worktree.diffStat.files} file${end.worktree.diffStat.files === 1 ? "" : "s"} changed)` : "";
  return `${mark} ${task}${kind}${start.id}${continued} · ${outcome}${branch} · ${oneLine(start.prompt, 80)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

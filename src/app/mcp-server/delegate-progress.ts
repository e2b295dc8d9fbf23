import type { AgentEvent, SubagentRef } from "../../agent/events.js";
import { oneLine } from "../../agent/session/list.js";

/**
 * The progress line an event of a delegate run is worth, or null: each task starting and ending,
 * each tool call its sub-agent makes (and how a failed or refused one ended), each model turn,
 * retries, compaction and notices. A task is named by its place in the call (`task 2/3`), a nested
 * sub-agent by its number in the tree (`#5`). Lines are for a person watching a long call; the
 * result carries the numbers.
 */
export function delegateProgressLine(event: AgentEvent): string | null {
  switch (event.type) {
    case "subagent-start":
      return `${tag(event.agent)} started${event.continued ? " (continued)" : ""}: ${oneLine(event.prompt, 120)}`;
    case "subagent-end": {
      const seconds = (event.ms / 1000).toFixed(1);
      const why = event.error ? `: ${oneLine(event.error, 160)}` : "";
      return `${tag(event.agent)} ${event.status} in ${seconds} s (${event.turns} turn${event.turns === 1 ? "" : "s"})${why}`;
    }
    case "subagent-event":
      return innerLine(event.agent, event.event);
    case "notice":
      return oneLine(event.message, 200);
    default:
      return null;
  }
}

function innerLine(agent: SubagentRef, event: AgentEvent): string | null {
  const who = tag(agent);
  switch (event.type) {
    case "turn-start":
      return `${who}: turn ${event.turn}`;
    case "tool-start":
      return `${who}: → ${oneLine(event.description, 160)}`;
    case "tool-end":
      return event.status === "ok" ? null : `${who}: ${event.tool} ${event.status}: ${oneLine(event.summary, 160)}`;
    case "retry":
      return `${who}: model call retried (attempt ${event.attempt}): ${oneLine(event.reason, 120)}`;
    case "compaction":
      return `${who}: context compacted (${event.step})`;
    case "notice":
      return `${who}: ${oneLine(event.message, 200)}`;
    default:
      // A nested sub-agent's start and end are reported by the tree itself, tagged with its own number.
      return null;
  }
}

function tag(agent: SubagentRef): string {
  return agent.depth === 1 ? `task ${agent.task}/${agent.tasks}` : `#${agent.seq}`;
}

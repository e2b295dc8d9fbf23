import { describe, expect, it } from "vitest";
import type { AgentEvent, SubagentRef } from "../../../src/agent/events.js";
import { delegateProgressLine } from "../../../src/app/mcp-server/delegate-progress.js";
import { refusalNote } from "../../../src/app/mcp-server/delegate-refusals.js";
import { DelegateTally, type RefusedCall } from "../../../src/app/mcp-server/delegate-tally.js";

const ref = (id: string, seq: number, task: number, tasks: number, depth = 1): SubagentRef => ({ id, seq, depth, task, tasks });
const inner = (agent: SubagentRef, event: AgentEvent): AgentEvent => ({ type: "subagent-event", agent, event });

/** Two tasks: the first answers after a refused command, the second fails; a nested sub-agent of the first counts in the totals only. */
function twoTasks(): AgentEvent[] {
  const one = ref("s1", 1, 1, 2);
  const two = ref("s2", 2, 2, 2);
  const nested = ref("s3", 3, 1, 1, 2);
  return [
    { type: "tool-start", callId: "c", tool: "agent", description: "agent: 2 tasks" },
    { type: "subagent-start", agent: one, prompt: "first", continued: false },
    { type: "subagent-start", agent: two, prompt: "second", continued: false },
    inner(one, { type: "turn-start", turn: 1 }),
    inner(one, { type: "reply-end", text: "Trying.", usage: { inputTokens: 100, outputTokens: 10 } }),
    inner(one, { type: "tool-start", callId: "b1", tool: "bash", description: "$ rm -rf build" }),
    inner(one, { type: "tool-end", callId: "b1", tool: "bash", status: "denied", summary: "denied: bash needs the user's approval", ms: 1, unapproved: { access: "execute", dangerous: true, sandbox: false } }),
    { type: "subagent-start", agent: nested, prompt: "deeper", continued: false },
    inner(nested, { type: "reply-end", text: "deep answer", usage: { inputTokens: 7, outputTokens: 3 } }),
    inner(nested, { type: "tool-end", callId: "e1", tool: "edit", status: "denied", summary: "denied", ms: 1, unapproved: { access: "edit", dangerous: false, sandbox: false } }),
    { type: "subagent-end", agent: nested, status: "completed", ms: 5, turns: 1 },
    inner(one, { type: "reply-end", text: "  Could not remove it.\n", usage: { inputTokens: 120, outputTokens: 12 } }),
    inner(two, { type: "reply-end", text: "", usage: {} }),
    { type: "subagent-end", agent: two, status: "failed", ms: 40, turns: 1, error: "it ended without a final answer" },
    { type: "subagent-end", agent: one, status: "completed", ms: 1500, turns: 2 },
  ];
}

describe("a delegate run's tally", () => {
  it("gives each task its status, session, turns, own tokens and final reply, and the tree's totals", () => {
    const tally = new DelegateTally();
    for (const event of twoTasks()) tally.onEvent(event);
    expect(tally.tasks(["first", "second", "third"], (text) => text.replace("remove", "r*****"))).toEqual([
      { task: 1, prompt: "first", status: "completed", sessionId: "s1", turns: 2, tokens: { input: 220, output: 22 }, ms: 1500, answer: "Could not r***** it." },
      { task: 2, prompt: "second", status: "failed", sessionId: "s2", turns: 1, tokens: { input: 0, output: 0 }, ms: 40, error: "it ended without a final answer" },
      { task: 3, prompt: "third", status: "cancelled", sessionId: null, turns: 0, tokens: { input: 0, output: 0 }, ms: 0, error: "cancelled before it started" },
    ]);
    expect(tally.tokens).toEqual({ input: 227, output: 25 });
    expect({ turns: tally.turns, subagents: tally.subagents }).toEqual({ turns: 4, subagents: 3 });
    expect(tally.refused).toEqual([
      { task: 1, tool: "bash", access: "execute", dangerous: true, sandbox: false },
      { task: null, tool: "edit", access: "edit", dangerous: false, sandbox: false },
    ]);
  });

  it("reports progress in lines: tasks by their place in the call, nested sub-agents by their number", () => {
    const lines = twoTasks().map(delegateProgressLine).filter((line) => line !== null);
    expect(lines).toEqual([
      "task 1/2 started: first",
      "task 2/2 started: second",
      "task 1/2: turn 1",
      "task 1/2: → $ rm -rf build",
      "task 1/2: bash denied: denied: bash needs the user's approval",
      "#3 started: deeper",
      "#3: edit denied: denied",
      "#3 completed in 0.0 s (1 turn)",
      "task 2/2 failed in 0.0 s (1 turn): it ended without a final answer",
      "task 1/2 completed in 1.5 s (2 turns)",
    ]);
  });
});

describe("the note on refused calls", () => {
  const call = (tool: string, extra: Partial<RefusedCall> = {}): RefusedCall => ({ task: 1, tool, access: "execute", dangerous: false, sandbox: false, ...extra });

  it("is absent when nothing was refused", () => {
    expect(refusalNote([], "ask")).toBeNull();
  });

  it("names the tools and each way the user can allow them, none looser than they are", () => {
    expect(refusalNote([call("bash"), call("bash"), call("edit", { access: "edit" })], "ask")).toBe(
      "3 tool calls were refused (bash ×2, edit): they needed approval in ask mode, and nobody can approve a delegated task; to allow them: " +
        'start bosun mcp serve with --mode auto-edit (edits), or start it with --yes (everything but dangerous calls), or set in bosun.json "permissions": { "bash": "allow", "edit": "allow" }',
    );
    expect(refusalNote([call("bash", { dangerous: true })], "full-access")).toBe(
      '1 tool call was refused (bash (dangerous)): it needed approval in full-access mode, and nobody can approve a delegated task; to allow it: set in bosun.json "permissions": { "dangerous": "allow" }',
    );
    expect(refusalNote([call("write", { access: "edit", sandbox: true })], "auto-edit")).toMatch(/^1 tool call was refused \(write \(beyond the sandbox\)\): .*; to allow it: for what the sandbox stopped: add the folders to write to "sandbox.writable"/);
    expect(refusalNote([call("docs__search", { setting: "mcp.docs.tools.search" })], "auto-edit")).toMatch(/to allow it: start it with --yes \(everything but dangerous calls\), or set mcp\.docs\.tools\.search to "allow" in bosun\.json$/);
  });
});

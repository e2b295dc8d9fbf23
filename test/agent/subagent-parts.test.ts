import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../src/agent/session/store.js";
import { subagentReport, type SubagentOutcome } from "../../src/agent/subagents/report.js";
import { SubagentSessionBusyError, SubagentSessionCache, UnknownSubagentSessionError, type SubagentModel } from "../../src/agent/subagents/sessions.js";
import { TreeSlots } from "../../src/agent/subagents/slots.js";
import { planAgentCall } from "../../src/agent/tools/agent.js";
import { ToolError } from "../../src/agent/tools/tool.js";

const model = {} as SubagentModel;
const store = new MemorySessionStore(undefined, (id) => `/tmp/bosun-test-spill-${id}`);
const session = () => store.create({ workdir: "/w", model: { providerID: "p", modelID: "m", name: "m" }, bosunVersion: "test" });

describe("the sub-agent session cache", () => {
  it("evicts the least recently used idle session past its size; a continuation counts as a use", () => {
    const cache = new SubagentSessionCache(3);
    const [a, b, c, d] = [session(), session(), session(), session()];
    for (const s of [a, b, c]) cache.finish(cache.add(s!, model));
    cache.finish(cache.checkout(a!.id)); // a is now the most recently used
    cache.finish(cache.add(d!, model));
    expect([a, b, c, d].map((s) => cache.has(s!.id))).toEqual([true, false, true, true]);
    expect(() => cache.checkout(b!.id)).toThrow(UnknownSubagentSessionError);
    expect(cache.checkout(a!.id).runs).toBe(3);
  });

  it("never evicts a running session, and refuses to hand it out twice", () => {
    const cache = new SubagentSessionCache(2);
    const running = cache.add(session(), model);
    const [x, y] = [session(), session()];
    cache.finish(cache.add(x!, model));
    cache.finish(cache.add(y!, model));
    expect(cache.has(running.session.id)).toBe(true);
    expect(cache.has(x!.id)).toBe(false);
    expect(() => cache.checkout(running.session.id)).toThrow(SubagentSessionBusyError);
    cache.finish(running);
    expect(cache.size).toBe(2);
    expect(cache.checkout(running.session.id).running).toBe(true);
  });
});

describe("the tree-wide slots", () => {
  it("queues past the capacity, in order, and lets a resuming parent in before new agents", async () => {
    const slots = new TreeSlots(2);
    const signal = new AbortController().signal;
    const parent = await slots.acquire(signal);
    const other = await slots.acquire(signal);
    const order: string[] = [];
    const child = slots.acquire(signal).then((slot) => (order.push("child"), slot));
    parent.release(); // parent waits for its children: the child gets the place
    const childSlot = await child;
    const late = slots.acquire(signal).then((slot) => (order.push("late"), slot));
    const back = parent.reacquire(signal).then(() => order.push("parent back"));
    other.release();
    await back;
    childSlot.release();
    (await late).release();
    expect(order).toEqual(["child", "parent back", "late"]);
    expect(slots.peak).toBe(2);
    parent.release();
    parent.release(); // a second release gives nothing back twice
    expect(slots.active).toBe(0);
  });

  it("stops waiting when the signal aborts", async () => {
    const slots = new TreeSlots(1);
    const controller = new AbortController();
    const held = await slots.acquire(controller.signal);
    const waiting = slots.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow("cancelled");
    held.release();
    expect(slots.active).toBe(0);
    await expect(slots.acquire(controller.signal)).rejects.toThrow("cancelled");
  });
});

describe("planAgentCall", () => {
  const bosun = (prompt: string) => ({ prompt, agent: "bosun", isolation: null, carryChanges: false });

  it("takes one prompt (with an optional session id) or a list of tasks, trimmed", () => {
    expect(planAgentCall({ prompt: "  do it " })).toEqual({ tasks: [bosun("do it")], sessionId: null, limits: {} });
    expect(planAgentCall({ prompt: "go on", session_id: " abc " })).toEqual({ tasks: [bosun("go on")], sessionId: "abc", limits: {} });
    expect(planAgentCall({ tasks: [" a", "b "], session_id: "" })).toEqual({ tasks: [bosun("a"), bosun("b")], sessionId: null, limits: {} });
    expect(planAgentCall({ prompt: "", tasks: ["only"] })).toEqual({ tasks: [bosun("only")], sessionId: null, limits: {} });
  });

  it("gives each task its agent, isolation and carrying of changes, the call's as defaults, and the call's caps", () => {
    const call = planAgentCall({
      tasks: ["plain", { prompt: " fix a ", agent: "codex" }, { prompt: "b", agent: "claude", isolation: "none", carry_changes: false }],
      agent: "gemini",
      isolation: "worktree",
      carry_changes: true,
      limits: { tokens: 5000, cost_usd: 0.5 },
    });
    expect(call).toEqual({
      tasks: [
        { prompt: "plain", agent: "gemini", isolation: "worktree", carryChanges: true },
        { prompt: "fix a", agent: "codex", isolation: "worktree", carryChanges: true },
        { prompt: "b", agent: "claude", isolation: "none", carryChanges: false },
      ],
      sessionId: null,
      limits: { tokens: 5000, costUsd: 0.5 },
    });
    // An unknown kind is not the call's problem: only its task fails (when it starts).
    expect(planAgentCall({ prompt: "x", agent: "nope" }).tasks[0]!.agent).toBe("nope");
  });

  it("rejects what the model must fix, with a message saying what", () => {
    const problem = (input: Parameters<typeof planAgentCall>[0]) => {
      try {
        planAgentCall(input);
      } catch (error) {
        expect(error).toBeInstanceOf(ToolError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(problem({})).toBe("say what to do: give a non-empty prompt, or tasks (a list of prompts)");
    expect(problem({ prompt: "a", tasks: ["b"] })).toBe("give either prompt (one task) or tasks (several), not both");
    expect(problem({ tasks: ["a"], session_id: "x" })).toBe("session_id continues one conversation: use it with prompt, not with tasks");
    expect(problem({ tasks: ["a", "", "c"] })).toBe("task 2 of 3 is empty; every task needs a complete prompt");
    expect(problem({ tasks: ["a", { prompt: "  " }] })).toBe("task 2 of 2 is empty; every task needs a complete prompt");
    expect(problem({ prompt: "a", agent: "claude", session_id: "s" })).toBe("session_id continues bosun's own sub-agents only; a claude task starts afresh");
  });
});

describe("subagentReport", () => {
  const outcome = (task: number, status: SubagentOutcome["status"], text: string, sessionId: string | null = `s${task}`): SubagentOutcome => ({ task, kind: "bosun", status, sessionId, text, turns: 2, ms: 10 });

  it("reports cancelled tasks, and leaves out the session id of a task that never started", () => {
    const report = subagentReport([outcome(1, "completed", "fine"), outcome(2, "cancelled", "cancelled before it started", null)], 2);
    expect(report).toEqual({
      output:
        '2 sub-agents ran (2 at a time): 1 completed, 1 cancelled.\n\n<subagent task="1/2" sessionID="s1" state="completed">\nfine\n</subagent>\n\n<subagent task="2/2" state="cancelled">\ncancelled before it started\n</subagent>',
      isError: false,
      summary: "2 sub-agents: 1 completed, 1 cancelled",
    });
  });
});

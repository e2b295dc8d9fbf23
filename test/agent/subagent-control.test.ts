// Stopping sub-agents from outside their tree (the dashboard's Cancel), against the scripted model
// server: one sub-agent cancelled while its siblings finish, every sub-agent and the tasks still
// waiting cancelled at once, a nested sub-agent cancelled with its parent; the agent that started
// them reads that the user cancelled them and goes on. The live tree kept from the same events
// shows each sub-agent's place, status, turns, tokens and current call.
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { SubagentControl } from "../../src/agent/subagents/control.js";
import { LiveSubagentTree } from "../../src/agent/subagents/live-tree.js";
import { SubagentSessionCache } from "../../src/agent/subagents/sessions.js";
import type { SubagentSettings } from "../../src/agent/subagents/settings.js";
import { languageModelFor, makeWorkspace, recordingUi, requestToolResults, runScripted, scriptedTarget } from "../fixtures/agent-harness.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

/** Runs `prompt` with sub-agents; `onEvent` sees each event as it happens (with the control and the tree). */
async function runWithControl(prompt: string, settings: Partial<SubagentSettings>, onEvent: (event: AgentEvent, control: SubagentControl, tree: LiveSubagentTree) => void) {
  const ws = makeWorkspace();
  const target = scriptedTarget(llm);
  const control = new SubagentControl();
  const tree = new LiveSubagentTree();
  const ui = recordingUi();
  const run = await runScripted(prompt, {
    model: await languageModelFor(target),
    target,
    workdir: ws.workdir,
    sessions: ws.sessions,
    ui: {
      onEvent: (event) => {
        ui.onEvent(event);
        tree.onEvent(event);
        onEvent(event, control, tree);
      },
    },
    subagents: { settings, sessions: new SubagentSessionCache(), control },
  });
  return { ...run, control, tree, ui };
}

/** The tool result the top-level agent read back from its `agent` call. */
const reportOf = (prompt: string) => requestToolResults(llm.requests.filter((request) => request.prompt.includes(prompt)).at(-1)!)[0]!;

describe("cancelling sub-agents from outside the tree", () => {
  it("cancels one sub-agent while the others finish; its parent reads that the user cancelled it", async () => {
    llm.onPrompt("check the three").reply().tool("agent", { tasks: ["check one", "check two", "check three"] });
    llm.onPrompt("check one").reply().text("one is fine").usage({ input: 40, output: 4 });
    llm.onPrompt("check two").reply().text("still").hang();
    llm.onPrompt("check three").reply().latency(100).text("three is fine");
    llm.onPrompt("check the three").reply().text("Two of three checked.");
    let cancelled = false;
    const { result, tree } = await runWithControl("check the three", { concurrency: 3 }, (event, control, live) => {
      // Once the first sub-agent has ended, the second (still thinking) is cancelled.
      if (!cancelled && event.type === "subagent-end" && event.agent.task === 1) {
        const two = live.snapshot().find((node) => node.task === 2)!;
        cancelled = control.cancel(two.id, "from a test");
        expect(control.cancel(two.id, "from a test")).toBe(false);
      }
    });
    expect(cancelled).toBe(true);
    expect(result.text).toBe("Two of three checked.");
    const report = reportOf("check the three");
    expect(report).toContain('task="2/3"');
    expect(report).toMatch(/state="cancelled">\ncancelled by the user \(from a test\); do not start this task again unless the user asks/);
    expect(report).toContain("three is fine");
    const nodes = tree.snapshot();
    expect(nodes.map((node) => [node.task, node.status])).toEqual([
      [1, "completed"],
      [2, "cancelled"],
      [3, "completed"],
    ]);
    expect(nodes[0]).toMatchObject({ seq: 1, parent: null, depth: 1, tasks: 3, prompt: "check one", turns: 1, tokens: { input: 40, output: 4 }, activity: null, error: null });
    expect(nodes[1]!.error).toMatch(/^cancelled by the user \(from a test\)/);
    expect(nodes.every((node) => node.ms !== null && node.ms >= 0)).toBe(true);
  });

  it("cancels every sub-agent and the tasks still waiting at once; the agent goes on", async () => {
    llm.onPrompt("check all four").reply().tool("agent", { tasks: ["slow a", "slow b", "slow c", "slow d"] });
    for (const name of ["a", "b"]) llm.onPrompt(`slow ${name}`).reply().text("…").hang();
    llm.onPrompt("check all four").reply().text("Stopped as asked.");
    let stopped = -1;
    let scheduled = false;
    const { result, control, tree } = await runWithControl("check all four", { concurrency: 2 }, (event, control, live) => {
      if (!scheduled && event.type === "subagent-event" && event.event.type === "turn-start" && live.snapshot().filter((node) => node.status === "running").length === 2) {
        // Both running sub-agents have started their first turn: everything is cancelled.
        scheduled = true;
        setTimeout(() => (stopped = control.cancelAll("from a test")), 50);
      }
    });
    expect(stopped).toBe(2);
    expect(result.text).toBe("Stopped as asked.");
    const report = reportOf("check all four");
    expect(report).toMatch(/^All 4 sub-agents ended without an answer \(2 at a time\): 0 completed, 4 cancelled\./);
    expect(report.match(/cancelled by the user \(from a test\)/g)).toHaveLength(2);
    expect(report.match(/cancelled before it started/g)).toHaveLength(2);
    expect(tree.snapshot().map((node) => node.status)).toEqual(["cancelled", "cancelled"]);
    // Nothing is left registered: there is nothing to cancel any more.
    expect(control.cancelAll("from a test")).toBe(0);
  });

  it("a nested sub-agent sits under its parent in the tree, shows its current call, and is cancelled with it", async () => {
    llm.onPrompt("plan the release").reply().tool("agent", { prompt: "split the release" });
    llm.onPrompt("split the release").reply().tool("agent", { tasks: ["write notes"] });
    llm.onPrompt("write notes").reply().tool("bash", { command: "sleep 30" });
    llm.onPrompt("plan the release").reply().text("The release was stopped.");
    let middle: string | null = null;
    const { tree, result } = await runWithControl("plan the release", { maxDepth: 2 }, (event, control, live) => {
      if (middle === null && event.type === "subagent-event" && event.event.type === "tool-start" && event.event.tool === "bash") {
        const nodes = live.snapshot();
        expect(nodes[1]).toMatchObject({ depth: 2, parent: nodes[0]!.id, activity: "bash: $ sleep 30" });
        middle = nodes[0]!.id;
        control.cancel(middle, "from a test");
      }
    });
    expect(middle).not.toBeNull();
    expect(result.text).toBe("The release was stopped.");
    expect(tree.snapshot().map((node) => [node.depth, node.status])).toEqual([
      [1, "cancelled"],
      [2, "cancelled"],
    ]);
  });
});

import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, Approver } from "../../src/agent/approval.js";
import { SubagentSessionCache } from "../../src/agent/subagent-sessions.js";
import type { SubagentSettings } from "../../src/agent/subagent-settings.js";
import { languageModelFor, makeWorkspace, recordingUi, requestToolResults, runScripted, scriptedTarget, type RecordingUi } from "../fixtures/agent-harness.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

async function runTree(prompt: string, options: { settings?: Partial<SubagentSettings>; approver?: Approver; mode?: "ask" | "full-access"; signal?: AbortSignal; ui?: RecordingUi } = {}) {
  const ws = makeWorkspace();
  const target = scriptedTarget(llm);
  const ui = options.ui ?? recordingUi();
  const run = await runScripted(prompt, {
    model: await languageModelFor(target),
    target,
    workdir: ws.workdir,
    sessions: ws.sessions,
    ui,
    mode: options.mode ?? "full-access",
    approver: options.approver ?? null,
    ...(options.signal ? { signal: options.signal } : {}),
    subagents: { settings: options.settings ?? {}, sessions: new SubagentSessionCache() },
  });
  return { ...run, ui, events: run.store.read(run.session.id).events };
}

const numbered = (name: string, count: number) => Array.from({ length: count }, (_, i) => `${name} ${String(i + 1).padStart(2, "0")}`);
const outputOf = (prompt: string, turn = 1) => requestToolResults(llm.requests.filter((r) => r.prompt.includes(prompt))[turn]!)[0]!;

describe("sub-agent concurrency", () => {
  it("runs a batch one at a time, with a notice, when an approver is reachable; the approver is told which sub-agent asks", async () => {
    const asked: ApprovalRequest[] = [];
    const approver: Approver = async (request) => {
      asked.push(request);
      return "once";
    };
    const tasks = numbered("serial job", 3);
    llm.onPrompt("run serial jobs").reply().tool("agent", { tasks });
    for (const task of tasks) {
      llm.onPrompt(task).reply().latency(40).tool("bash", { command: `echo ${task.replaceAll(" ", "-")}` });
      llm.onPrompt(task).reply().latency(40).text(`${task} ok`);
    }
    llm.onPrompt("run serial jobs").reply().text("all ok");
    const { ui } = await runTree("run serial jobs", { approver, mode: "ask" });
    expect(llm.maxConcurrent).toBe(1);
    expect(ui.events.filter((e) => e.type === "notice").map((e) => (e.type === "notice" ? e.message : ""))).toEqual([
      "running 3 sub-agents one at a time: their tool calls may need your approval (they run in parallel only when nobody can be asked)",
    ]);
    expect(asked.map((r) => `${r.agent} ${r.tool} ${r.description}`)).toEqual(["sub-agent #1 bash $ echo serial-job", "sub-agent #2 bash $ echo serial-job", "sub-agent #3 bash $ echo serial-job"].map((line, i) => `${line}-0${i + 1}`));
    expect(outputOf("run serial jobs")).toMatch(/^3 sub-agents ran \(one at a time\): 3 completed\./);
  });

  it("runs in parallel when nobody can approve, up to the concurrency, and the tree-wide cap holds at the server", async () => {
    const tasks = numbered("wide job", 16);
    llm.onPrompt("run wide jobs").reply().tool("agent", { tasks });
    for (const task of tasks) llm.onPrompt(task).reply().latency(60).text(`${task} ok`);
    llm.onPrompt("run wide jobs").reply().text("done");
    await runTree("run wide jobs", { settings: { concurrency: 16, treeConcurrency: 3 } });
    expect(llm.maxConcurrent).toBe(3);
    expect(outputOf("run wide jobs")).toMatch(/^16 sub-agents ran \(16 at a time\): 16 completed\./);

    llm.reset();
    llm.onPrompt("run wide jobs").reply().tool("agent", { tasks });
    for (const task of tasks) llm.onPrompt(task).reply().latency(60).text(`${task} ok`);
    llm.onPrompt("run wide jobs").reply().text("done");
    await runTree("run wide jobs", { settings: { concurrency: 16, treeConcurrency: 16 } });
    expect(llm.maxConcurrent).toBe(16);
  });

  it("caps the whole tree across nesting without deadlock: parents waiting for children give their places up", async () => {
    const branches = numbered("branch", 4);
    llm.onPrompt("grow the tree").reply().tool("agent", { tasks: branches });
    for (const branch of branches) {
      const leaves = numbered(`leaf ${branch.slice(-2)}.`, 4);
      llm.onPrompt(branch).reply().latency(30).tool("agent", { tasks: leaves });
      for (const leaf of leaves) llm.onPrompt(leaf).reply().latency(60).text(`${leaf} ok`);
      llm.onPrompt(branch).reply().latency(30).text(`${branch} ok`);
    }
    llm.onPrompt("grow the tree").reply().text("grown");
    const { result, events } = await runTree("grow the tree", { settings: { maxDepth: 2, concurrency: 4, treeConcurrency: 5 } });
    expect(result.text).toBe("grown");
    expect(llm.maxConcurrent).toBe(5);
    const ends = events.filter((e) => e.type === "subagent" && e.phase === "end");
    expect(ends).toHaveLength(20);
    expect(ends.every((e) => e.type === "subagent" && e.phase === "end" && e.status === "completed")).toBe(true);
    expect(llm.pending()).toBe(0);
  });

  it("cancels the whole tree within 500 ms: model streams, running commands and tasks still waiting", async () => {
    const marker = "37.25";
    llm.onPrompt("start a busy tree").reply().tool("agent", { tasks: ["run the long command", "fan out again", "wait for a turn"] });
    llm.onPrompt("run the long command").reply().tool("bash", { command: `sleep ${marker}` });
    llm.onPrompt("fan out again").reply().tool("agent", { tasks: ["hang one", "hang two"] });
    llm.onPrompt("hang one").reply().text("thinking").hang();
    llm.onPrompt("hang two").reply().text("thinking").hang();
    const controller = new AbortController();
    const ui = recordingUi();
    const running = () => {
      try {
        return execFileSync("pgrep", ["-f", `sleep ${marker}`], { encoding: "utf8" }).trim() !== "";
      } catch {
        return false;
      }
    };
    const tree = runTree("start a busy tree", { settings: { maxDepth: 2, concurrency: 2 }, signal: controller.signal, ui });
    const deadline = Date.now() + 10_000;
    while (!(llm.active >= 2 && running()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(running()).toBe(true);
    const abortedAt = Date.now();
    controller.abort();
    const { result, events } = await tree;
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(result.reason).toBe("aborted");
    expect(running()).toBe(false);
    for (let i = 0; i < 50 && llm.active > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(llm.active).toBe(0);
    const ends = events.filter((e) => e.type === "subagent" && e.phase === "end").map((e) => (e.type === "subagent" && e.phase === "end" ? e.status : ""));
    expect(ends).toEqual(["cancelled", "cancelled", "cancelled", "cancelled"]);
    // The third task was waiting for a place (concurrency 2) and never started.
    expect(events.filter((e) => e.type === "subagent" && e.phase === "start" && e.prompt === "wait for a turn")).toHaveLength(0);
    expect(llm.requests.filter((r) => r.prompt.includes("wait for a turn"))).toHaveLength(0);
  });
});

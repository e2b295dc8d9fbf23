import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Approver } from "../../src/agent/approval/approval.js";
import type { QuestionTurns } from "../../src/agent/question-turns.js";
import { Redactor } from "../../src/kernel/redact/secrets.js";
import { FileSessionStore } from "../../src/agent/session/store.js";
import { SubagentSessionCache } from "../../src/agent/subagents/sessions.js";
import type { SubagentSettings } from "../../src/agent/subagents/settings.js";
import { createRunRenderer } from "../../src/cli/render-run.js";
import { createTerminalPrompter } from "../../src/cli/terminal-prompt.js";
import { languageModelFor, makeWorkspace, recordingUi, requestToolResults, runScripted, scriptedTarget, type RecordingUi } from "../fixtures/agent-harness.js";
import { Capture } from "../fixtures/cli.js";
import { ReplyBuilder } from "../fixtures/llm-server.js";
import { latch, promptTerminal, until } from "./prompt-terminal.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

async function runTree(
  prompt: string,
  options: { settings?: Partial<SubagentSettings>; approver?: Approver; questions?: QuestionTurns; mode?: "ask" | "full-access"; signal?: AbortSignal; ui?: RecordingUi } = {},
) {
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
    ...(options.questions ? { questions: options.questions } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    subagents: { settings: options.settings ?? {}, sessions: new SubagentSessionCache() },
  });
  return { ...run, ui, events: run.store.read(run.session.id).events };
}

const numbered = (name: string, count: number) => Array.from({ length: count }, (_, i) => `${name} ${String(i + 1).padStart(2, "0")}`);
const outputOf = (prompt: string, turn = 1) => requestToolResults(llm.requests.filter((r) => r.prompt.includes(prompt))[turn]!)[0]!;

describe("sub-agent concurrency", () => {
  it("with a terminal attached and full-access, runs a batch in parallel up to the concurrency: every first request is at the server at once", async () => {
    const term = promptTerminal();
    const prompter = createTerminalPrompter(term.input, term.output, () => {});
    const tasks = numbered("parallel job", 4);
    llm.onPrompt("run parallel jobs").reply().tool("agent", { tasks });
    for (const task of tasks) {
      llm.onPrompt(task).reply().barrier("first turns", 4).tool("bash", { command: `echo ${task.replaceAll(" ", "-")}` });
      llm.onPrompt(task).reply().text(`${task} ok`);
    }
    llm.onPrompt("run parallel jobs").reply().text("all ok");
    const { ui, result } = await runTree("run parallel jobs", { approver: prompter.approver, questions: prompter.turns, mode: "full-access", settings: { concurrency: 4 } });
    expect(result.text).toBe("all ok");
    expect(llm.maxConcurrent).toBe(4);
    expect(outputOf("run parallel jobs")).toMatch(/^4 sub-agents ran \(4 at a time\): 4 completed\./);
    expect(ui.events.filter((e) => e.type === "notice")).toEqual([]);
    expect(term.shown()).toBe("");
  });

  it("serializes approval questions: one on the terminal at a time, the others keep working, their progress waits, each answer reaches its sub-agent", async () => {
    const ws = makeWorkspace();
    for (const name of ["alpha", "beta"]) mkdirSync(join(ws.workdir, `${name}-build`));
    const term = promptTerminal();
    const prompter = createTerminalPrompter(term.input, term.output, () => {});
    // The order is the test's: alpha asks first; beta and gamma get their first replies only once alpha's question is open.
    const alphaAsks = latch();
    llm.onPrompt("clean up").reply().tool("agent", { tasks: ["clean alpha", "clean beta", "count gamma"] });
    llm.onPrompt("clean alpha").reply().tool("bash", { command: "rm -rf alpha-build" });
    llm.onPrompt("clean beta").reply().after(alphaAsks.promise).tool("bash", { command: "rm -rf beta-build" });
    for (const name of ["alpha", "beta"]) llm.onPrompt(`clean ${name}`).reply((request) => new ReplyBuilder().text(`${name}: ${requestToolResults(request)[0]!.split("\n")[0]}`));
    llm.onPrompt("count gamma").reply().after(alphaAsks.promise).tool("bash", { command: "echo gamma-counted" });
    llm.onPrompt("count gamma").reply().text("gamma: counted");
    llm.onPrompt("clean up").reply().text("cleaned");

    // The renderer writes progress to the same terminal the questions are on.
    const renderer = createRunRenderer({ stdout: new Capture(), stderr: term.output, env: {} }, { json: false });
    const ui = recordingUi();
    const shownUi: RecordingUi = { ...ui, onEvent: (event) => (ui.onEvent(event), renderer.onEvent(event)) };
    const store = new FileSessionStore(ws.sessions, new Redactor([]));
    const session = store.create({ workdir: ws.workdir, model: { providerID: "scripted", modelID: "test-model", name: "Test Model" }, bosunVersion: "test" });
    const target = scriptedTarget(llm);
    const run = runScripted("clean up", {
      model: await languageModelFor(target),
      target,
      workdir: ws.workdir,
      sessions: ws.sessions,
      session,
      ui: shownUi,
      mode: "full-access",
      approver: prompter.approver,
      questions: prompter.turns,
      subagents: { settings: { concurrency: 3 }, sessions: new SubagentSessionCache() },
    });

    await term.prompted(1);
    const header = term.shown().lastIndexOf("\nbosun: ");
    alphaAsks.open();
    // While alpha's question is open, gamma needs no approval and runs to its end (the session file
    // has it), and beta's question waits its turn.
    const ended = () => store.read(session.id).events.filter((e) => e.type === "subagent" && e.phase === "end").length;
    await until(() => ended() === 1 && prompter.turns.waiting === 1);
    // Nothing but alpha's question has been shown since its header: what beta and gamma reported is held back.
    expect(term.shown().slice(header)).toMatch(/^\nbosun: sub-agent #\d: bash wants to run something dangerous: it is a recursive force delete \(rm -rf alpha-build\)\n {4}\$ rm -rf alpha-build\n {2}allow \[o\]nce, \[a\]lways for this session, or \[d\]eny\? $/);
    term.input.write("o\n");

    // Beta's question comes once alpha's is answered, after the held lines: gamma's work and end, beta's call.
    await term.prompted(2);
    const shown = term.shown();
    const held = shown.slice(shown.indexOf("deny? ") + "deny? ".length, shown.lastIndexOf("\nbosun: "));
    expect(held).toMatch(/#\d → \$ echo gamma-counted\n/);
    expect(held).toMatch(/#\d sub-agent completed in \d+\.\d s \(2 turns\)\n/);
    expect(held).toMatch(/#\d → \$ rm -rf beta-build\n/);
    expect(shown.slice(shown.lastIndexOf("\nbosun: "))).toMatch(/^\nbosun: sub-agent #\d: bash wants to run something dangerous: it is a recursive force delete \(rm -rf beta-build\)\n/);
    term.input.write("d\n");

    const { result } = await run;
    expect(result.text).toBe("cleaned");
    expect(term.shown().match(/allow \[o\]nce/g)).toHaveLength(2);
    // Each answer reached the sub-agent that asked.
    expect(existsSync(join(ws.workdir, "alpha-build"))).toBe(false);
    expect(existsSync(join(ws.workdir, "beta-build"))).toBe(true);
    const report = outputOf("clean up");
    expect(report).toContain("alpha: [exit code 0]");
    expect(report).toMatch(/beta: Not run: the user declined this call/);
    expect(report).toMatch(/^3 sub-agents ran \(3 at a time\): 3 completed\./);
  });

  it("runs in parallel when nobody can approve, up to the concurrency, and the tree-wide cap holds at the server", async () => {
    // Each group of `width` requests is answered only once all of them are at the server together.
    const script = (tasks: string[], width: number) => {
      llm.onPrompt("run wide jobs").reply().tool("agent", { tasks });
      for (const task of tasks) llm.onPrompt(task).reply().barrier("wide", width).text(`${task} ok`);
      llm.onPrompt("run wide jobs").reply().text("done");
    };
    script(numbered("wide job", 15), 3);
    await runTree("run wide jobs", { settings: { concurrency: 16, treeConcurrency: 3 } });
    expect(llm.maxConcurrent).toBe(3);
    expect(outputOf("run wide jobs")).toMatch(/^15 sub-agents ran \(15 at a time\): 15 completed\./);

    llm.reset();
    script(numbered("wide job", 16), 16);
    await runTree("run wide jobs", { settings: { concurrency: 16, treeConcurrency: 16 } });
    expect(llm.maxConcurrent).toBe(16);
    expect(outputOf("run wide jobs")).toMatch(/^16 sub-agents ran \(16 at a time\): 16 completed\./);
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

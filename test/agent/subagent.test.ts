import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import type { SessionEvent, SubagentEndEvent, SubagentStartEvent } from "../../src/agent/session/format.js";
import { SubagentSessionCache } from "../../src/agent/subagents/sessions.js";
import type { SubagentSettings } from "../../src/agent/subagents/settings.js";
import { transcriptLines } from "../../src/agent/session/transcript.js";
import { ExtensionHost } from "../../src/extensions/host.js";
import {
  languageModelFor,
  makeWorkspace,
  recordingUi,
  requestSystemPrompt,
  requestToolNames,
  requestToolResults,
  runScripted,
  scriptedTarget,
  type HarnessOptions,
} from "../fixtures/agent-harness.js";
import { ReplyBuilder, type RecordedRequest } from "../fixtures/llm-server.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

type TreeOptions = Partial<Omit<HarnessOptions, "subagents" | "sessions">> & {
  settings?: Partial<SubagentSettings>;
  cache?: SubagentSessionCache;
  workspace?: ReturnType<typeof makeWorkspace>;
};

/** Runs a top-level agent with the `agent` tool against the scripted server, in a temp workspace. */
async function runTree(prompt: string, options: TreeOptions = {}) {
  const ws = options.workspace ?? makeWorkspace();
  const target = options.target ?? scriptedTarget(llm);
  const ui = recordingUi();
  const run = await runScripted(prompt, {
    model: options.model ?? (await languageModelFor(target)),
    target,
    workdir: ws.workdir,
    sessions: ws.sessions,
    ui,
    ...options,
    subagents: { settings: options.settings ?? {}, sessions: options.cache ?? new SubagentSessionCache() },
  });
  const parsed = run.store.read(run.session.id);
  return { ...run, ws, ui: (options.ui as typeof ui | undefined) ?? ui, events: parsed.events, parsed };
}

const requestsFor = (prompt: string): RecordedRequest[] => llm.requests.filter((request) => request.prompt.includes(prompt));
const subagentEvents = (events: SessionEvent[]) => events.filter((event): event is SubagentStartEvent | SubagentEndEvent => event.type === "subagent");
const plain = (_style: string, text: string) => text;

describe("the agent tool", () => {
  it("runs a single task in a sub-agent and returns its final answer with its session id", async () => {
    llm.onPrompt("delegate the count").reply().tool("agent", { prompt: "count the lines of notes.txt" });
    llm.onPrompt("count the lines of notes.txt").reply().tool("read", { path: "notes.txt" }).usage({ input: 50, output: 5 });
    llm.onPrompt("count the lines of notes.txt").reply().text("notes.txt has 2 lines.").usage({ input: 80, output: 6 });
    llm.onPrompt("delegate the count").reply().text("It has 2 lines.");
    const workspace = makeWorkspace();
    workspace.write("notes.txt", "one\ntwo\n");
    const { result, store, session, ui } = await runTree("delegate the count", { workspace });

    expect(result.reason).toBe("final");
    expect(result.text).toBe("It has 2 lines.");
    const [child1, child2] = requestsFor("count the lines of notes.txt");
    // The sub-agent has the parent's tools minus agent, plan and ask_user (depth limit 1).
    expect(requestToolNames(child1!)).toEqual(["read", "write", "edit", "glob", "grep", "bash"]);
    expect(requestToolNames(llm.requests[0]!)).toEqual(["read", "write", "edit", "glob", "grep", "bash", "ask_user", "plan", "agent"]);
    expect(requestSystemPrompt(child1!)).toContain("You are a sub-agent");
    expect(requestSystemPrompt(llm.requests[0]!)).not.toContain("You are a sub-agent");
    expect(requestToolResults(child2!)[0]).toContain("one");
    // The child's conversation is its own: it never saw the parent's prompt.
    expect(child1!.text).not.toContain("delegate the count");

    const [root2] = requestsFor("delegate the count").slice(1);
    const toolResult = requestToolResults(root2!)[0]!;
    const id = /^<subagent sessionID="([^"]+)" state="completed">\nnotes\.txt has 2 lines\.\n<\/subagent>$/.exec(toolResult)?.[1];
    expect(id).toBeTruthy();

    const events = subagentEvents(store.read(session.id).events);
    expect(events).toMatchObject([
      { phase: "start", id, run: 1, parent: session.id, depth: 1, task: 1, tasks: 1, prompt: "count the lines of notes.txt", continued: false },
      { phase: "end", id, run: 1, status: "completed", turns: 2, usage: { inputTokens: 130, outputTokens: 11 } },
    ]);
    expect((events[1] as SubagentEndEvent).ms).toBeGreaterThanOrEqual(0);
    expect(events[0]).not.toHaveProperty("parentRun");

    const starts = ui.events.filter((e) => e.type === "subagent-start");
    const inner = ui.events.filter((e): e is Extract<AgentEvent, { type: "subagent-event" }> => e.type === "subagent-event").map((e) => e.event.type);
    expect(starts).toMatchObject([{ agent: { id, seq: 1, depth: 1, task: 1, tasks: 1 }, prompt: "count the lines of notes.txt", continued: false }]);
    expect(inner).toContain("tool-end");
    expect(ui.events.find((e) => e.type === "subagent-end")).toMatchObject({ status: "completed", turns: 2 });
    expect(ui.events.find((e) => e.type === "tool-end" && e.tool === "agent")).toMatchObject({ status: "ok", summary: "completed in 2 turns" });

    const transcript = transcriptLines(store.read(session.id), plain).join("\n");
    expect(transcript).toContain(`      └─ ✓ ${id} · 2 turns, `);
    expect(transcript).toContain("· count the lines of notes.txt");
  });

  it("fans a batch of 16 out, 4 at a time, and reports each task's status and session id in task order", async () => {
    const tasks = Array.from({ length: 16 }, (_, i) => `survey part ${String(i + 1).padStart(2, "0")}`);
    llm.onPrompt("delegate the survey").reply().tool("agent", { tasks });
    for (const [i, task] of tasks.entries()) {
      const reply = llm.onPrompt(task).reply().latency(20);
      // The first four are answered only once all four are waiting: the cap is reached for sure.
      if (i < 4) reply.barrier("first four", 4);
      if (i === 4) reply.httpError(400, "this model does not exist");
      else if (i === 10) reply.text("   ");
      else reply.text(`result of ${task}`);
    }
    llm.onPrompt("delegate the survey").reply().text("Surveyed.");
    const { result, events, ui } = await runTree("delegate the survey");

    expect(result.text).toBe("Surveyed.");
    expect(llm.maxConcurrent).toBe(4);
    const output = requestToolResults(requestsFor("delegate the survey")[1]!)[0]!;
    expect(output.split("\n")[0]).toBe("16 sub-agents ran (4 at a time): 14 completed, 2 failed.");
    const sections = [...output.matchAll(/<subagent task="(\d+)\/16" sessionID="([^"]+)" state="(\w+)">\n([\s\S]*?)\n<\/subagent>/g)];
    expect(sections.map((m) => Number(m[1]))).toEqual(tasks.map((_, i) => i + 1));
    expect(new Set(sections.map((m) => m[2])).size).toBe(16);
    expect(sections[0]![3]).toBe("completed");
    expect(sections[0]![4]).toBe("result of survey part 01");
    expect(sections[4]![3]).toBe("failed");
    expect(sections[4]![4]).toContain("this model does not exist");
    expect(sections[10]![3]).toBe("failed");
    expect(sections[10]![4]).toBe("it ended without a final answer");
    // A partial failure is not a failed call: the model reads the statuses.
    expect(ui.events.find((e) => e.type === "tool-end" && e.tool === "agent")).toMatchObject({ status: "ok", summary: "16 sub-agents: 14 completed, 2 failed" });
    const ends = subagentEvents(events).filter((e): e is SubagentEndEvent => e.phase === "end");
    expect(ends).toHaveLength(16);
    expect(ends.filter((e) => e.status === "failed").map((e) => e.id).sort()).toEqual([sections[4]![2], sections[10]![2]].sort());
  });

  it("fails the call when every task fails, with each failure and session id", async () => {
    llm.onPrompt("delegate two doomed tasks").reply().tool("agent", { tasks: ["doomed one", "doomed two"] });
    llm.onPrompt("doomed one").reply().httpError(401, "invalid api key");
    llm.onPrompt("doomed two").reply().httpError(401, "invalid api key");
    llm.onPrompt("delegate two doomed tasks").reply().text("Both failed.");
    const { ui, events } = await runTree("delegate two doomed tasks");
    const output = requestToolResults(requestsFor("delegate two doomed tasks")[1]!)[0]!;
    expect(output).toMatch(/^All 2 sub-agents ended without an answer \(2 at a time\): 0 completed, 2 failed\./);
    expect(output).toMatch(/<subagent task="1\/2" sessionID="[^"]+" state="failed">\nthe model call failed: 401/);
    expect(ui.events.find((e) => e.type === "tool-end" && e.tool === "agent")).toMatchObject({ status: "error" });
    expect(events.find((e) => e.type === "tool" && e.tool === "agent")).toMatchObject({ status: "error" });
    // The request body carried it as an error result.
    const toolMessage = (requestsFor("delegate two doomed tasks")[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "tool");
    expect(toolMessage?.content).toContain("All 2 sub-agents");
  });

  it("a single task that fails is an error result that keeps its session id", async () => {
    llm.onPrompt("delegate one doomed task").reply().tool("agent", { prompt: "doomed alone" });
    llm.onPrompt("doomed alone").reply().httpError(400, "bad request");
    llm.onPrompt("delegate one doomed task").reply().text("It failed.");
    const { ui } = await runTree("delegate one doomed task");
    const output = requestToolResults(requestsFor("delegate one doomed task")[1]!)[0]!;
    expect(output).toMatch(/^<subagent sessionID="[^"]+" state="failed">\nthe model call failed: 400[^\n]*\n<\/subagent>\nContinue it with this session_id/);
    expect(ui.events.find((e) => e.type === "tool-end" && e.tool === "agent")).toMatchObject({ status: "error" });
  });

  it("answers too many tasks, empty input, an empty task, prompt and tasks together, and session_id with tasks with clear errors", async () => {
    const seventeen = Array.from({ length: 17 }, (_, i) => `t${i}`);
    llm
      .onPrompt("try bad calls")
      .reply()
      .tool("agent", { tasks: seventeen })
      .tool("agent", { prompt: "   " })
      .tool("agent", { tasks: [] })
      .tool("agent", { tasks: ["fine", " "] })
      .tool("agent", { prompt: "one", tasks: ["two"] })
      .tool("agent", { tasks: ["a", "b"], session_id: "x" })
      .tool("agent", { promt: "typo" });
    llm.onPrompt("try bad calls").reply().text("Understood.");
    const { result } = await runTree("try bad calls");
    expect(result.reason).toBe("final");
    const outputs = requestToolResults(requestsFor("try bad calls")[1]!);
    expect(outputs).toEqual([
      "Error: invalid arguments for agent: tasks: at most 16 tasks per call; group small tasks together or call agent again",
      "Error: say what to do: give a non-empty prompt, or tasks (a list of prompts)",
      "Error: say what to do: give a non-empty prompt, or tasks (a list of prompts)",
      "Error: task 2 of 2 is empty; every task needs a complete prompt",
      "Error: give either prompt (one task) or tasks (several), not both",
      "Error: session_id continues one conversation: use it with prompt, not with tasks",
      expect.stringContaining("Error: invalid arguments for agent:"),
    ]);
    // No sub-agent ever started.
    expect(llm.requests).toHaveLength(2);
  });

  it("leaves the agent tool out at the depth limit, so the model never sees it", async () => {
    llm.onPrompt("level zero").reply().tool("agent", { prompt: "level one" });
    llm.onPrompt("level one").reply().tool("agent", { prompt: "level two" });
    llm.onPrompt("level two").reply().text("deepest answer");
    llm.onPrompt("level one").reply().text("middle answer");
    llm.onPrompt("level zero").reply().text("top answer");
    const { events, session } = await runTree("level zero", { settings: { maxDepth: 2 } });
    const [one] = requestsFor("level one");
    const [two] = requestsFor("level two");
    expect(requestToolNames(one!)).toEqual(["read", "write", "edit", "glob", "grep", "bash", "agent"]);
    const agentTool = (one!.body.tools as { function: { name: string; description: string } }[]).find((t) => t.function.name === "agent")!;
    expect(agentTool.function.description).toContain("Sub-agents started here cannot delegate further.");
    expect(requestToolNames(two!)).toEqual(["read", "write", "edit", "glob", "grep", "bash"]);
    expect(requestToolResults(requestsFor("level one")[1]!)[0]).toMatch(/state="completed">\ndeepest answer\n/);
    // The top-level session records the whole tree: the grandchild names its parent's run.
    const starts = subagentEvents(events).filter((e): e is SubagentStartEvent => e.phase === "start");
    expect(starts).toMatchObject([
      { depth: 1, parent: session.id, prompt: "level one" },
      { depth: 2, parent: starts[0]!.id, parentRun: 1, prompt: "level two" },
    ]);

    llm.reset();
    llm.onPrompt("no delegation").reply().text("alone");
    await runTree("no delegation", { settings: { maxDepth: 0 } });
    expect(requestToolNames(llm.requests[0]!)).not.toContain("agent");
  });

  it("continues a sub-agent session with its context", async () => {
    const idIn = (request: RecordedRequest) => /sessionID="([^"]+)"/.exec(request.text)![1]!;
    llm.onPrompt("remember then recall").reply().tool("agent", { prompt: "remember the word kiwi" });
    llm.onPrompt("remember the word kiwi").reply().text("Noted: kiwi.");
    llm.onPrompt("remember then recall").reply((request) => new ReplyBuilder().tool("agent", { prompt: "which word was it?", session_id: idIn(request) }));
    llm.onPrompt("remember the word kiwi").reply().text("The word was kiwi.");
    llm.onPrompt("remember then recall").reply().text("kiwi");
    const { events, result } = await runTree("remember then recall");
    expect(result.text).toBe("kiwi");

    const child = requestsFor("remember the word kiwi");
    expect(child).toHaveLength(2);
    // The second run sees the first: its prompt, its answer, then the new prompt.
    const messages = (child[1]!.body.messages as { role: string; content: string }[]).filter((m) => m.role !== "system");
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "remember the word kiwi"],
      ["assistant", "Noted: kiwi."],
      ["user", "which word was it?"],
    ]);
    const outputs = requestToolResults(requestsFor("remember then recall")[2]!);
    const id = idIn(requestsFor("remember then recall")[1]!);
    expect(outputs[1]).toBe(`<subagent sessionID="${id}" state="completed">\nThe word was kiwi.\n</subagent>`);
    expect(subagentEvents(events).filter((e) => e.phase === "start")).toMatchObject([
      { id, run: 1, continued: false },
      { id, run: 2, continued: true, prompt: "which word was it?" },
    ]);
  });

  it("a continuation from another agent tree in the process keeps the model the session started with", async () => {
    const cache = new SubagentSessionCache();
    llm.onPrompt("tree on model a").reply().tool("agent", { prompt: "child of model a" });
    llm.onPrompt("child of model a").reply().text("first answer");
    llm.onPrompt("tree on model a").reply().text("ok");
    const first = await runTree("tree on model a", { cache, target: scriptedTarget(llm, "@ai-sdk/openai-compatible", { modelID: "model-a" }) });
    const id = /sessionID="([^"]+)"/.exec(requestToolResults(requestsFor("tree on model a")[1]!)[0]!)![1]!;
    expect(first.result.text).toBe("ok");

    llm.onPrompt("tree on model b").reply().tool("agent", { prompt: "go on", session_id: id });
    llm.onPrompt("child of model a").reply().text("second answer");
    llm.onPrompt("tree on model b").reply().text("ok");
    const target = scriptedTarget(llm, "@ai-sdk/openai-compatible", { modelID: "model-b" });
    await runTree("tree on model b", { cache, target, model: await languageModelFor(target) });
    expect(requestsFor("tree on model b").map((r) => r.body.model)).toEqual(["model-b", "model-b"]);
    expect(requestsFor("child of model a").map((r) => r.body.model)).toEqual(["model-a", "model-a"]);
  });

  it("keeps the 32 most recently used sessions: the 33rd evicts the oldest, which is then a clear error", async () => {
    const sessions = new SubagentSessionCache();
    const batch = (letter: string) => Array.from({ length: 16 }, (_, i) => `lru ${letter}${String(i + 1).padStart(2, "0")}`);
    const idOfTask = (request: RecordedRequest, task: string) => new RegExp(`task="${task}" sessionID="([^"]+)"`).exec(request.text)![1]!;
    llm.onPrompt("fill the cache").reply().tool("agent", { tasks: batch("a") });
    llm.onPrompt("fill the cache").reply().tool("agent", { tasks: batch("b") });
    llm.onPrompt("fill the cache").reply().tool("agent", { prompt: "lru c01" });
    llm.onPrompt("fill the cache").reply((request) =>
      new ReplyBuilder().tool("agent", { prompt: "are you there?", session_id: idOfTask(request, "1/16") }).tool("agent", { prompt: "and you?", session_id: idOfTask(request, "2/16") }),
    );
    llm.onPrompt("fill the cache").reply().text("done");
    for (const task of [...batch("a"), ...batch("b"), "lru c01"]) llm.onPrompt(task).reply().text(`answer ${task}`);
    llm.onPrompt("lru a02").reply().text("still here");
    await runTree("fill the cache", { cache: sessions });

    expect(sessions.size).toBe(32);
    const outputs = requestToolResults(requestsFor("fill the cache")[4]!);
    expect(outputs[3]).toMatch(/^Error: there is no sub-agent session "[^"]+" in this bosun process: .* only the 32 most recently used are kept\. Start a new task instead/);
    expect(outputs[4]).toMatch(/state="completed">\nstill here\n/);
    expect(llm.pending()).toBe(0);
  });

  it("refuses to continue a session that is still running", async () => {
    const sessions = new SubagentSessionCache();
    llm.onPrompt("slow parent").reply().tool("agent", { prompt: "slow child" });
    llm.onPrompt("slow child").reply().latency(400).text("slow done");
    llm.onPrompt("slow parent").reply().text("finished");
    let runningId = "";
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const ui = recordingUi();
    const record = ui.onEvent;
    ui.onEvent = (event) => {
      record(event);
      if (event.type === "subagent-start") {
        runningId = event.agent.id;
        markStarted();
      }
    };
    const first = runTree("slow parent", { cache: sessions, ui });
    await started;
    llm.onPrompt("impatient parent").reply(() => new ReplyBuilder().tool("agent", { prompt: "hurry up", session_id: runningId }));
    llm.onPrompt("impatient parent").reply().text("gave up");
    const second = await runTree("impatient parent", { cache: sessions });
    expect(second.result.text).toBe("gave up");
    expect(requestToolResults(requestsFor("impatient parent")[1]!)[0]).toBe(
      `Error: sub-agent session ${runningId} is still running, so it cannot be continued now; wait for its result, or start a new task with a complete prompt.`,
    );
    expect((await first).result.text).toBe("finished");
  });

  it("redacts secrets from what a sub-agent reads and from the answer it returns", async () => {
    const secret = "tok-live-9d8c7b6a5f4e";
    llm.onPrompt("check the deploy token").reply().tool("agent", { prompt: "print the deploy token" });
    llm.onPrompt("print the deploy token").reply().tool("bash", { command: 'echo "token is $DEPLOY_TOKEN"' });
    llm.onPrompt("print the deploy token").reply().text(`The token is ${secret}.`);
    llm.onPrompt("check the deploy token").reply().text("checked");
    const { events, ui, ws, session } = await runTree("check the deploy token", { secrets: [{ name: "DEPLOY_TOKEN", value: secret }], env: { PATH: process.env.PATH, DEPLOY_TOKEN: secret } });
    const child = requestsFor("print the deploy token");
    expect(requestToolResults(child[1]!)[0]).toContain("token is [redacted:DEPLOY_TOKEN]");
    expect(requestToolResults(requestsFor("check the deploy token")[1]!)[0]).toMatch(/state="completed">\nThe token is \[redacted:DEPLOY_TOKEN\]\.\n/);
    for (const text of [JSON.stringify(events), JSON.stringify(ui.events.filter((e) => e.type !== "subagent-event")), readFileSync(join(ws.sessions, `${session.id}.jsonl`), "utf8"), ...llm.requests.map((r) => JSON.stringify(r.body))]) {
      expect(text).not.toContain(secret);
    }
  });

  it("spills a sub-agent's long outputs to files next to the top-level session", async () => {
    llm.onPrompt("count a lot").reply().tool("agent", { prompt: "print many numbers" });
    llm.onPrompt("print many numbers").reply().tool("bash", { command: "seq 1 20000" });
    llm.onPrompt("print many numbers").reply().text("printed");
    llm.onPrompt("count a lot").reply().text("done");
    const { ws, session, events } = await runTree("count a lot");
    const id = subagentEvents(events)[0]!.id;
    const spilled = readdirSync(join(ws.sessions, session.id, "subagents", id));
    expect(spilled).toHaveLength(1);
    expect(readFileSync(join(ws.sessions, session.id, "subagents", id, spilled[0]!), "utf8")).toContain("\n19999\n20000\n");
    expect(requestToolResults(requestsFor("print many numbers")[1]!)[0]).toContain(join(ws.sessions, session.id, "subagents", id));
  });

  it("never lets a sub-agent run a dangerous command that its parent's policy allowed", async () => {
    llm.onPrompt("clean both").reply().tool("bash", { command: "rm -rf build" });
    llm.onPrompt("clean both").reply().tool("agent", { prompt: "remove build2" });
    llm.onPrompt("remove build2").reply().tool("bash", { command: "rm -rf build2" });
    llm.onPrompt("remove build2").reply().text("I could not remove build2.");
    llm.onPrompt("clean both").reply().text("done");
    const ws = makeWorkspace();
    ws.write("build/a.txt", "a");
    ws.write("build2/b.txt", "b");
    await runTree("clean both", { workspace: ws, rules: { dangerous: "allow" } });
    expect(existsSync(join(ws.workdir, "build"))).toBe(false);
    expect(existsSync(join(ws.workdir, "build2", "b.txt"))).toBe(true);
    expect(requestToolResults(requestsFor("remove build2")[1]!)[0]).toMatch(/^Not run: this call is a recursive force delete \(rm -rf build2\), which always needs the user.s approval/);

    // A parent's deny passes down as deny.
    llm.reset();
    llm.onPrompt("try again").reply().tool("agent", { prompt: "remove build2 again" });
    llm.onPrompt("remove build2 again").reply().tool("bash", { command: "rm -rf build2" });
    llm.onPrompt("remove build2 again").reply().text("refused");
    llm.onPrompt("try again").reply().text("ok");
    await runTree("try again", { workspace: ws, rules: { dangerous: "deny" } });
    expect(requestToolResults(requestsFor("remove build2 again")[1]!)[0]).toContain("permissions.dangerous is deny");
    expect(existsSync(join(ws.workdir, "build2", "b.txt"))).toBe(true);
  });

  it("fires subagent_start (which may veto) and subagent_end through the extension host", async () => {
    const ws = makeWorkspace();
    const root = join(ws.root, "ext");
    const log = join(ws.root, "subagents.log");
    const put = (point: string, body: string) => {
      mkdirSync(join(root, "extensions", point), { recursive: true });
      writeFileSync(join(root, "extensions", point, "10_watch.mjs"), body);
    };
    put(
      "subagent_start",
      `import { appendFileSync } from "node:fs";
       export default async ({ agent, subagent }) => {
         appendFileSync(${JSON.stringify(log)}, "start " + agent.depth + " " + subagent.depth + " " + subagent.task + "/" + subagent.tasks + " " + subagent.prompt + "\\n");
         if (subagent.prompt.includes("forbidden")) subagent.veto = "no forbidden work";
       };`,
    );
    put("subagent_end", `import { appendFileSync } from "node:fs"; export default async ({ subagent }) => { appendFileSync(${JSON.stringify(log)}, "end " + subagent.prompt + " " + subagent.status + " " + subagent.text + "\\n"); };`);
    llm.onPrompt("watch the children").reply().tool("agent", { tasks: ["allowed work", "forbidden work"] });
    llm.onPrompt("allowed work").reply().text("did it");
    llm.onPrompt("watch the children").reply().text("ok");
    await runTree("watch the children", {
      workspace: ws,
      overrides: { extensions: new ExtensionHost([{ kind: "user", name: "user", dir: root }]) },
      settings: { concurrency: 1 },
    });
    expect(readFileSync(log, "utf8")).toBe(
      "start 0 1 1/2 allowed work\nend allowed work completed did it\nstart 0 1 2/2 forbidden work\nend forbidden work failed not run: an extension refused it: no forbidden work\n",
    );
    expect(requestToolResults(requestsFor("watch the children")[1]!)[0]).toContain('state="failed">\nnot run: an extension refused it: no forbidden work');
    expect(requestsFor("forbidden work")).toHaveLength(0);
  });
});

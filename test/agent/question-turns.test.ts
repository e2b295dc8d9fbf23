import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { QuestionTurns } from "../../src/agent/question-turns.js";
import { logFilePath } from "../../src/kernel/log.js";
import { main } from "../../src/cli/main.js";
import { createTerminalPrompter } from "../../src/cli/terminal-prompt.js";
import { Capture } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { latch, promptTerminal, until } from "./prompt-terminal.js";

const llm = useLlmServer();

const agent = { id: "s1", seq: 1, depth: 1, task: 1, tasks: 2 };
const subagentEvent = (event: AgentEvent): AgentEvent => ({ type: "subagent-event", agent, event });
const toolEnd = (callId: string): AgentEvent => subagentEvent({ type: "tool-end", callId, tool: "bash", status: "ok", summary: "exit 0", ms: 5 });

describe("question turns", () => {
  it("hold what the agents report while the agent's own question is open too, but never streamed text", async () => {
    const term = promptTerminal();
    const prompter = createTerminalPrompter(term.input, term.output, () => {});
    const delivered: AgentEvent[] = [];
    const ui = prompter.turns.holding({ onEvent: (event) => delivered.push(event) });
    const answer = prompter.askUser("Which port?", [], new AbortController().signal);
    await until(() => term.shown().includes("your answer: "));
    ui.onEvent(toolEnd("c1"));
    ui.onEvent(subagentEvent({ type: "text", delta: "thinking" }));
    ui.onEvent({ type: "text", delta: "more" });
    expect(delivered.map((event) => event.type)).toEqual(["subagent-event", "text"]);
    expect(delivered[0]).toMatchObject({ event: { type: "text" } });
    term.input.write("8080\n");
    expect(await answer).toBe("8080");
    expect(delivered.at(-1)).toEqual(toolEnd("c1"));
  });

  it("give the turn on when a held delivery throws: the next question is asked, and the error comes out of the one that was answered", async () => {
    const turns = new QuestionTurns();
    const delivered: string[] = [];
    const ui = turns.holding({
      onEvent: (event) => {
        if (event.type !== "notice") return;
        if (event.message === "boom") throw new Error("the renderer broke");
        delivered.push(event.message);
      },
    });
    const signal = new AbortController().signal;
    const firstAnswer = latch();
    const first = turns.take(signal, () => firstAnswer.promise.then(() => "first answered"));
    const second = turns.take(signal, async () => "second asked");
    ui.onEvent({ type: "notice", message: "boom" });
    ui.onEvent({ type: "notice", message: "after the failure" });
    expect(delivered).toEqual([]);
    firstAnswer.open();
    await expect(first).rejects.toThrow("the renderer broke");
    expect(await second).toBe("second asked");
    expect(delivered).toEqual(["after the failure"]);
  });
});

describe("bosun run on a terminal, while a question is open", () => {
  it("writes the log as things happen, and shows what the other sub-agents did only once the question is answered", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), '{ "subagents": { "concurrency": 2 } }');
    const env = { ...t.env, NO_COLOR: "1", BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }) };
    const asking = latch();
    llm.onPrompt("tidy up").reply().tool("agent", { tasks: ["tidy alpha", "list gamma"] });
    llm.onPrompt("tidy alpha").reply().tool("bash", { command: "rm -rf alpha-build" });
    llm.onPrompt("tidy alpha").reply().text("alpha left alone");
    llm.onPrompt("list gamma").reply().after(asking.promise).tool("bash", { command: "echo gamma-listed" });
    llm.onPrompt("list gamma").reply().text("gamma listed");
    llm.onPrompt("tidy up").reply().text("Tidied.");

    const term = promptTerminal();
    const stdout = new Capture();
    const previous = process.cwd();
    process.chdir(t.home);
    const run = main(["run", "--yes", "tidy up"], { stdout, stderr: term.output, stdin: term.input, env }).finally(() => process.chdir(previous));
    const log = logFilePath(t.paths.state);
    const logged = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    try {
      await until(() => term.shown().includes("allow [o]nce"));
      asking.open();
      // gamma's call and its end are in the log while the question is still open...
      await until(() => /"status":"completed".*"msg":"sub-agent ended"/.test(logged()));
      expect(logged()).toMatch(/"summary":"exit 0","msg":"agent tool call"/);
      // ...and not on the terminal, where only the question is.
      expect(term.shown()).not.toContain("gamma-listed");
      expect(term.shown()).not.toContain("sub-agent completed");
    } finally {
      term.input.write("d\n");
    }
    expect(await run).toBe(0);
    const shown = term.shown();
    expect(shown.indexOf("→ $ echo gamma-listed")).toBeGreaterThan(shown.indexOf("deny? "));
    expect(stdout.text).toBe("Tidied.\n");
  });
});

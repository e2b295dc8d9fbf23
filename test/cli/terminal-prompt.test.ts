import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createTerminalPrompter } from "../../src/cli/terminal-prompt.js";

function terminal() {
  const input = new PassThrough();
  let shown = "";
  const output = new Writable({
    write(chunk, _encoding, done) {
      shown += chunk.toString();
      done();
    },
  });
  const clean = () => shown.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
  /** Types a line once the prompt has been shown `count` times (as a user answers what they see). */
  const answer = async (line: string, count: number) => {
    const prompts = () => clean().split(/allow \[o\]nce|your answer/).length - 1;
    while (prompts() < count) await new Promise((r) => setTimeout(r, 5));
    input.write(`${line}\n`);
  };
  return { input, output, shown: clean, answer };
}

const request = { tool: "bash", access: "execute" as const, danger: null, description: "$ npm publish", callId: "c1" };

describe("the terminal prompter", () => {
  it("asks for approval: once, always for the session, or deny (re-asking on anything else)", async () => {
    const t = terminal();
    const prompter = createTerminalPrompter(t.input, t.output, () => {});
    const signal = new AbortController().signal;
    const first = prompter.approver(request, signal);
    await t.answer("maybe", 1);
    await t.answer("a", 2);
    expect(await first).toBe("session");
    expect(t.shown()).toContain("bosun: bash needs your approval\n    $ npm publish\n");
    expect(t.shown()).toContain("please answer o, a or d");
    const second = prompter.approver({ ...request, danger: "force-pushes with git", preview: "- a\n+ b" }, signal);
    await t.answer("", 3);
    expect(await second).toBe("deny");
    expect(t.shown()).toContain("bosun: bash wants to run something dangerous: it force-pushes with git\n    $ npm publish\n      - a\n      + b\n");
    const third = prompter.approver(request, signal);
    await t.answer("o", 4);
    expect(await third).toBe("once");
    // A sub-agent's question says which sub-agent asks.
    const fourth = prompter.approver({ ...request, agent: "sub-agent #3" }, signal);
    await t.answer("o", 5);
    expect(await fourth).toBe("once");
    expect(t.shown()).toContain("bosun: sub-agent #3: bash needs your approval\n");
  });

  it("answers the model's questions, by option number or in the user's words", async () => {
    const t = terminal();
    const prompter = createTerminalPrompter(t.input, t.output, () => {});
    const signal = new AbortController().signal;
    const picked = prompter.askUser("Which database?", ["Postgres", "SQLite"], signal);
    await t.answer("2", 1);
    expect(await picked).toBe("SQLite");
    expect(t.shown()).toContain("bosun: the agent asks: Which database?\n  1. Postgres\n  2. SQLite\n");
    const own = prompter.askUser("Which port?", [], signal);
    await t.answer("8080", 2);
    expect(await own).toBe("8080");
  });

  it("gives up a waiting question when the run is cancelled", async () => {
    const t = terminal();
    const controller = new AbortController();
    const waiting = createTerminalPrompter(t.input, t.output, () => {}).approver(request, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
  });
});

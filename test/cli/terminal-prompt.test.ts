import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ApprovalGate } from "../../src/agent/approval/approval.js";
import { AgentAbortedError } from "../../src/agent/model/errors.js";
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
  /** Waits until a prompt has been shown `count` times. */
  const prompted = async (count: number) => {
    const prompts = () => clean().split(/allow \[o\]nce|your answer/).length - 1;
    while (prompts() < count) await new Promise((r) => setTimeout(r, 5));
  };
  /** Types a line once the prompt has been shown `count` times (as a user answers what they see). */
  const answer = async (line: string, count: number) => {
    await prompted(count);
    input.write(`${line}\n`);
  };
  return { input, output, shown: clean, answer, prompted };
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

  it("shows one whole question at a time: a second one asked meanwhile appears only when the first is answered", async () => {
    const t = terminal();
    const prompter = createTerminalPrompter(t.input, t.output, () => {});
    const signal = new AbortController().signal;
    // Approvals are asked by the gate, in the prompter's turns.
    const gate = new ApprovalGate({ mode: "ask", rules: {}, approver: prompter.approver, questions: prompter.turns });
    const first = gate.forSubAgent("sub-agent #1").check({ ...request, description: "$ make one" }, signal);
    const second = gate.forSubAgent("sub-agent #2").check({ ...request, description: "$ make two" }, signal);
    const third = prompter.askUser("Which port?", [], signal);
    await t.answer("o", 1);
    expect(await first).toEqual({ allowed: true });
    expect(t.shown()).toContain("bosun: sub-agent #1: bash needs your approval (2 more questions waiting)\n    $ make one\n");
    await t.answer("d", 2);
    expect((await second).allowed).toBe(false);
    expect(t.shown()).toContain("bosun: sub-agent #2: bash needs your approval (1 more question waiting)\n    $ make two\n");
    await t.answer("8080", 3);
    expect(await third).toBe("8080");
    // Each header came right after the answer before it, never while another question was open.
    const shown = t.shown();
    expect(shown.indexOf("make two")).toBeGreaterThan(shown.indexOf("? o"));
    expect(shown.indexOf("Which port?")).toBeGreaterThan(shown.indexOf("? d"));
  });

  it("gives up the open question and the waiting ones at once when the run is cancelled, showing none of the waiting", async () => {
    const t = terminal();
    const controller = new AbortController();
    const prompter = createTerminalPrompter(t.input, t.output, () => {});
    const gate = new ApprovalGate({ mode: "ask", rules: {}, approver: prompter.approver, questions: prompter.turns });
    const open = gate.check(request, controller.signal);
    const waiting = prompter.askUser("never shown?", [], controller.signal);
    await t.prompted(1);
    controller.abort();
    await expect(open).rejects.toBeInstanceOf(AgentAbortedError);
    await expect(waiting).rejects.toBeInstanceOf(AgentAbortedError);
    expect(t.shown()).not.toContain("never shown");
    // A later question (a new run) is asked normally.
    const later = gate.check(request, new AbortController().signal);
    await t.answer("o", 2);
    expect(await later).toEqual({ allowed: true });
  });
});

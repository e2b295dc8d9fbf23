import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectSessions } from "../../src/agent/session-list.js";
import { projectScope } from "../../src/boot/project-root.js";
import { HISTORY_SIZE, openPromptHistory } from "../../src/cli/prompt-history.js";
import { unapprovedAdvice } from "../../src/cli/run-refusals.js";
import { parsePromptLine } from "../../src/cli/run-interactive.js";
import { makeFifo, makeTempHome } from "../fixtures/temp-home.js";

describe("the prompt history file", () => {
  it("appends each prompt, keeps the newest distinct ones, and leaves out those that start with a space", () => {
    const t = makeTempHome();
    const file = join(t.paths.state, "prompt-history.jsonl");
    const errors: unknown[] = [];
    const history = openPromptHistory(file, (error) => errors.push(error));
    history.add("first");
    history.add("two\nlines");
    history.add(" secret-ish");
    history.add("first");
    expect(history.entries).toEqual(["first", "two\nlines"]);
    expect(readFileSync(file, "utf8")).toBe('"first"\n"two\\nlines"\n"first"\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(openPromptHistory(file, (error) => errors.push(error)).entries).toEqual(["first", "two\nlines"]);
    expect(errors).toEqual([]);
  });

  it("rewrites a file grown past twice its size, skipping damaged lines", () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.state, "prompt-history.jsonl"), "not json\n" + Array.from({ length: 2 * HISTORY_SIZE + 5 }, (_, i) => JSON.stringify(`p${i}`)).join("\n") + "\n{");
    const history = openPromptHistory(file, () => {});
    expect(history.entries).toHaveLength(HISTORY_SIZE);
    expect(history.entries[0]).toBe(`p${2 * HISTORY_SIZE + 4}`);
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(HISTORY_SIZE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("never blocks on a file that is not a regular file, and says so once", () => {
    const t = makeTempHome();
    mkdirSync(t.paths.state, { recursive: true });
    const file = join(t.paths.state, "prompt-history.jsonl");
    makeFifo(file);
    const errors: unknown[] = [];
    const history = openPromptHistory(file, (error) => errors.push(error));
    history.add("x");
    expect(history.entries).toEqual(["x"]);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("is not a regular file");
  });
});

describe("a line typed at the interactive prompt", () => {
  it("is a command only when it starts with / and a word of letters", () => {
    expect(parsePromptLine("/model openai/gpt-5")).toEqual({ kind: "command", name: "model", argument: "openai/gpt-5" });
    expect(parsePromptLine("/Help")).toEqual({ kind: "command", name: "help", argument: "" });
    expect(parsePromptLine("/etc/hosts looks wrong")).toEqual({ kind: "message", text: "/etc/hosts looks wrong" });
    expect(parsePromptLine("//model is a word")).toEqual({ kind: "message", text: "/model is a word" });
    expect(parsePromptLine("fix /model")).toEqual({ kind: "message", text: "fix /model" });
  });
});

describe("this project, for --continue", () => {
  it("is the git root, else the bosun project, else the folder; the home folder and a shared folder only by themselves", () => {
    const t = makeTempHome();
    const repo = join(t.home, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "a", "b"), { recursive: true });
    expect(projectScope(join(repo, "a", "b"), t.home)).toEqual({ root: repo, nested: true });
    mkdirSync(join(repo, "a", ".bosun"));
    expect(projectScope(join(repo, "a", "b"), t.home)).toEqual({ root: repo, nested: true });
    mkdirSync(join(t.home, "tool", "src"), { recursive: true });
    t.write(join(t.home, "tool", "bosun.json"), "{}");
    expect(projectScope(join(t.home, "tool", "src"), t.home)).toEqual({ root: join(t.home, "tool"), nested: true });
    mkdirSync(join(t.home, ".git"));
    mkdirSync(join(t.home, "loose"));
    expect(projectScope(join(t.home, "loose"), t.home)).toEqual({ root: join(t.home, "loose"), nested: true });
    expect(projectScope(t.home, t.home)).toEqual({ root: t.home, nested: false });
    const drop = join(t.root, "drop");
    mkdirSync(drop);
    chmodSync(drop, 0o1777);
    expect(projectScope(drop, t.home)).toEqual({ root: drop, nested: false });
  });

  it("has the sessions whose folder is inside it, most recently changed first", () => {
    const t = makeTempHome();
    const dir = join(t.root, "sessions");
    mkdirSync(dir);
    const session = (id: string, workdir: string, changed: number) => {
      const file = join(dir, `${id}.jsonl`);
      writeFileSync(file, JSON.stringify({ type: "header", version: 1, id, createdAt: "2026-01-01T00:00:00.000Z", workdir, model: { providerID: "p", modelID: "m", name: "m" }, bosun: "0" }) + "\n");
      utimesSync(file, changed, changed);
    };
    session("20260101-000000-aaaaaa", "/work/app", 1_000);
    session("20260101-000000-bbbbbb", "/work/app/src", 3_000);
    session("20260101-000000-cccccc", "/work/app2", 4_000);
    session("20260101-000000-dddddd", "/work", 5_000);
    writeFileSync(join(dir, "20260101-000000-eeeeee.jsonl"), "damaged\n");
    const app = { root: "/work/app", nested: true };
    expect(projectSessions(dir, app).map((s) => s.id)).toEqual(["20260101-000000-bbbbbb", "20260101-000000-aaaaaa"]);
    expect(projectSessions(dir, app, 1).map((s) => s.id)).toEqual(["20260101-000000-bbbbbb"]);
    expect(projectSessions(dir, { root: "/work", nested: false }).map((s) => s.id)).toEqual(["20260101-000000-dddddd"]);
    expect(projectSessions(join(t.root, "none"), app)).toEqual([]);
  });
});

describe("advice for refused calls", () => {
  it("offers only what would allow these calls", () => {
    expect(unapprovedAdvice([{ tool: "bash", access: "execute", dangerous: false }], "auto-edit")).toBe(
      '1 tool call was refused (bash): it needed approval and bosun is not attached to a terminal; to allow it: rerun in a terminal to be asked, or with --yes (everything but dangerous calls), or set in bosun.json "permissions": { "bash": "allow" }',
    );
    expect(unapprovedAdvice([{ tool: "edit", access: "edit", dangerous: false }], "ask")).toContain("or with --mode auto-edit (edits), or with --yes");
  });
});

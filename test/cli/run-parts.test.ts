import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Redactor } from "../../src/kernel/redact/secrets.js";
import { projectSessions } from "../../src/agent/session/list.js";
import { projectScope } from "../../src/kernel/project-root.js";
import { HISTORY_MAX_BYTES, HISTORY_SIZE, openPromptHistory } from "../../src/cli/prompt-history.js";
import { unapprovedAdvice } from "../../src/cli/run-refusals.js";
import { parsePromptLine } from "../../src/cli/run-interactive.js";
import { makeFifo, makeTempHome } from "../fixtures/temp-home.js";

/** A history that keeps every error it reports, redacting one secret. */
function openHistory(file: string) {
  const errors: unknown[] = [];
  const redactor = new Redactor([{ name: "MY_API_KEY", value: "sk-verysecret-4242" }]);
  return { errors, opened: openPromptHistory(file, { redact: (text) => redactor.text(text), onError: (error) => errors.push(error) }) };
}

describe("the prompt history file", () => {
  it("appends each prompt, keeps the newest distinct ones, and leaves out those that start with a space", async () => {
    const t = makeTempHome();
    const file = join(t.paths.state, "prompt-history.jsonl");
    const { errors, opened } = openHistory(file);
    const history = await opened;
    history.add("first");
    history.add("two\nlines");
    history.add(" secret-ish");
    history.add("first");
    expect(history.entries).toEqual(["first", "two\nlines"]);
    expect(readFileSync(file, "utf8")).toBe('"first"\n"two\\nlines"\n"first"\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await openHistory(file).opened).entries).toEqual(["first", "two\nlines"]);
    expect(errors).toEqual([]);
  });

  it("keeps prompts redacted, and cleans a file that holds a secret at the next start", async () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.state, "prompt-history.jsonl"), `${JSON.stringify("old: sk-verysecret-4242")}\n${JSON.stringify("plain")}\n`);
    const history = await openHistory(file).opened;
    expect(history.entries).toEqual(["plain", "old: [redacted:MY_API_KEY]"]);
    history.add("use sk-verysecret-4242 twice: sk-verysecret-4242");
    expect(history.entries[0]).toBe("use [redacted:MY_API_KEY] twice: [redacted:MY_API_KEY]");
    expect(readFileSync(file, "utf8")).toBe(['"old: [redacted:MY_API_KEY]"', '"plain"', '"use [redacted:MY_API_KEY] twice: [redacted:MY_API_KEY]"', ""].join("\n"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("rewrites a file grown past twice its size, skipping damaged lines", async () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.state, "prompt-history.jsonl"), "not json\n" + Array.from({ length: 2 * HISTORY_SIZE + 5 }, (_, i) => JSON.stringify(`p${i}`)).join("\n") + "\n{");
    const history = await openHistory(file).opened;
    expect(history.entries).toHaveLength(HISTORY_SIZE);
    expect(history.entries[0]).toBe(`p${2 * HISTORY_SIZE + 4}`);
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(HISTORY_SIZE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("never blocks on a file that is not a regular file, and says so once", async () => {
    const t = makeTempHome();
    mkdirSync(t.paths.state, { recursive: true });
    const file = join(t.paths.state, "prompt-history.jsonl");
    makeFifo(file);
    const { errors, opened } = openHistory(file);
    const history = await opened;
    history.add("x");
    expect(history.entries).toEqual(["x"]);
    expect(errors.map((error) => (error as Error).message)).toEqual([`${file} is a FIFO (named pipe), not a regular file: move it away`]);
  });

  it("neither reads nor writes through a symlink in its place", async () => {
    const t = makeTempHome();
    mkdirSync(t.paths.state, { recursive: true });
    const mine = `${JSON.stringify("my own line with sk-verysecret-4242")}\n`;
    const elsewhere = t.write(join(t.home, "notes.jsonl"), mine);
    const file = join(t.paths.state, "prompt-history.jsonl");
    symlinkSync(elsewhere, file);
    const { errors, opened } = openHistory(file);
    const history = await opened;
    history.add("x");
    expect(history.entries).toEqual(["x"]);
    expect(readFileSync(elsewhere, "utf8")).toBe(mine);
    expect(errors.map((error) => (error as Error).message)).toEqual([`${file} is a symlink, not a regular file: move it away`]);
  });

  it("reads no file over its size limit, and leaves it alone", async () => {
    const t = makeTempHome();
    const line = `${JSON.stringify("x".repeat(1022))}\n`;
    const text = line.repeat(Math.ceil(HISTORY_MAX_BYTES / line.length) + 1);
    const file = t.write(join(t.paths.state, "prompt-history.jsonl"), text);
    const { errors, opened } = openHistory(file);
    const history = await opened;
    history.add("new");
    expect(history.entries).toEqual(["new"]);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(errors.map(String)).toEqual([`UnusableFileError: ${file} is larger than 16 MiB: move it away`]);
  });

  it("trims a file that holds too many bytes to a quarter of its limit, newest first", async () => {
    const t = makeTempHome();
    const prompts = Array.from({ length: 900 }, (_, i) => `${i}:${"y".repeat(10_000)}`);
    const file = t.write(join(t.paths.state, "prompt-history.jsonl"), prompts.map((prompt) => `${JSON.stringify(prompt)}\n`).join(""));
    const history = await openHistory(file).opened;
    expect(statSync(file).size).toBeLessThanOrEqual(HISTORY_MAX_BYTES / 4);
    expect(history.entries[0]).toBe(prompts.at(-1));
    expect(readFileSync(file, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([...history.entries].reverse());
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
    expect(unapprovedAdvice([{ tool: "bash", access: "execute", dangerous: false, sandbox: false }], "auto-edit")).toBe(
      '1 tool call was refused (bash): it needed approval and bosun is not attached to a terminal; to allow it: rerun in a terminal to be asked, or with --yes (everything but dangerous calls), or set in bosun.json "permissions": { "bash": "allow" }',
    );
    expect(unapprovedAdvice([{ tool: "edit", access: "edit", dangerous: false, sandbox: false }], "ask")).toContain("or with --mode auto-edit (edits), or with --yes");
  });

  it("offers no flag or permissions rule for what the sandbox stopped", () => {
    expect(unapprovedAdvice([{ tool: "bash", access: "execute", dangerous: false, sandbox: true }], "full-access")).toBe(
      '1 tool call was refused (bash (beyond the sandbox)): it needed approval and bosun is not attached to a terminal; to allow it: rerun in a terminal to be asked, or for what the sandbox stopped: add the folders to write to "sandbox.writable", or the credential files to read to "sandbox.readable", in your own bosun.json',
    );
    const mixed = unapprovedAdvice([{ tool: "read", access: "read", dangerous: false, sandbox: true }, { tool: "write", access: "edit", dangerous: false, sandbox: false }], "ask");
    expect(mixed).toContain('"permissions": { "write": "allow" }');
    expect(mixed).not.toContain('"read": "allow"');
  });
});

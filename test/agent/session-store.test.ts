import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Redactor } from "../../src/kernel/redact/secrets.js";
import { parseSessionFile, replaySession } from "../../src/agent/session/format.js";
import { FileSessionStore, MemorySessionStore } from "../../src/agent/session/store.js";
import { makeWorkspace } from "../fixtures/agent-harness.js";

const model = { providerID: "p", modelID: "m", name: "M" };

function seed(store: FileSessionStore) {
  const session = store.create({ workdir: "/w", model, bosunVersion: "1.0.0" });
  session.append({ type: "run", phase: "start", prompt: "hello there", mode: "ask", model: "p/m" });
  session.append({ type: "message", message: { role: "user", content: "hello there" } });
  session.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "hi" }] }, usage: { inputTokens: 10, outputTokens: 2 } });
  session.sync();
  session.close();
  return session;
}

describe("file sessions", () => {
  it("writes a header and one line per event, private to the user, and resumes by id or prefix", () => {
    const ws = makeWorkspace();
    const store = new FileSessionStore(ws.sessions);
    const { id } = seed(store);
    const file = join(ws.sessions, `${id}.jsonl`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(ws.sessions).mode & 0o777).toBe(0o700);
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "header", version: 1, id, workdir: "/w", model, bosun: "1.0.0" });
    expect(lines.slice(1).map((l) => l.type)).toEqual(["run", "message", "message"]);

    const resumed = store.open(id.slice(0, 18));
    expect(resumed.id).toBe(id);
    expect(resumed.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(resumed.state.lastUsage).toEqual({ usage: { inputTokens: 10, outputTokens: 2 }, messageCount: 2 });
    resumed.close();
    expect(store.list()).toMatchObject([{ id, title: "hello there", workdir: "/w" }]);
  });

  it("ignores a torn last line on load and cuts it off before appending", () => {
    const ws = makeWorkspace();
    const store = new FileSessionStore(ws.sessions);
    const { id } = seed(store);
    const file = join(ws.sessions, `${id}.jsonl`);
    const opened = store.open(id);
    opened.append({ type: "message", message: { role: "user", content: "multi-byte: naïve café ✓" } });
    opened.close();
    const good = readFileSync(file, "utf8");
    appendFileSync(file, '{"type":"message","at":"2026-01-01T00:00:00Z","message":{"role":"user","content":"naïve café ✓ ');
    const parsed = store.read(id);
    expect(parsed.tornTail).toBe(true);
    expect(parsed.events).toHaveLength(4);
    const session = store.open(id);
    expect(session.messages).toHaveLength(3);
    session.append({ type: "message", message: { role: "user", content: "again" } });
    session.close();
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(good)).toBe(true);
    expect(text.slice(good.length)).toMatch(/^\{"type":"message".*"again".*\}\n$/);
    expect(store.read(id).tornTail).toBe(false);
  });

  it("refuses a file damaged in the middle, a newer format, and an unknown id", () => {
    const ws = makeWorkspace();
    const store = new FileSessionStore(ws.sessions);
    const { id } = seed(store);
    const file = join(ws.sessions, `${id}.jsonl`);
    const lines = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, [lines[0], "garbage", ...lines.slice(1)].join("\n"));
    expect(() => store.open(id)).toThrow(`${file}:2: is not valid JSON; the session file is damaged`);
    writeFileSync(file, JSON.stringify({ type: "header", version: 99, id }) + "\n");
    expect(() => store.read(id)).toThrow("was written by a newer bosun (session format 99); upgrade bosun to open it");
    expect(() => store.open("../etc/passwd")).toThrow('no session "../etc/passwd"; bosun sessions lists them');
  });

  it("lets only one process append to a session at a time", () => {
    const ws = makeWorkspace();
    const store = new FileSessionStore(ws.sessions);
    const { id } = seed(store);
    const first = store.open(id);
    expect(() => store.open(id)).toThrow(`session ${id} is in use by another bosun (process ${process.pid}); wait for it to finish`);
    first.close();
    store.open(id).close();
  });

  it("redacts every line before it reaches the file or the state", () => {
    const ws = makeWorkspace();
    const store = new FileSessionStore(ws.sessions, new Redactor([{ name: "TOKEN", value: "tok-123456" }]));
    const session = store.create({ workdir: "/w/tok-123456", model, bosunVersion: "1" });
    session.append({ type: "message", message: { role: "user", content: "use tok-123456 please" } });
    session.close();
    const text = readFileSync(join(ws.sessions, `${session.id}.jsonl`), "utf8");
    expect(text).not.toContain("tok-123456");
    expect(text).toContain("use [redacted:TOKEN] please");
    expect(session.messages[0]).toEqual({ role: "user", content: "use [redacted:TOKEN] please" });
  });
});

describe("session replay", () => {
  it("applies stubs and summaries in order, and grants", () => {
    const at = "2026-01-01T00:00:00.000Z";
    const state = replaySession([
      { type: "message", at, message: { role: "user", content: "one" } },
      { type: "message", at, message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "read", input: {} }] } },
      { type: "message", at, message: { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "long output" } }] } },
      { type: "compaction", at, step: "stub", stubs: { c1: "[stub]" }, tokensBefore: 10, tokensAfter: 5 },
      { type: "grant", at, key: "bash" },
      { type: "message", at, message: { role: "assistant", content: [{ type: "text", text: "done" }] } },
      { type: "compaction", at, step: "summarize", replaced: 3, summary: "read a file", tokensBefore: 5, tokensAfter: 2 },
    ]);
    expect(state.grants).toEqual(new Set(["bash"]));
    expect(state.messages).toHaveLength(2);
    expect(state.messages[0]!.content).toMatch(/^\[Summary of the earlier part of this conversation, written to save context\]\n\nread a file$/);
    expect(state.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "done" }] });
  });

  it("parses a file whose last complete line lost only its newline", () => {
    const header = JSON.stringify({ type: "header", version: 1, id: "x", createdAt: "", workdir: "/", model, bosun: "1" });
    const event = JSON.stringify({ type: "grant", at: "", key: "bash" });
    const parsed = parseSessionFile("f", `${header}\n${event}`);
    expect(parsed.tornTail).toBe(false);
    expect(parsed.events).toHaveLength(1);
  });
});

describe("memory sessions", () => {
  it("keep sessions in the process and can be continued by id", () => {
    const store = new MemorySessionStore();
    const session = store.create({ workdir: "/w", model, bosunVersion: "1" });
    session.append({ type: "message", message: { role: "user", content: "x" } });
    expect(store.open(session.id).messages).toHaveLength(1);
    expect(() => store.open("nope")).toThrow('no session "nope"');
  });
});

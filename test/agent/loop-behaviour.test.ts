import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { estimateMessagesTokens, estimateTextTokens } from "../../src/agent/session/compaction.js";
import { ModelCallError } from "../../src/agent/model/errors.js";
import { replaySession, type SessionEvent } from "../../src/agent/session/format.js";
import type { ProviderPackage } from "../../src/llm/model-target.js";
import { languageModelFor, makeWorkspace, recordingUi, runScripted, scriptedTarget, type RecordingUi } from "../fixtures/agent-harness.js";
import type { RecordedRequest } from "../fixtures/llm-server.js";
import { runCli } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

function sessionLines(sessions: string, id: string): Record<string, any>[] {
  return readFileSync(join(sessions, `${id}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

type ScriptedOptions = Partial<Omit<Parameters<typeof runScripted>[1], "ui">> & { ui?: RecordingUi; npm?: ProviderPackage; limits?: { context: number; output: number }; files?: Record<string, string> };

async function scripted(prompt: string, options: ScriptedOptions = {}) {
  const ws = makeWorkspace();
  for (const [path, content] of Object.entries(options.files ?? {})) ws.write(path, content);
  const target = scriptedTarget(llm, options.npm, options.limits ? { limits: options.limits } : {});
  const ui = options.ui ?? recordingUi();
  const run = runScripted(prompt, { model: await languageModelFor(target), target, workdir: ws.workdir, sessions: ws.sessions, ui, ...options });
  return { ws, ui, run };
}

describe("retries", () => {
  it("retries a stream cut mid-reply and keeps only the complete reply", async () => {
    llm.reply().text("The answ").cut();
    llm.reply().text("The answer is 42.").usage({ input: 10, output: 5 });
    const { ws, ui, run } = await scripted("question");
    const { result, session } = await run;
    expect(result.reason).toBe("final");
    expect(result.text).toBe("The answer is 42.");
    expect(llm.requests).toHaveLength(2);
    expect(ui.events.filter((e) => e.type === "retry")).toMatchObject([{ type: "retry", attempt: 1, hadPartialReply: true }]);
    const assistants = sessionLines(ws.sessions, session.id).filter((l) => l.type === "message" && l.message.role === "assistant");
    expect(assistants.map((l) => l.message.content[0].text)).toEqual(["The answer is 42."]);
  });

  it("retries rate limits, server errors, error events and a stalled stream within the budget", async () => {
    llm.reply().httpError(429, "slow down", { "retry-after": "0" });
    llm.reply().httpError(503, "overloaded");
    llm.reply().text("…").streamError("overloaded_error");
    llm.reply().text("ok").usage({ input: 5, output: 1 });
    const first = await scripted("q");
    expect((await first.run).result.text).toBe("ok");
    expect(llm.requests).toHaveLength(4);

    llm.reset();
    llm.reply().text("thinking").hang();
    llm.reply().text("recovered");
    const stalled = await scripted("q", { overrides: { idleTimeoutMs: 300 } });
    expect((await stalled.run).result.text).toBe("recovered");
    expect(stalled.ui.events.find((e) => e.type === "retry")).toMatchObject({ reason: expect.stringContaining("the model sent nothing for 0 s") });
  });

  it("gives up when the budget is spent, records the failure, and never shows the credential", async () => {
    for (let i = 0; i < 4; i++) llm.reply().httpError(500, "boom");
    const failing = await scripted("q");
    const error = await failing.run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe("the model call failed: 500: boom");
    expect(llm.requests).toHaveLength(4);

    llm.reset();
    llm.reply().httpError(401, "Incorrect API key provided: sk-test-key-0123456789");
    const unauthorized = await scripted("q", { secrets: [{ name: "SCRIPTED_API_KEY", value: "sk-test-key-0123456789" }] });
    const denied = (await unauthorized.run.catch((e: unknown) => e)) as Error;
    expect(denied.message).toBe("the model call failed: 401: Incorrect API key provided: [redacted:SCRIPTED_API_KEY]");
    expect(llm.requests).toHaveLength(1);
    const [file] = readdirSync(unauthorized.ws.sessions).filter((f) => f.endsWith(".jsonl"));
    const end = sessionLines(unauthorized.ws.sessions, file!.replace(".jsonl", "")).at(-1)!;
    expect(end).toMatchObject({ type: "run", phase: "end", reason: "error", error: "the model call failed: 401: Incorrect API key provided: [redacted:SCRIPTED_API_KEY]" });
  });
});

describe("abort", () => {
  it("stops a long bash promptly and leaves a session that can be resumed", async () => {
    llm.reply().tool("bash", { command: "sleep 30" });
    const controller = new AbortController();
    const ui = recordingUi();
    const onEvent = ui.onEvent;
    ui.onEvent = (event) => {
      onEvent(event);
      if (event.type === "tool-start") setTimeout(() => controller.abort(), 100);
    };
    const { ws, run } = await scripted("wait", { ui, signal: controller.signal });
    const started = Date.now();
    const { result, session } = await run;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.reason).toBe("aborted");
    const lines = sessionLines(ws.sessions, session.id);
    expect(lines.find((l) => l.type === "tool")).toMatchObject({ tool: "bash", status: "aborted" });
    const toolMessage = lines.filter((l) => l.type === "message").at(-1)!;
    expect(toolMessage.message.role).toBe("tool");
    expect(toolMessage.message.content[0].output.value).toContain("[stopped: cancelled by the user]");
    expect(lines.at(-1)).toMatchObject({ type: "run", phase: "end", reason: "aborted" });
  });

  it("stops a stream that hangs and keeps the text that had arrived", async () => {
    llm.reply().text("Half of my ").hang();
    const controller = new AbortController();
    const ui = recordingUi();
    const onEvent = ui.onEvent;
    ui.onEvent = (event) => {
      onEvent(event);
      if (event.type === "text") controller.abort();
    };
    const { run } = await scripted("long answer", { ui, signal: controller.signal });
    const { result, session } = await run;
    expect(result.reason).toBe("aborted");
    expect(session.messages.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "Half of my " }] });
  });
});

describe("approval in the loop", () => {
  it("a dangerous command asks even in full-access and, with no approver, is denied and the model is told why", async () => {
    llm.reply().tool("bash", { command: "rm -rf src" });
    llm.reply().text("I could not delete it: that needs your approval.");
    const { ws, ui, run } = await scripted("clean up", { mode: "full-access", files: { "src/keep.ts": "x" } });
    const { result } = await run;
    expect(existsSync(join(ws.workdir, "src/keep.ts"))).toBe(true);
    expect(ui.events.find((e) => e.type === "tool-end")).toMatchObject({ tool: "bash", status: "denied" });
    const told = JSON.stringify(llm.requests[1]!.body.messages);
    expect(told).toContain("Not run: this call is a recursive force delete (rm -rf src), which always needs the user's approval (even with --yes)");
    expect(result.text).toBe("I could not delete it: that needs your approval.");
  });

  it("asks the approver callback; a denial is what the model sees, an approval runs the tool", async () => {
    llm.reply().tool("write", { path: "a.txt", content: "one" });
    llm.reply().tool("write", { path: "b.txt", content: "two" });
    llm.reply().text("done");
    const answers = ["deny", "once"] as const;
    const asked: string[] = [];
    const { ws, run } = await scripted("write", { mode: "ask", approver: async (request) => (asked.push(`${request.description}: ${request.preview}`), answers[asked.length - 1]!) });
    await run;
    expect(asked).toEqual(["write a.txt (1 lines): + one", "write b.txt (1 lines): + two"]);
    expect(existsSync(join(ws.workdir, "a.txt"))).toBe(false);
    expect(readFileSync(join(ws.workdir, "b.txt"), "utf8")).toBe("two");
    expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain("the user declined this call");
  });

  it("per-tool deny in permissions refuses without asking", async () => {
    llm.reply().tool("bash", { command: "echo hi" });
    llm.reply().text("ok");
    const { run } = await scripted("x", { mode: "full-access", rules: { bash: "deny" }, approver: async () => "once" });
    await run;
    expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain("Not run: permissions.bash is deny in bosun.json");
  });
});

describe("secrets", () => {
  it("never reach the server's requests, the session file or spill files", async () => {
    const apiSecret = "sk-test-key-0123456789";
    const deployToken = "dpl_9f8e7d6c5b4a";
    const configured = "postgres://admin:hunter2hunter2@db/app";
    llm.reply().tool("read", { path: ".env" });
    llm.reply().tool("bash", { command: "echo token=$DEPLOY_TOKEN; echo db=$DATABASE_URL; seq 1 9000; echo $DEPLOY_TOKEN" });
    llm.reply().text("Done.");
    const secrets = [
      { name: "SCRIPTED_API_KEY", value: apiSecret },
      { name: "DEPLOY_TOKEN", value: deployToken },
      { name: "DATABASE_URL", value: configured },
    ];
    const env = { PATH: process.env.PATH, DEPLOY_TOKEN: deployToken, DATABASE_URL: configured };
    const { ws, run } = await scripted(`deploy with key ${apiSecret}`, { secrets, env, files: { ".env": `API_KEY=${apiSecret}\nDEPLOY_TOKEN=${deployToken}\n` } });
    const { session } = await run;
    const bodies = llm.requests.map((r: RecordedRequest) => JSON.stringify(r.body)).join("\n");
    for (const secret of [apiSecret, deployToken, configured]) expect(bodies).not.toContain(secret);
    expect(bodies).toContain("DEPLOY_TOKEN=[redacted:DEPLOY_TOKEN]");
    expect(bodies).toContain("token=[redacted:DEPLOY_TOKEN]");
    expect(bodies).toContain("deploy with key [redacted:SCRIPTED_API_KEY]");
    const file = readFileSync(join(ws.sessions, `${session.id}.jsonl`), "utf8");
    for (const secret of [apiSecret, deployToken, configured]) expect(file).not.toContain(secret);
    const spillDir = join(ws.sessions, session.id);
    const spilled = readdirSync(spillDir).map((name) => readFileSync(join(spillDir, name), "utf8"));
    expect(spilled).toHaveLength(1);
    expect(spilled[0]).toContain("[redacted:DEPLOY_TOKEN]");
    expect(spilled[0]).not.toContain(deployToken);
  });
});

describe("secrets broken up by control sequences", () => {
  it("are still redacted in the requests, the session file, spill files and the last lines the user sees", async () => {
    const key = "sk-verysecret-4242";
    const token = "dpl_9f8e7d6c5b4a";
    // A bold middle (the reviewer's case), grep --color highlighting the part it searched for, and a
    // NUL inside; then enough output to spill, and the same again at its end.
    // (`sec''ret`: the command itself, which the session file holds, never spells the secret out.)
    const tricks = "printf 'key=sk-very\\033[1msec''ret-4242\\033[0m\\n'; grep --color=always dpl_9f .env; printf 'nul=sk-very\\000sec''ret-4242\\n'";
    llm.reply().tool("bash", { command: `${tricks}; seq 1 9000; ${tricks}` });
    llm.reply().text("Done.");
    const secrets = [
      { name: "API_KEY", value: key },
      { name: "DEPLOY_TOKEN", value: token },
    ];
    const { ws, ui, run } = await scripted("show the keys", { secrets, files: { ".env": `TOKEN=${token}\n` } });
    const { session } = await run;
    const plain = (text: string) => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "").replace(/\u0000/g, "");
    const result = llm.requests[1]!.body.messages as { role: string; content: string }[];
    const seen = [
      String(result.find((m) => m.role === "tool")!.content),
      readFileSync(join(ws.sessions, `${session.id}.jsonl`), "utf8"),
      ...readdirSync(join(ws.sessions, session.id)).map((name) => readFileSync(join(ws.sessions, session.id, name), "utf8")),
    ];
    expect(seen).toHaveLength(3);
    for (const text of seen) {
      // What a terminal (or a reader that drops control characters) would show of it.
      const shown = plain(text.replace(/\\u001b/g, "\u001b").replace(/\\u0000/g, ""));
      expect(shown.includes("secret-4242")).toBe(false);
      expect(shown.includes("8e7d6c5b4a")).toBe(false);
      expect(text.match(/key=\[redacted:API_KEY\]/g)).toHaveLength(2);
      expect(text.match(/nul=\[redacted:API_KEY\]/g)).toHaveLength(2);
    }
    // grep's colour codes stay around what replaced the part it highlighted.
    expect(plain(seen[0]!).match(/^TOKEN=\[redacted:DEPLOY_TOKEN\]$/gm)).toHaveLength(2);
    const end = ui.events.find((event) => event.type === "tool-end");
    expect(end?.type === "tool-end" && end.outputTail).toEqual(["9000", "key=[redacted:API_KEY]", "TOKEN=[redacted:DEPLOY_TOKEN]", "nul=[redacted:API_KEY]"]);
  });
});

describe("bosun run's last lines of a command", () => {
  it("show a secret that colour codes break up redacted, never reassembled", async () => {
    const t = makeTempHome();
    const env = { ...t.env, BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }), MY_API_KEY: "sk-verysecret-4242" };
    llm.reply().tool("bash", { command: "printf 'key=sk-very\\033[1msec''ret-4242\\033[0m\\n'" });
    llm.reply().text("Done.");
    const result = await runCli(["run", "--yes", "print the key"], env, t.home);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("  ✓ exit 0\n    key=[redacted:MY_API_KEY]\n");
    expect(result.stderr).not.toContain("secret-4242");
  });
});

describe("compaction", () => {
  const limits = { context: 8_000, output: 500 };
  const big = (tag: string) => `${tag}: ${"lorem ipsum dolor sit amet\n".repeat(300)}`;

  it("stubs old tool outputs at 80% of the context, records it, and the next request fits", async () => {
    llm.reply().tool("read", { path: "one.txt" });
    llm.reply().tool("read", { path: "two.txt" });
    llm.reply().tool("read", { path: "three.txt" });
    llm.reply().text("all read");
    const { ws, ui, run } = await scripted("read them", { limits, files: { "one.txt": big("one"), "two.txt": big("two"), "three.txt": big("three") } });
    const { session, result } = await run;
    expect(result.text).toBe("all read");
    const lines = sessionLines(ws.sessions, session.id);
    const stub = lines.find((l) => l.type === "compaction");
    expect(stub).toMatchObject({ step: "stub" });
    expect(ui.events.some((e) => e.type === "compaction" && e.step === "stub")).toBe(true);
    for (const request of llm.requests) {
      const tokens = estimateTextTokens(JSON.stringify(request.body.messages));
      expect(tokens).toBeLessThanOrEqual(limits.context);
    }
    // The stub tells the model where the output went, and the model can read it back.
    const last = JSON.stringify(llm.requests.at(-1)!.body.messages);
    const spill = /the whole output is in (\S+?): read it/.exec(last)?.[1];
    expect(spill).toBeDefined();
    expect(readFileSync(spill!, "utf8")).toContain("one: lorem ipsum");
    // A resumed session sees the same compacted conversation.
    const resumed = replayMessages(lines);
    expect(estimateMessagesTokens(resumed)).toBe(estimateMessagesTokens(session.messages));
  });

  it("summarizes the oldest turns with the same model when stubs are not enough", async () => {
    // The transcript is longer than one summary request may be: it is summarized in two pieces.
    const summarizer = llm.on("You summarize the earlier part of a coding session");
    summarizer.reply().text("The user asked for long essays.");
    summarizer.reply().text("The user asked for three long essays; all were written.");
    for (let i = 0; i < 3; i++) llm.reply().text(big(`essay ${i}`));
    llm.reply().text("short answer");
    const ws = makeWorkspace();
    const target = scriptedTarget(llm, "@ai-sdk/openai-compatible", { limits });
    const model = await languageModelFor(target);
    const first = await runScripted("write essay 0", { model, target, workdir: ws.workdir, sessions: ws.sessions });
    const { FileSessionStore } = await import("../../src/agent/session/store.js");
    const store = new FileSessionStore(ws.sessions);
    for (const prompt of ["write essay 1", "write essay 2", "and now something short"]) {
      await runScripted(prompt, { model, target, workdir: ws.workdir, sessions: ws.sessions, session: store.open(first.session.id) });
    }
    const lines = sessionLines(ws.sessions, first.session.id);
    const summary = lines.find((l) => l.type === "compaction" && l.step === "summarize");
    expect(summary).toMatchObject({ summary: "The user asked for three long essays; all were written." });
    const summaryRequests = llm.requests.filter((r) => r.text.includes("You summarize the earlier part"));
    expect(summaryRequests).toHaveLength(2);
    expect(summaryRequests[0]!.body.tools).toBeUndefined();
    expect(summaryRequests[1]!.text).toContain("Summary of the conversation so far:\n\nThe user asked for long essays.");
    const last = llm.requests.at(-1)!;
    expect(JSON.stringify(last.body.messages)).toContain("[Summary of the earlier part of this conversation");
    expect(estimateTextTokens(JSON.stringify(last.body.messages))).toBeLessThanOrEqual(limits.context * 0.8);
  });

  it("counts the summary calls in bosun run's closing line and --json stats", async () => {
    const t = makeTempHome();
    const env = { ...t.env, BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, ...limits }) };
    // The replies report no usage (the context is then estimated, and fills up twice); the two summaries do.
    const summarizer = llm.on("You summarize the earlier part of a coding session");
    summarizer.reply().text("The user asked for essays; two were written.").usage({ input: 1_234, output: 56 });
    summarizer.reply().text("The user asked for essays; three were written.").usage({ input: 766, output: 44 });
    for (let i = 0; i < 3; i++) llm.reply().text(big(`essay ${i}`)).tool("glob", { pattern: `essay-${i}.md` });
    llm.reply().text("All written.");
    const result = await runCli(["run", "--yes", "--json", "write the essays"], env, t.home);
    expect(result.code, result.stderr).toBe(0);
    expect(llm.requests.filter((r) => r.text.includes("You summarize the earlier part"))).toHaveLength(2);
    expect(llm.pending()).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(json.stats.tokens).toEqual({ input: 2_000, output: 100 });
    expect(result.stderr).toMatch(/^bosun: 4 turns · 3 tool calls · 2K tokens in \/ 100 out · \d+\.\d s$/m);
  });

  it("compacts and retries when the provider says the context is too long", async () => {
    llm.reply().tool("read", { path: "one.txt" });
    llm.reply().httpError(400, "This model's maximum context length is 6000 tokens");
    llm.reply().text("fits now");
    const { ui, run } = await scripted("read", { limits: { context: 100_000, output: 500 }, files: { "one.txt": big("one") } });
    const { result } = await run;
    expect(result.text).toBe("fits now");
    expect(ui.events.some((e) => e.type === "notice" && e.message.includes("too large for the model's context"))).toBe(true);
  });
});

describe("other providers", () => {
  for (const npm of ["@ai-sdk/anthropic", "@ai-sdk/google", "@ai-sdk/openai"] as const) {
    it(`runs a tool round trip through ${npm}`, async () => {
      llm.reply().text("Listing.").tool("glob", { pattern: "*.md" }).usage({ input: 50, output: 5 });
      llm.reply().text("There is one: README.md.").usage({ input: 80, output: 7 });
      const { run } = await scripted("which markdown files?", { npm, files: { "README.md": "# hi" } });
      const { result } = await run;
      expect(result.text).toBe("There is one: README.md.");
      expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 12 });
      expect(JSON.stringify(llm.requests[1]!.body)).toContain("README.md");
      expect(llm.requests[0]!.protocol).toBe(npm === "@ai-sdk/anthropic" ? "anthropic" : npm === "@ai-sdk/google" ? "google" : "openai");
    });
  }
});

describe("model mistakes", () => {
  it("answers unknown tools, bad JSON and invalid arguments with errors the model can fix", async () => {
    llm.reply().tool("delete_everything", { x: 1 }).tool("read", {}, { rawArguments: '{"path": ' }).tool("read", { path: 7 });
    llm.reply().text("sorry");
    const { run } = await scripted("x");
    const { result } = await run;
    expect(result.reason).toBe("final");
    const results = (llm.requests[1]!.body.messages as { role: string; content: string }[]).filter((m) => m.role === "tool").map((m) => m.content);
    expect(results[0]).toMatch(/^Error: there is no tool named "delete_everything"; the tools are read, write, edit, glob, grep, bash, ask_user, plan/);
    expect(results[1]).toBe("Error: the arguments were not valid JSON; send one JSON object that matches the tool's schema");
    expect(results[2]).toBe("Error: invalid arguments for read: path: expected string, received number");
  });

  it("stops at the turn limit", async () => {
    for (let i = 0; i < 3; i++) llm.reply().tool("glob", { pattern: "*" });
    const { run } = await scripted("loop forever", { overrides: { maxTurns: 2 } });
    const { result } = await run;
    expect(result).toMatchObject({ reason: "turn-limit", turns: 2 });
    expect(llm.pending()).toBe(1);
  });
});

function replayMessages(lines: Record<string, any>[]) {
  return replaySession(lines.slice(1) as SessionEvent[]).messages;
}

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { BOSUN_BIN, runCli } from "../fixtures/cli.js";
import { KEYS, spawnInTerminal } from "../fixtures/pty.js";
import { alive, eventually, fixtureEvents, startHttpFixture, stdioEntry } from "../fixtures/mcp-fixture.js";
import { ReplyBuilder } from "../fixtures/llm-server.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const llm = useLlmServer();

function devModel(t: TempHome, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { ...t.env, BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }), ...extra };
}

/** Writes the global bosun.json with these `mcp` servers (and other sections); returns the fixture's record file. */
function configure(t: TempHome, mcp: Record<string, unknown>, rest: Record<string, unknown> = {}): void {
  t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ mcp, ...rest }, null, 2));
}

/** The tools the model was sent in a request, by name. */
function sentTools(index: number): Map<string, { description: string; parameters: Record<string, unknown> }> {
  const tools = (llm.requests[index]!.body.tools ?? []) as { function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  return new Map(tools.map((entry) => [entry.function.name, entry.function]));
}

/** What the model was given as the result of its call `callId`, in the request that followed. */
function toolResult(index: number, name: string): string {
  const messages = llm.requests[index]!.body.messages as { role: string; content: string; tool_call_id?: string }[];
  const calls = (llm.requests[index]!.body.messages as { role: string; tool_calls?: { id: string; function: { name: string } }[] }[]).flatMap((message) => message.tool_calls ?? []);
  const call = calls.findLast((entry) => entry.function.name === name);
  const result = messages.find((message) => message.role === "tool" && message.tool_call_id === call?.id);
  if (!result) throw new Error(`no result of ${name} in request ${index}`);
  return result.content;
}

describe("MCP tools in bosun run", () => {
  it("gives the model a stdio server's tools as <server>__<tool>, runs a call and stops the server with the run", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record }) });
    llm.reply().text("Echoing.").tool("fixture__echo", { text: "hello over MCP" });
    llm.reply().text("It said hello.");
    const result = await runCli(["run", "say hello through the fixture"], devModel(t), t.home);
    expect(result.stderr).not.toContain("MCP server");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Echoing.\nIt said hello.\n");
    expect(result.stderr).toContain('→ fixture__echo {"text":"hello over MCP"}');
    expect(result.stderr).toContain("✓ hello over MCP");
    const tools = sentTools(0);
    expect([...tools.keys()].filter((name) => name.includes("__"))).toEqual(["fixture__echo", "fixture__add", "fixture__write_note"]);
    expect(tools.get("fixture__add")).toEqual({ name: "fixture__add", description: "Adds two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } });
    expect(toolResult(1, "fixture__echo")).toBe("hello over MCP");
    const events = fixtureEvents(record);
    expect(events.filter((event) => event.event === "call").map((event) => event.tool)).toEqual(["echo"]);
    // Stopped with the run: no process left behind.
    expect(alive(events[0]!.pid)).toBe(false);
  });

  it("reaches a server over streamable HTTP on 127.0.0.1", async () => {
    const t = makeTempHome();
    const { url } = await startHttpFixture({ name: "remote", tools: ["add"] });
    configure(t, { calc: { url } });
    llm.reply().tool("calc__add", { a: 40, b: 2 });
    llm.reply().text("42.");
    const result = await runCli(["run", "add 40 and 2"], devModel(t), t.home);
    expect(result.code).toBe(0);
    expect(toolResult(1, "calc__add")).toBe("42");
  });

  it("says in one line which servers failed to start, and goes on with the others", async () => {
    const t = makeTempHome();
    configure(t, {
      broken: stdioEntry({ crash: true }),
      hangs: stdioEntry({ hang: true }, { startupTimeout: 0.5 }),
      noisy: stdioEntry({ garbage: true }),
      good: stdioEntry({ tools: ["echo"] }),
    });
    llm.reply().tool("good__echo", { text: "still works" });
    llm.reply().text("Done.");
    const result = await runCli(["run", "try the servers"], devModel(t), t.home);
    expect(result.code).toBe(0);
    const lines = result.stderr.split("\n").filter((line) => line.includes("MCP server"));
    expect(lines).toEqual([
      'bosun: MCP server broken (declared in ~/.config/bosun/bosun.json): it exited with code 3 before it answered initialize; its stderr ends: "fixture: cannot open the database at /nonexistent/db.sqlite"; bosun run goes on without it',
      "bosun: MCP server hangs (declared in ~/.config/bosun/bosun.json): it did not answer initialize within 0.5 s (its startupTimeout); bosun run goes on without it",
      'bosun: MCP server noisy (declared in ~/.config/bosun/bosun.json): it writes text that is not MCP on stdout ("Welcome to the fixture server!"); a server started by a command may write only JSON-RPC messages there (logs belong on stderr); bosun run goes on without it',
    ]);
    expect([...sentTools(0).keys()].filter((name) => name.includes("__"))).toEqual(["good__echo"]);
    expect(toolResult(1, "good__echo")).toBe("still works");
    const log = readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8");
    expect(log).toContain('"mcp server not used"');
  });

  it("tells the model and the user when a server stops during the run, and keeps running", async () => {
    const t = makeTempHome();
    configure(t, { fixture: stdioEntry({ tools: ["echo", "exit"] }) });
    llm.reply().tool("fixture__exit", {});
    llm.reply().tool("fixture__echo", { text: "anyone?" });
    llm.reply().text("The server is gone.");
    const result = await runCli(["run", "stress the server"], devModel(t), t.home);
    expect(result.code).toBe(0);
    const reason = 'it exited with code 1; its stderr ends: "fixture: giving up"';
    expect(toolResult(1, "fixture__exit")).toBe(`Error: the MCP server fixture stopped during the call: ${reason}; its tools are not available for the rest of this run`);
    expect(toolResult(2, "fixture__echo")).toBe(`Error: the MCP server fixture is no longer used in this run: ${reason}`);
    expect(result.stderr.split("\n").filter((line) => line.startsWith("bosun: MCP server"))).toEqual([`bosun: MCP server fixture (declared in ~/.config/bosun/bosun.json): ${reason}; bosun run goes on without it`]);
    expect(result.stdout).toBe("The server is gone.\n");
  });

  it("gives a call callTimeout seconds and a result maxOutput characters, and says so to the model", async () => {
    const t = makeTempHome();
    configure(t, { fixture: stdioEntry({ tools: ["slow", "huge"] }, { callTimeout: 0.5, maxOutput: 1000 }) });
    llm.reply().tool("fixture__slow", { ms: 10_000 });
    llm.reply().tool("fixture__huge", { size: 2500 });
    llm.reply().text("Done.");
    const result = await runCli(["run", "be slow, then big"], devModel(t), t.home);
    expect(result.code).toBe(0);
    expect(toolResult(1, "fixture__slow")).toBe("Error: the MCP server fixture did not answer within 0.5 s (its callTimeout); the call was cancelled");
    expect(toolResult(2, "fixture__huge")).toBe(`${"x".repeat(1000)}\n… [bosun cut this result at 1,000 characters (the server's maxOutput): 1,500 more of its 2,500 were not shown]`);
    expect(result.stderr).toContain("✓ 1,111 characters (1,500 more cut by the server's maxOutput)");
  });

  it("checks a call's arguments against the tool's input schema before it reaches the server", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record, tools: ["add"] }) });
    llm.reply().tool("fixture__add", { a: "two", b: 3 });
    llm.reply().text("Oops.");
    const result = await runCli(["run", "add badly"], devModel(t), t.home);
    expect(result.code).toBe(0);
    expect(toolResult(1, "fixture__add")).toBe("Error: invalid arguments for fixture__add: a: expected number, received string");
    expect(fixtureEvents(record).filter((event) => event.event === "call")).toEqual([]);
  });

  it("redacts what the servers' references stand for, and gives the server nothing else secret", async () => {
    const t = makeTempHome();
    t.write(join(t.home, "handle.txt"), "file-held-handle-8842\n");
    configure(t, { fixture: stdioEntry({ tools: ["show_env"] }, { env: { SERVICE_HANDLE: "{env:MY_SERVICE_HANDLE}", FROM_FILE: "{file:~/handle.txt}" } }) });
    llm.reply().tool("fixture__show_env", { name: "SERVICE_HANDLE" });
    llm.reply().tool("fixture__show_env", { name: "FROM_FILE" });
    llm.reply().tool("fixture__show_env", { name: "OPENAI_API_KEY" });
    llm.reply().text("Done.");
    const result = await runCli(["run", "--json", "show me the handles"], devModel(t, { MY_SERVICE_HANDLE: "env-held-handle-5531", OPENAI_API_KEY: "sk-not-for-servers-123456" }), t.home);
    expect(result.code).toBe(0);
    expect(toolResult(1, "fixture__show_env")).toBe("[redacted:MY_SERVICE_HANDLE]");
    expect(toolResult(2, "fixture__show_env")).toBe("[redacted:mcp.fixture.env.FROM_FILE]");
    // A variable that holds a credential is not in a server's environment unless its env names it.
    expect(toolResult(3, "fixture__show_env")).toBe("(not set)");
    const sessions = join(t.paths.data, "sessions");
    const files = readdirSync(sessions).filter((file) => file.endsWith(".jsonl")).map((file) => readFileSync(join(sessions, file), "utf8"));
    for (const text of [result.stdout, result.stderr, ...files, ...llm.requests.map((request) => JSON.stringify(request.body))]) {
      expect(text).not.toContain("env-held-handle-5531");
      expect(text).not.toContain("file-held-handle-8842");
    }
  });
});

describe("a server's last tool list (the tool-list cache)", () => {
  it("is offered while the server still starts: the first request waits for no server seen before, a call waits for its server; the list it gives then replaces it", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record }) });
    const initialized = () => fixtureEvents(record).filter((event) => event.event === "initialized").length;
    const run = (prompt: string, env: Record<string, string> = {}) => runCli(["run", "--yes", prompt], devModel(t, env), t.home);

    // Never seen: the first request waits for the server, whose list is then kept.
    let seen = -1;
    llm.reply(() => ((seen = initialized()), new ReplyBuilder().text("Hello.")));
    expect((await run("first")).code).toBe(0);
    expect([seen, llm.pending()]).toEqual([1, 0]);
    expect([...sentTools(0).keys()].filter((name) => name.includes("__"))).toEqual(["fixture__echo", "fixture__add", "fixture__write_note"]);
    expect(existsSync(join(t.paths.cache, "mcp-tools.json"))).toBe(true);

    // Seen before, slow to start now: the request goes out before it answers initialize; the call waits for it.
    llm.reset();
    llm.reply(() => ((seen = initialized()), new ReplyBuilder().tool("fixture__echo", { text: "waited for" })));
    llm.reply().text("Done.");
    const slow = await run("second", { FIXTURE_START_DELAY: "1500" });
    expect(slow.code, slow.stderr).toBe(0);
    expect([seen, llm.pending()]).toEqual([1, 0]);
    expect([...sentTools(0).keys()].filter((name) => name.includes("__"))).toEqual(["fixture__echo", "fixture__add", "fixture__write_note"]);
    expect(toolResult(1, "fixture__echo")).toBe("waited for");
    expect(initialized()).toBe(2);

    // It no longer offers a tool of the cached list: the call says so; its own list is kept for the next run.
    llm.reset();
    llm.reply().tool("fixture__echo", { text: "gone?" });
    llm.reply().text("Noted.");
    expect((await run("third", { FIXTURE_START_DELAY: "800", FIXTURE_TOOLS: "add" })).code).toBe(0);
    expect(toolResult(1, "fixture__echo")).toBe("Error: the MCP server fixture no longer offers the tool echo; the tools it offers now are offered from the next turn");
    llm.reset();
    llm.reply().text("Fine.");
    expect((await run("fourth", { FIXTURE_START_DELAY: "800", FIXTURE_TOOLS: "add" })).code).toBe(0);
    expect([...sentTools(0).keys()].filter((name) => name.includes("__"))).toEqual(["fixture__add"]);

    // A server of the cached list that fails to start: its calls say why, and the user gets the one line.
    llm.reset();
    llm.reply().tool("fixture__add", { a: 1, b: 2 });
    llm.reply().text("It is down.");
    const crashed = await run("fifth", { FIXTURE_CRASH: "1", FIXTURE_TOOLS: "add" });
    expect(crashed.code).toBe(0);
    const reason = 'it exited with code 3 before it answered initialize; its stderr ends: "fixture: cannot open the database at /nonexistent/db.sqlite"';
    expect(toolResult(1, "fixture__add")).toBe(`Error: the MCP server fixture is not available in this run: ${reason}`);
    expect(crashed.stderr.split("\n").filter((line) => line.startsWith("bosun: MCP server"))).toEqual([`bosun: MCP server fixture (declared in ~/.config/bosun/bosun.json): ${reason}; bosun run goes on without it`]);
  });

  it("a cache file that is not bosun's is an empty cache, and is replaced", async () => {
    const t = makeTempHome();
    configure(t, { fixture: stdioEntry({ tools: ["echo"] }) });
    const file = join(t.paths.cache, "mcp-tools.json");
    t.write(file, "{ not json");
    llm.reply().text("Hello.");
    expect((await runCli(["run", "hello"], devModel(t), t.home)).code).toBe(0);
    expect([...sentTools(0).keys()].filter((name) => name.includes("__"))).toEqual(["fixture__echo"]);
    expect(Object.values(JSON.parse(readFileSync(file, "utf8")).servers).map((list) => (list as { tools: { name: string }[] }).tools.map((tool) => tool.name))).toEqual([["echo"]]);
  });
});

describe("approval of MCP tools", () => {
  it("refuses a tool whose rule is deny, naming the setting, and never calls the server", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record, tools: ["echo", "wipe"] }, { tools: { wipe: "deny" } }), other: stdioEntry({ name: "other", tools: ["echo"] }, { approval: "deny" }) });
    llm.reply().tool("fixture__wipe", {});
    llm.reply().tool("other__echo", { text: "x" });
    llm.reply().text("Both refused.");
    const result = await runCli(["run", "--yes", "wipe it"], devModel(t), t.home);
    expect(result.code).toBe(0);
    expect(toolResult(1, "fixture__wipe")).toBe("Not run: mcp.fixture.tools.wipe is deny in bosun.json. Do not retry it; find another way or tell the user what you need.");
    expect(toolResult(2, "other__echo")).toBe("Not run: mcp.other.approval is deny in bosun.json. Do not retry it; find another way or tell the user what you need.");
    expect(fixtureEvents(record).filter((event) => event.event === "call")).toEqual([]);
  });

  it("asks for a tool that does not say it only reads; without a terminal it is refused, naming mcp.<server>.tools.<tool>", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record, tools: ["echo", "write_note", "wipe"] }) });
    llm.reply().tool("fixture__echo", { text: "reading is fine" });
    llm.reply().tool("fixture__write_note", { note: "remember" });
    llm.reply().tool("fixture__wipe", {});
    llm.reply().text("I need approval.");
    const result = await runCli(["run", "take notes"], devModel(t), t.home);
    expect(result.code).toBe(3);
    expect(toolResult(1, "fixture__echo")).toBe("reading is fine");
    expect(toolResult(2, "fixture__write_note")).toBe(
      "Not run: fixture__write_note needs the user's approval in ask mode, and nobody can approve in this session (bosun is not attached to a terminal). Do not retry it. Tell the user what you wanted to do; they can rerun with --yes or --mode, or set mcp.fixture.tools.write_note to allow in bosun.json.",
    );
    // readOnlyHint and destructiveHint both: it is not taken as only reading.
    expect(toolResult(3, "fixture__wipe")).toContain("Not run: fixture__wipe needs the user's approval in ask mode");
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
      "bosun: 2 tool calls were refused (fixture__write_note, fixture__wipe): they needed approval and bosun is not attached to a terminal; to allow them: rerun in a terminal to be asked, or with --yes (everything but dangerous calls), or set mcp.fixture.tools.write_note, mcp.fixture.tools.wipe to \"allow\" in bosun.json",
    );
    expect(fixtureEvents(record).filter((event) => event.event === "call").map((event) => event.tool)).toEqual(["echo"]);
  });

  it("runs an ask tool with --yes, and an allow tool in ask mode", async () => {
    const t = makeTempHome();
    configure(t, { fixture: stdioEntry({ tools: ["write_note", "wipe"] }, { tools: { wipe: "allow" } }) });
    llm.reply().tool("fixture__write_note", { note: "with --yes" });
    llm.reply().text("Noted.");
    expect((await runCli(["run", "--yes", "note it"], devModel(t), t.home)).code).toBe(0);
    expect(toolResult(1, "fixture__write_note")).toBe("noted: with --yes");

    llm.reply().tool("fixture__wipe", {});
    llm.reply().text("Wiped.");
    expect((await runCli(["run", "wipe"], devModel(t), t.home)).code).toBe(0);
    expect(toolResult(3, "fixture__wipe")).toBe("wiped");
  });

  it("on a real terminal, asks before an ask tool runs", async () => {
    const t = makeTempHome();
    configure(t, { fixture: stdioEntry({ tools: ["write_note"] }) });
    llm.reply().tool("fixture__write_note", { note: "asked first" });
    llm.reply().text("Noted after asking.");
    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run", "note it, asking"], { env: { ...devModel(t), NO_COLOR: "1" }, cwd: t.home });
    const question = await term.waitFor(/allow \[o\]nce, \[a\]lways for this session, or \[d\]eny\? /);
    expect(question).toContain('fixture__write_note {"note":"asked first"}');
    term.type("o" + KEYS.enter);
    await term.waitFor("Noted after asking.");
    expect(await term.exit, term.text()).toBe(0);
    expect(toolResult(1, "fixture__write_note")).toBe("noted: asked first");
  });

  it("gives sub-agents the parent's servers (the same process) and the same rules", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record, tools: ["echo", "wipe"] }, { tools: { wipe: "deny" } }) });
    llm.onPrompt("delegate the echo").reply().tool("agent", { prompt: "echo through the fixture" });
    llm.onPrompt("echo through the fixture").reply().tool("fixture__echo", { text: "from the sub-agent" });
    llm.onPrompt("echo through the fixture").reply().tool("fixture__wipe", {});
    llm.onPrompt("echo through the fixture").reply().text("The sub-agent echoed; wiping was refused.");
    llm.onPrompt("delegate the echo").reply().text("Delegated.");
    llm.onPrompt("echo directly").reply().tool("fixture__echo", { text: "from the parent" });
    llm.onPrompt("echo directly").reply().text("Echoed.");
    const result = await runCli(["run", "--yes", "delegate the echo"], devModel(t), t.home);
    expect(result.code).toBe(0);
    const sub = llm.requests.filter((request) => request.prompt === "echo through the fixture");
    expect([...((sub[0]!.body.tools as { function: { name: string } }[]) ?? [])].map((entry) => entry.function.name)).toContain("fixture__echo");
    expect(JSON.stringify(sub[1]!.body.messages)).toContain("from the sub-agent");
    expect(JSON.stringify(sub[2]!.body.messages)).toContain("Not run: mcp.fixture.tools.wipe is deny in bosun.json");
    const events = fixtureEvents(record);
    expect(events.filter((event) => event.event === "spawned")).toHaveLength(1);
    expect(events.filter((event) => event.event === "call").map((event) => event.tool)).toEqual(["echo"]);
    expect(result.stderr).toMatch(/#1 → fixture__echo \{"text":"from the sub-agent"\}/);
  });
});

describe("MCP servers end with bosun run, however it ends", () => {
  /**
   * `bosun run` as a process whose model calls fixture__stubborn (30 s, and it does not stop for a
   * cancellation or a closed stdin): resolves once the server got the call.
   */
  async function slowCall(t: TempHome, record: string, command: (argv: string[]) => { exit: Promise<number> }): Promise<{ exit: Promise<number>; server: number }> {
    configure(t, { fixture: stdioEntry({ record, tools: ["stubborn"] }) });
    llm.reply().tool("fixture__stubborn", { ms: 30_000 });
    llm.reply().text("Done.");
    const run = command(["run", "--yes", "wait a long time"]);
    expect(await eventually(() => fixtureEvents(record).some((event) => event.event === "call"), 15_000)).toBe(true);
    return { exit: run.exit, server: fixtureEvents(record)[0]!.pid };
  }

  it("Ctrl-C on a terminal cancels the call and the run, and the server stops with it", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    let term: ReturnType<typeof spawnInTerminal> | undefined;
    const { exit, server } = await slowCall(t, record, (argv) => (term = spawnInTerminal([process.execPath, BOSUN_BIN, ...argv], { env: { ...devModel(t), NO_COLOR: "1" }, cwd: t.home })));
    term!.type(KEYS.ctrlC);
    expect(await exit).toBe(130);
    expect(term!.text()).toContain("cancelled; the session is saved");
    expect(await eventually(() => !alive(server))).toBe(true);
  });

  it("a SIGTERM to bosun: the server's process group is killed, and bosun ends by the signal", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    let pid = 0;
    const { exit, server } = await slowCall(t, record, (argv) => {
      const child = spawn(process.execPath, [BOSUN_BIN, ...argv], { env: devModel(t) as NodeJS.ProcessEnv, cwd: t.home, stdio: "ignore" });
      pid = child.pid!;
      return { exit: new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGTERM" ? 143 : -1)))) };
    });
    process.kill(pid, "SIGTERM");
    expect(await exit).toBe(143);
    // The server would otherwise live on until its 30 s call ended.
    expect(await eventually(() => !alive(server))).toBe(true);
  });
});

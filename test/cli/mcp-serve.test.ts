import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { BOSUN_BIN, runBin, runCli } from "../fixtures/cli.js";
import { codexAuthJson } from "../fixtures/codex-auth.js";
import { ACME_PROVIDERS } from "../fixtures/models-dev-data.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const CAPTURED_CLAUDE = new URL("../doctor/captured/claude-stream-global.jsonl", import.meta.url).pathname;
/** Secret values planted where bosun reads sign-in and keys: none may appear in any answer. */
const PLANTED_KEY = "sk-ant-test-PLANTEDmcpServeSECRET0123456789";
const PLANTED_ACME = "acme-PLANTED-key-value-9876543210";
const CODEX_TOKENS = ["access-token-value-0001", "refresh-token-value-0001"];

const clients: { client: Client; transport: StdioClientTransport }[] = [];
afterEach(async () => {
  for (const { client } of clients.splice(0)) await client.close().catch(() => undefined);
});

/** `bosun mcp serve` started for real (bin/bosun.js), with the SDK's own client on its stdio. */
async function serve(env: Env, cwd: string): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BOSUN_BIN, "mcp", "serve"], env: definedOnly(env), cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "bosun-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push({ client, transport });
  return { client, transport, stderr: () => stderr };
}

function definedOnly(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** The scripted model, for delegate runs. */
function devModel(env: Env): Env {
  return { ...env, BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }) };
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** bosun's log, a JSON object a line. */
function logLines(t: TempHome): Record<string, unknown>[] {
  const file = join(t.paths.state, "logs", "bosun.log");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

function fakeCli(bin: string, name: string, script: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, name), 0o755);
}

const served = ACME_PROVIDERS;

/**
 * A home with something in it for every read-only tool: bosun's pack installed for Claude (one of
 * its files edited since), a `claude` that answers doctor with a captured stream, Codex installed
 * and signed in with tokens, Claude's key in the environment, and the model list cached from a
 * local models.dev.
 */
async function seededHome(): Promise<{ t: TempHome; env: Env; project: string; models: Awaited<ReturnType<typeof startModelsServer>> }> {
  const t = makeTempHome();
  const bin = join(t.root, "bin");
  const project = join(t.root, "project");
  mkdirSync(bin, { recursive: true });
  mkdirSync(project, { recursive: true });
  fakeCli(bin, "claude", `cat '${CAPTURED_CLAUDE}'`);
  fakeCli(bin, "codex", "exit 0");
  const env: Env = { ...t.env, PATH: `${bin}:${process.env.PATH}` };
  const install = runBin(["install", "--runtime", "claude", "--scope", "global", "--yes", "--no-verify"], env, project);
  expect(install.code, install.stderr).toBe(0);
  writeFileSync(join(t.home, ".claude/commands/bosun-status.md"), "my edit\n");
  t.write(join(t.home, ".codex/auth.json"), codexAuthJson());
  const models = await startModelsServer(JSON.stringify(served));
  const withKeys = { ...env, BOSUN_MODELS_URL: models.url, ANTHROPIC_API_KEY: PLANTED_KEY, ACME_API_KEY: PLANTED_ACME };
  const refresh = await runCli(["models", "refresh"], withKeys, project);
  expect(refresh.code, refresh.stderr).toBe(0);
  return { t, env: withKeys, project, models };
}

describe("bosun mcp serve", () => {
  it("a bad --mode, or --yes with another mode, is one line and no server starts", () => {
    const t = makeTempHome();
    for (const [flags, message] of [[["--mode", "bogus"], /--mode must be one of ask, auto-edit, full-access, not "bogus"/], [["--yes", "--mode", "ask"], /--yes means --mode full-access; it cannot be combined with --mode ask/]] as const) {
      const run = runBin(["mcp", "serve", ...flags], t.env, t.home, "");
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n").filter((line) => !line.startsWith("bosun: 40_private_folders") && !line.startsWith("bosun: 10_legacy"))).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
  });

  it("lists its tools: four read-only ones and delegate, each with its input schema", async () => {
    const t = makeTempHome();
    const { client } = await serve(t.env, t.home);
    expect(client.getServerVersion()?.name).toBe("bosun");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["agents", "installed_packs", "catalog_search", "doctor", "delegate"]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== "delegate");
    }
    const delegate = tools.find((tool) => tool.name === "delegate")!;
    expect(Object.keys(delegate.inputSchema.properties!)).toEqual(["prompt", "tasks", "session_id", "model", "concurrency", "max_turns"]);
  });

  it("answers the read-only tools with what the CLI prints, and never with a secret", async () => {
    const { t, env, project, models } = await seededHome();
    const { client, stderr } = await serve(env, project);
    const results: CallToolResult[] = [];
    const ask = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await call(client, name, args);
      results.push(result);
      expect(result.isError, textOf(result)).toBeFalsy();
      // The short text, then the same data as JSON text, and as structured content.
      expect(result.content).toHaveLength(2);
      expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual(result.structuredContent);
      return result;
    };

    const agents = await ask("agents");
    const cliAgents = JSON.parse((await runCli(["agents", "--json"], env, project)).stdout);
    expect(agents.structuredContent).toEqual(cliAgents);
    const byId = (id: string) => (agents.structuredContent as { agents: { id: string; installed: boolean; auth: { connected: boolean; mode: string; authPath: string } }[] }).agents.find((a) => a.id === id)!;
    expect(byId("codex")).toMatchObject({ installed: true, auth: { connected: true, authPath: join(t.home, ".codex/auth.json") } });
    expect(byId("claude")).toMatchObject({ installed: true, auth: { connected: true, mode: "env", authPath: "ANTHROPIC_API_KEY" } });
    expect(textOf(agents)).toMatch(/^Agents: \d+ of 8 agents signed in, 2 installed\n/);
    expect(textOf(agents)).toContain("- codex: installed, signed in (own login) · ~/.codex/auth.json");
    const one = await ask("agents", { agents: ["codex"] });
    expect((one.structuredContent as { agents: unknown[] }).agents).toEqual([byId("codex")]);

    const packs = await ask("installed_packs");
    const cliPacks = JSON.parse((await runCli(["install", "--status", "--json"], env, project)).stdout);
    expect(packs.structuredContent).toEqual(cliPacks);
    const claudeRoot = cliPacks.runtimes.find((root: { runtime: string; scope: string }) => root.runtime === "claude" && root.scope === "global");
    expect(claudeRoot.packs.map((pack: { name: string }) => pack.name)).toEqual(["bosun"]);
    expect(claudeRoot.drift.modified).toEqual(["commands/bosun-status.md"]);
    expect(textOf(packs)).toMatch(/- claude global ~\/\.claude: bosun \S+, \d+ files; 1 edited/);
    const codexOnly = await ask("installed_packs", { runtimes: ["codex"], scope: "local" });
    expect((codexOnly.structuredContent as { runtimes: { runtime: string; scope: string; installed: boolean }[] }).runtimes).toMatchObject([{ runtime: "codex", scope: "local", installed: false }]);

    const search = await ask("catalog_search", { query: "ACME" });
    const listing = JSON.parse((await runCli(["models", "--json", "--all"], env, project)).stdout);
    const acme = listing.providers.find((provider: { id: string }) => provider.id === "acme");
    expect(search.structuredContent).toMatchObject({ source: "cache", query: "acme", matched: 2, truncated: false, notices: [] });
    expect((search.structuredContent as { models: unknown[] }).models).toEqual(
      acme.models.map((model: object) => ({ provider: "acme", providerName: "Acme AI", ...model, available: true, why: "key from ACME_API_KEY" })),
    );
    expect(textOf(search)).toContain("- acme/acme-large (Acme Large): 400K ctx, 32K out, $3 / $15 per 1M; key from ACME_API_KEY");
    const other = await ask("catalog_search", { provider: "other", limit: 1 });
    expect(other.structuredContent).toMatchObject({ matched: 1, models: [{ provider: "other", id: "o1", available: false, why: "not available: set OTHER_API_KEY, or run bosun auth set other" }] });
    const limited = await ask("catalog_search", { limit: 1, available_only: true, offline: true });
    expect(limited.structuredContent).toMatchObject({ truncated: true, models: [{ available: true }] });
    // The cache was fresh: nothing was downloaded again.
    expect(models.requests).toHaveLength(1);

    const doctor = await ask("doctor", { runtimes: ["claude"], timeout_seconds: 15 });
    const cliDoctor = runBin(["doctor", "--runtime", "claude", "--json"], env, project);
    expect(cliDoctor.code).toBe(1);
    const report = doctor.structuredContent as { ok: boolean; problems: unknown[]; runtimes: { runtime: string; artifacts: unknown[] }[] };
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(JSON.parse(cliDoctor.stdout).problems);
    expect(report.runtimes.map((runtime) => runtime.runtime)).toEqual(["claude"]);
    expect(report.runtimes[0]!.artifacts).toEqual(JSON.parse(cliDoctor.stdout).runtimes[0].artifacts);
    expect(textOf(doctor)).toMatch(/^doctor found 1 problem:\n- Claude Code \(global\): commands\/bosun-status\.md was edited;/);

    const everything = JSON.stringify(results) + stderr();
    for (const secret of [PLANTED_KEY, PLANTED_ACME, ...CODEX_TOKENS]) expect(everything).not.toContain(secret);
    expect(logLines(t).filter((line) => line.msg === "mcp tool call")).toHaveLength(results.length);
  });

  it("answers bad input with a tool error in one line, and goes on serving", async () => {
    const t = makeTempHome();
    const { client } = await serve(devModel(t.env), t.home);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["agents", { agents: ["nope"] }, /^unknown agent "nope"; available: a0, claude, /],
      ["agents", { extra: true }, /^agents: Unrecognized key: "extra"$/],
      ["installed_packs", { runtimes: ["nope"] }, /^unknown runtime "nope"; bosun installs into: claude, /],
      ["installed_packs", { scope: "everywhere" }, /^installed_packs: scope: expected one of "global"\|"local"$/],
      ["catalog_search", { limit: 0, provider: 3 }, /^catalog_search: provider: expected string, received number \(and 1 more problem\)$/],
      ["catalog_search", { provider: "nope", offline: true }, /^unknown provider "nope"; catalog_search without provider lists every provider's models$/],
      ["doctor", { timeout_seconds: -1 }, /^doctor: timeout_seconds: Too small: expected number to be >0$/],
      ["delegate", {}, /^delegate: say what to do: give a non-empty prompt, or tasks \(a list of prompts\)$/],
      ["delegate", { prompt: "a", tasks: ["b"] }, /^delegate: give either prompt \(one task\) or tasks \(several\), not both$/],
      ["delegate", { tasks: Array.from({ length: 17 }, () => "x") }, /^delegate: tasks: at most 16 tasks per call$/],
      ["delegate", { prompt: "x", model: "nope/nothing" }, /^model nope\/nothing is not available: with BOSUN_DEV_MODEL set, bosun knows only scripted\/m1$/],
      ["no_such_tool", {}, /^bosun has no MCP tool "no_such_tool"; its tools are agents, installed_packs, catalog_search, doctor, delegate$/],
    ];
    for (const [name, args, expected] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.content, name).toHaveLength(1);
      expect(textOf(result), name).toMatch(expected);
    }
    expect(llm.requests).toHaveLength(0);
    expect((await call(client, "agents")).isError).toBeFalsy();
  });

  it("delegate runs a task on bosun's sub-agent in the server's mode, refuses what would ask, and reports progress", async () => {
    const t = makeTempHome();
    llm.onPrompt("make the marker").reply().text("Making it.").tool("bash", { command: "touch marker.txt" }).usage({ input: 100, output: 10 });
    llm.onPrompt("make the marker").reply().text("I could not: running commands needs approval.").usage({ input: 150, output: 12 });
    const env = devModel(t.env);
    const { client } = await serve(env, t.home);
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: "delegate", arguments: { prompt: "make the marker" } }, undefined, { onprogress: (p) => progress.push(p) })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown> & { tasks: Record<string, unknown>[]; session: string };
    expect(data).toMatchObject({
      answer: "I could not: running commands needs approval.",
      status: "completed",
      model: "scripted/m1",
      mode: "ask",
      totals: { turns: 2, subagents: 1, tokens: { input: 250, output: 22 } },
      refused: [{ task: 1, tool: "bash", access: "execute", dangerous: false, sandbox: false }],
    });
    expect(data.tasks).toEqual([
      { task: 1, prompt: "make the marker", status: "completed", sessionId: expect.any(String), turns: 2, tokens: { input: 250, output: 22 }, ms: expect.any(Number), answer: "I could not: running commands needs approval." },
    ]);
    expect(data.note).toMatch(/^1 tool call was refused \(bash\): it needed approval in ask mode, and nobody can approve a delegated task; to allow it: start it with --yes/);
    expect(textOf(result)).toMatch(/^I could not: running commands needs approval\.\n\ncompleted: 1 task · 2 turns · 250 tokens in \/ 22 out · \d+\.\d s · scripted\/m1, ask mode · session \S+\n1 tool call was refused/);
    // Refused with the message bosun gives without a terminal, and nothing was run.
    expect(existsSync(join(t.home, "marker.txt"))).toBe(false);
    expect(llm.requests[1]!.text).toContain("Not run: bash needs the user's approval in ask mode, and nobody can approve in this session");

    const messages = progress.map((p) => p.message);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, index) => index + 1));
    expect(messages[0]).toMatch(/^session \S+ · scripted\/m1 · ask mode · 1 task$/);
    expect(messages).toContain("task 1/1 started: make the marker");
    expect(messages).toContain("task 1/1: → $ touch marker.txt");
    expect(messages.some((line) => line?.startsWith("task 1/1: bash denied: "))).toBe(true);
    expect(messages.at(-1)).toMatch(/^task 1\/1 completed in \d+\.\d s \(2 turns\)$/);

    // The run is a session of its own, with the sub-agent's run in its tree.
    const show = JSON.parse((await runCli(["sessions", "show", data.session, "--json"], env, t.home)).stdout);
    expect(show.events.filter((event: { type: string; phase?: string }) => event.type === "subagent" && event.phase === "end")).toMatchObject([{ status: "completed", turns: 2 }]);
    expect(show.events.find((event: { type: string }) => event.type === "run").prompt).toBe("make the marker");
  });

  it("delegate runs several tasks at once (bosun.json full-access), with each one's numbers, and continues a task by its session", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), '{ "permissions": { "mode": "full-access" } }');
    for (const name of ["alpha", "beta"]) {
      llm.onPrompt(`check ${name}`).reply().barrier("first turns", 2).tool("bash", { command: `echo ${name}-checked` }).usage({ input: 50, output: 5 });
      llm.onPrompt(`check ${name}`).reply().text(`${name} is fine`).usage({ input: 60, output: 6 });
    }
    const { client } = await serve(devModel(t.env), t.home);
    const result = await call(client, "delegate", { tasks: ["check alpha", "check beta"], concurrency: 2 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(llm.maxConcurrent).toBe(2);
    const data = result.structuredContent as { answer: string; status: string; mode: string; refused: unknown[]; tasks: { task: number; status: string; answer: string; turns: number; tokens: unknown; sessionId: string }[] };
    expect(data).toMatchObject({ status: "completed", mode: "full-access", refused: [], totals: { turns: 4, subagents: 2, tokens: { input: 220, output: 22 } } });
    expect(data.tasks.map(({ task, status, answer, turns, tokens }) => ({ task, status, answer, turns, tokens }))).toEqual([
      { task: 1, status: "completed", answer: "alpha is fine", turns: 2, tokens: { input: 110, output: 11 } },
      { task: 2, status: "completed", answer: "beta is fine", turns: 2, tokens: { input: 110, output: 11 } },
    ]);
    expect(data.answer).toBe("## Task 1 of 2: completed\n\nalpha is fine\n\n## Task 2 of 2: completed\n\nbeta is fine");
    // The commands ran: their output went back to the model.
    expect(llm.requests.filter((request) => request.text.includes("alpha-checked"))).toHaveLength(1);

    llm.on("and once more").reply().text("alpha is still fine");
    const again = await call(client, "delegate", { prompt: "and once more", session_id: data.tasks[0]!.sessionId });
    expect(again.structuredContent).toMatchObject({ status: "completed", answer: "alpha is still fine", tasks: [{ sessionId: data.tasks[0]!.sessionId, turns: 1 }] });
    // The continued sub-agent had its conversation: the first task and its command's output.
    expect(llm.requests.at(-1)!.text).toContain("alpha-checked");
  });

  it("cancelling a delegate request cancels its run, and the server goes on", async () => {
    const t = makeTempHome();
    llm.onPrompt("think for ever").reply().text("thinking").hang();
    const env = devModel(t.env);
    const { client } = await serve(env, t.home);
    const cancel = new AbortController();
    const progress: string[] = [];
    const pending = client.callTool({ name: "delegate", arguments: { prompt: "think for ever" } }, undefined, { signal: cancel.signal, onprogress: (p) => progress.push(p.message ?? "") });
    pending.catch(() => undefined);
    await until(() => llm.active === 1, "the model request");
    cancel.abort("changed my mind");
    await expect(pending).rejects.toThrow();
    // The run let go of the model's stream.
    await until(() => llm.active === 0, "the model stream to close");
    expect((await call(client, "agents")).isError).toBeFalsy();
    const session = /^session (\S+) /.exec(progress[0]!)![1]!;
    await until(() => {
      const show = runBin(["sessions", "show", session, "--json"], env, t.home);
      return show.code === 0 && JSON.parse(show.stdout).events.some((event: { type: string; phase?: string; status?: string }) => event.type === "subagent" && event.phase === "end" && event.status === "cancelled");
    }, "the session to record the cancelled sub-agent");
    await until(() => logLines(t).some((line) => line.msg === "mcp tool call" && line.tool === "delegate" && line.cancelled === true), "the log line of the cancelled call");
  });

  it("stops a running delegate and exits on SIGTERM", async () => {
    const t = makeTempHome();
    llm.onPrompt("think for ever").reply().text("thinking").hang();
    const env = devModel(t.env);
    const { client, transport } = await serve(env, t.home);
    const closed = new Promise<void>((resolve) => (client.onclose = () => resolve()));
    const progress: string[] = [];
    const pending = client.callTool({ name: "delegate", arguments: { prompt: "think for ever" } }, undefined, { onprogress: (p) => progress.push(p.message ?? "") });
    pending.catch(() => undefined);
    await until(() => llm.active === 1, "the model request");
    const started = Date.now();
    process.kill(transport.pid!, "SIGTERM");
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    // The call is answered before the server goes: cancelled, with the task as far as it got.
    expect((await pending).structuredContent).toMatchObject({ status: "cancelled", tasks: [{ task: 1, status: "cancelled", error: "cancelled" }] });
    await until(() => llm.active === 0, "the model stream to close");
    const session = /^session (\S+) /.exec(progress[0]!)![1]!;
    const show = JSON.parse(runBin(["sessions", "show", session, "--json"], env, t.home).stdout);
    expect(show.events.filter((event: { type: string; phase?: string }) => event.type === "subagent" && event.phase === "end")).toMatchObject([{ status: "cancelled" }]);
    expect(show.events.filter((event: { type: string; phase?: string }) => event.type === "run" && event.phase === "end")).toMatchObject([{ reason: "aborted" }]);
    expect(logLines(t).filter((line) => line.msg === "mcp server stopping")).toMatchObject([{ reason: "SIGTERM", running: 1 }]);
  });

  it("writes only protocol messages to stdout, and exits 0 when stdin closes", async () => {
    const t = makeTempHome();
    const child = spawn(process.execPath, [BOSUN_BIN, "mcp", "serve"], { env: t.env as NodeJS.ProcessEnv, cwd: t.home, stdio: ["pipe", "pipe", "pipe"] });
    const lines: string[] = [];
    const replies = createInterface({ input: child.stdout });
    const next = () => new Promise<string>((resolve) => replies.once("line", resolve));
    replies.on("line", (line) => lines.push(line));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    const init = JSON.parse(await next());
    expect(init).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "bosun" }, capabilities: { tools: {} } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "installed_packs", arguments: {} } });
    expect(JSON.parse(await next())).toMatchObject({ id: 2, result: { structuredContent: { runtimes: [] } } });
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdin.end();
    expect(await exit).toBe(0);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
  });
});

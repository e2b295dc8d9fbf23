import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePaths, type Env } from "../../src/kernel/paths.js";
import { runCli } from "../fixtures/cli.js";
import { describeSandboxed, sandboxLayout } from "../fixtures/sandbox.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const PLANTED = "sk-proj-Q7v9plantedCodexKey0123cD3eF5gH";

/** A user outside /tmp (a sandboxed call has a /tmp of its own): home, project, a folder beside it, a Codex login. */
function user(options: { path?: string } = {}) {
  const layout = sandboxLayout();
  const env: Env = {
    PATH: options.path ?? process.env.PATH,
    HOME: layout.home,
    XDG_CONFIG_HOME: join(layout.home, ".config"),
    XDG_DATA_HOME: join(layout.home, ".local", "share"),
    XDG_CACHE_HOME: join(layout.home, ".cache"),
    XDG_STATE_HOME: join(layout.home, ".local", "state"),
    AGENT_ZERO_HOST: "http://127.0.0.1:1",
    SCRIPTED_API_KEY: "sk-scripted-secret-value-123",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000 }),
  };
  mkdirSync(join(layout.home, ".codex"), { recursive: true });
  writeFileSync(join(layout.home, ".codex", "auth.json"), JSON.stringify({ OPENAI_API_KEY: PLANTED }));
  writeFileSync(join(layout.outside, "keep.txt"), "untouched\n");
  const paths = resolvePaths(env, layout.root);
  const config = (value: unknown) => {
    mkdirSync(paths.config, { recursive: true, mode: 0o700 });
    writeFileSync(join(paths.config, "bosun.json"), JSON.stringify(value));
  };
  return { ...layout, env, paths, config };
}

/** A PATH with node and nothing else: no bwrap on it. */
function pathWithoutBwrap(): string {
  const bin = mkdtempSync(join(tmpdir(), "bosun-nobwrap-"));
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

function everythingWritten(u: ReturnType<typeof user>): string {
  const sessions = join(u.paths.data, "sessions");
  const files = existsSync(sessions) ? readdirSync(sessions, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "utf8")) : [];
  return [...files, JSON.stringify(llm.requests.map((r) => r.body))].join("\n");
}

describe("bosun run without bubblewrap", () => {
  it('sandbox.mode "required": one line, before any model call or session file', async () => {
    const u = user({ path: pathWithoutBwrap() });
    u.config({ sandbox: { mode: "required" } });
    const result = await runCli(["run", "--yes", "list the files"], u.env, u.workdir);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").filter((line) => line.startsWith("bosun: error") || line.includes("sandbox"))).toEqual([
      'bosun: sandbox: bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap); sandbox.mode is "required", so no tool runs (fix that, or set sandbox.mode to "auto" in bosun.json)',
    ]);
    expect(llm.requests).toHaveLength(0);
    expect(existsSync(join(u.paths.data, "sessions"))).toBe(false);
  });

  it('"auto" (the default): the run goes on with the checker, and says so once', async () => {
    const u = user({ path: pathWithoutBwrap() });
    llm.reply().tool("bash", { command: "echo from-the-tool" });
    llm.reply().text("done");
    const result = await runCli(["run", "--yes", "say something"], u.env, u.workdir);
    expect(result.code).toBe(0);
    const said = result.stderr.split("\n").filter((line) => line.includes("sandbox:"));
    expect(said).toEqual(["bosun: sandbox: bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap); commands run with the command checker only"]);
    expect(JSON.stringify(llm.requests[1]!.body)).toContain("from-the-tool");
  });
});

describeSandboxed("bosun run --yes inside the sandbox", () => {
  it("cannot change a file outside the project, read another agent's login, or see its key", async () => {
    const u = user();
    llm.reply().tool("bash", { command: "echo x > ../outside/keep.txt" });
    llm.reply().tool("bash", { command: `python3 -c "open('../outside/keep.txt','w').write('py')" || echo python-failed; node -e "require('fs').rmSync('../outside', {recursive: true})" || echo node-failed` });
    llm.reply().tool("read", { path: join(u.home, ".codex", "auth.json") });
    llm.reply().tool("bash", { command: "cat ~/.codex/auth.json; env" });
    llm.reply().text("done");
    const result = await runCli(["run", "--yes", "try everything"], { ...u.env, OPENAI_API_KEY: PLANTED.replace("Codex", "Env00") }, u.workdir);
    expect(readFileSync(join(u.outside, "keep.txt"), "utf8")).toBe("untouched\n");
    expect(result.code).toBe(3); // two calls needed more than the sandbox allows, and nobody could be asked
    expect(result.stderr).toContain("2 tool calls were refused (bash (beyond the sandbox), read (beyond the sandbox))");
    const tools = (n: number) => JSON.stringify((llm.requests[n]!.body.messages as { role: string }[]).filter((m) => m.role === "tool").at(-1));
    expect(tools(1)).toContain("writes outside the sandbox's writable folders");
    expect(tools(2)).toContain("python-failed");
    expect(tools(2)).toContain("node-failed");
    expect(tools(3)).toContain("reads a credential file");
    const written = everythingWritten(u) + result.stderr + result.stdout;
    expect(written).not.toContain("plantedCodexKey");
    expect(written).not.toContain("plantedEnv00Key");
    expect(written).not.toContain("cD3eF5gH");
  });

  it("a project's bosun.json cannot turn the sandbox off or the network on", async () => {
    const u = user();
    mkdirSync(join(u.workdir, ".git"));
    writeFileSync(join(u.workdir, "bosun.json"), JSON.stringify({ sandbox: { mode: "off", network: "on" } }));
    llm.reply().tool("bash", { command: "touch ../outside/new.txt || true" });
    llm.reply().text("done");
    const result = await runCli(["run", "--yes", "x"], u.env, u.workdir);
    expect(result.stderr).toContain(`bosun: ${join(u.workdir, "bosun.json")}: sandbox.mode "off" is ignored: a project's bosun.json may only make the sandbox stricter (set it in your own bosun.json)`);
    expect(result.stderr).toContain('sandbox.network "on" is ignored');
    expect(existsSync(join(u.outside, "new.txt"))).toBe(false);
  });

  it("bosun status says how tools are contained", async () => {
    const u = user();
    const status = JSON.parse((await runCli(["status", "--json"], u.env, u.workdir)).stdout);
    expect(status.subsystems.agent.sandbox).toMatchObject({ mode: "auto", network: "off", contained: true });
    expect((await runCli(["status"], u.env, u.workdir)).stdout).toMatch(/sandbox: auto: tool commands run in bubblewrap \(\S+bwrap\), network off, credential files masked/);
  });
});

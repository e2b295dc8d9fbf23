// bosun's own pack registers `bosun mcp serve` in every agent with MCP; the pinned real CLIs are
// the judge: Claude Code, Gemini CLI and OpenCode start it and list it connected, and Codex (its
// app-server, offline) starts it, lists bosun's tools and calls one, getting the answer bosun's own
// CLI gives. Nothing here reaches the network (runRealCli: a namespace without interfaces).
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { install, PACKAGE_ROOT } from "../fixtures/install.js";
import { realCli, runRealCli, type RealCliId } from "../fixtures/real-clis.js";
import { codexAppServer } from "../fixtures/real-clis-loopback.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const TIMEOUT_MS = 120_000;
const BOSUN = `node ${join(PACKAGE_ROOT, "bin", "bosun.js")} mcp serve`;
const IDS: RealCliId[] = ["claude", "codex", "gemini", "opencode"];

/** The real CLIs' folders on PATH, so bosun, started by one of them, finds them installed. */
const pathWithClis = () => [...IDS.map((id) => dirname(realCli(id).bin)), dirname(process.execPath), "/usr/bin", "/bin"].join(":");

async function cli(t: TempHome, id: RealCliId, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const run = await runRealCli(realCli(id), args, { home: t.home, cwd, env: { ...t.env, ...env }, timeoutMs: TIMEOUT_MS });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.code, `${id} ${args.join(" ")}: ${output}`).toBe(0);
  return output;
}

describe("bosun's own pack registers bosun as an MCP server, and the real agents use it", () => {
  it("Claude Code, Gemini CLI (in a trusted folder) and OpenCode start bosun mcp serve and list it connected", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["claude", "gemini", "opencode"] });
    const work = join(t.root, "work");
    mkdirSync(work, { recursive: true });
    expect(await cli(t, "claude", ["mcp", "list"], work)).toContain(`bosun: ${BOSUN} - ✔ Connected`);
    expect(await cli(t, "gemini", ["mcp", "list"], work, { GEMINI_CLI_TRUST_WORKSPACE: "true" })).toContain(`✓ bosun: ${BOSUN} (stdio) - Connected`);
    expect(await cli(t, "opencode", ["mcp", "list"], work)).toMatch(/✓ bosun \S*connected/);
  }, 4 * TIMEOUT_MS);

  it("Codex starts it, lists bosun's tools, and calling `agents` answers what bosun agents --json prints", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["codex"] });
    const env = { ...t.env, PATH: pathWithClis() };
    const { tools, answer } = await codexAppServer(realCli("codex"), { home: t.home, env, timeoutMs: TIMEOUT_MS }, async (call) => {
      const listed = (await call("mcpServerStatus/list", {})) as { data: { name: string; serverInfo: { name: string }; tools: Record<string, { annotations?: { readOnlyHint?: boolean } }> }[] };
      const thread = (await call("thread/start", {})) as { thread: { id: string } };
      const answer = (await call("mcpServer/tool/call", { threadId: thread.thread.id, server: "bosun", tool: "agents", arguments: {} })) as { content: { type: string; text: string }[]; isError?: boolean };
      return { tools: listed.data.find((server) => server.name === "bosun"), answer };
    });
    expect(tools?.serverInfo.name).toBe("bosun");
    expect(Object.keys(tools!.tools).sort()).toEqual(["agents", "catalog_search", "delegate", "doctor", "installed_packs"]);
    expect(Object.entries(tools!.tools).filter(([, tool]) => tool.annotations?.readOnlyHint).map(([name]) => name).sort()).toEqual(["agents", "catalog_search", "doctor", "installed_packs"]);

    expect(answer.isError).toBeFalsy();
    const served = JSON.parse(answer.content[1]!.text) as { agents: { id: string; installed: boolean }[] };
    const printed = JSON.parse(runBin(["agents", "--json"], env, t.home).stdout) as typeof served;
    const installed = (report: typeof served) => report.agents.map((agent) => `${agent.id} ${agent.installed}`);
    expect(installed(served)).toEqual(installed(printed));
    expect(installed(served)).toEqual(expect.arrayContaining(["claude true", "codex true", "gemini true", "opencode true"]));
  }, 2 * TIMEOUT_MS);
});

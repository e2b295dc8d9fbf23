import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runBinAsync } from "../fixtures/cli.js";
import { install } from "../fixtures/install.js";
import { realCli, runRealCli, type RealCliId } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

// The MCP servers bosun writes, read by the pinned real CLIs: each lists the server, starts it
// (the probe server, written with the official SDK, records what it was started with) and shows
// the secret's reference, never its value; the value reaches the server only through the
// reference. The CLIs run offline (runRealCli: a network namespace with no interfaces).
const PROBE = fileURLToPath(new URL("../fixtures/mcp-probe-server.mjs", import.meta.url));
const TOKEN = "probe-token-value-7f3a";
const TOKEN_SHA = createHash("sha256").update(TOKEN).digest("hex");
const TIMEOUT_MS = 120_000;

/** A pack with one server, `probe`, whose marker file is in the pack's support folder (so `{pack-dir}` is resolved for real). */
function probePack(t: TempHome): string {
  t.write(join(t.root, "pack/pack.json"), JSON.stringify({ name: "probe-pack", version: "1.0.0", artifacts: { mcp: ["probe"] } }));
  t.write(join(t.root, "pack/files/README.txt"), "the probe server's marker file goes here\n");
  t.write(join(t.root, "pack/mcp/probe.json"), JSON.stringify({ command: "node", args: [PROBE, "{pack-dir}/started.jsonl"], env: { PROBE_TOKEN: "{env:PROBE_TOKEN}" } }));
  return join(t.root, "pack");
}

/** Runs a real CLI in the temp home, with the token in its environment; stdout and stderr together. */
async function cli(t: TempHome, id: RealCliId, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const run = await runRealCli(realCli(id), args, { home: t.home, cwd, env: { ...t.env, PROBE_TOKEN: TOKEN, ...env }, timeoutMs: TIMEOUT_MS });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.code, `${id} ${args.join(" ")}: ${output}`).toBe(0);
  expect(output, `${id} never shows the secret's value`).not.toContain(TOKEN);
  return output;
}

/** What each start of the probe server recorded: its arguments and the token's hash (the value itself is never written). */
function starts(marker: string): { argv: string[]; token: { length: number; sha: string } | null }[] {
  if (!existsSync(marker)) return [];
  return readFileSync(marker, "utf8").trim().split("\n").map((line) => JSON.parse(line));
}

function expectStartedWithToken(marker: string): void {
  const recorded = starts(marker);
  expect(recorded.length, `${marker}: the CLI started the server`).toBeGreaterThan(0);
  for (const start of recorded) expect(start).toEqual({ argv: [marker], token: { length: TOKEN.length, sha: TOKEN_SHA } });
}

describe("MCP servers bosun wrote, read by the real CLIs", () => {
  it("global: claude mcp list/get, gemini mcp list, opencode debug config and mcp list show the server with its command and the reference, start it, and it gets the token", async () => {
    const t = makeTempHome();
    await install(t, { pack: probePack(t), runtimes: ["claude", "gemini", "opencode"] });
    const work = join(t.root, "work");
    mkdirSync(work, { recursive: true });

    const claudeMarker = join(t.home, ".claude/probe-pack/started.jsonl");
    expect(await cli(t, "claude", ["mcp", "list"], work)).toContain(`probe: node ${PROBE} ${claudeMarker} - ✔ Connected`);
    const get = await cli(t, "claude", ["mcp", "get", "probe"], work);
    expect(get).toMatch(/Scope: User config/);
    expect(get).toContain("PROBE_TOKEN=${PROBE_TOKEN}");
    expectStartedWithToken(claudeMarker);

    // Gemini CLI starts user servers only in a trusted folder.
    const geminiMarker = join(t.home, ".gemini/probe-pack/started.jsonl");
    expect(await cli(t, "gemini", ["mcp", "list"], work)).toContain(`probe: node ${PROBE} ${geminiMarker} (stdio) - Disabled`);
    expect(starts(geminiMarker)).toEqual([]);
    expect(await cli(t, "gemini", ["mcp", "list"], work, { GEMINI_CLI_TRUST_WORKSPACE: "true" })).toContain(`✓ probe: node ${PROBE} ${geminiMarker} (stdio) - Connected`);
    expectStartedWithToken(geminiMarker);

    const opencodeDir = join(t.env.XDG_CONFIG_HOME!, "opencode");
    const opencodeMarker = join(opencodeDir, "probe-pack/started.jsonl");
    const config = JSON.parse(await runRealCli(realCli("opencode"), ["debug", "config"], { home: t.home, cwd: work, env: { ...t.env, PROBE_TOKEN: TOKEN }, timeoutMs: TIMEOUT_MS }).then((run) => run.stdout));
    // OpenCode shows the environment's values masked; the server started with the reference's value proves it was read.
    expect(config.mcp.probe).toEqual({ type: "local", command: ["node", PROBE, opencodeMarker], environment: { PROBE_TOKEN: "***" }, enabled: true });
    expect(readFileSync(join(opencodeDir, "opencode.json"), "utf8")).toContain('"PROBE_TOKEN": "{env:PROBE_TOKEN}"');
    const listed = await cli(t, "opencode", ["mcp", "list"], work);
    expect(listed).toMatch(/✓ probe \S*connected/);
    expectStartedWithToken(opencodeMarker);
  }, 4 * TIMEOUT_MS);

  it("a project: Claude Code lists .mcp.json's server as a project server awaiting your approval; OpenCode reads the project's opencode.json and starts it", async () => {
    const t = makeTempHome();
    const project = join(t.root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    await install(t, { pack: probePack(t), runtimes: ["claude", "opencode"], scope: "local", cwd: project });

    const claudeMarker = join(project, ".claude/probe-pack/started.jsonl");
    expect(await cli(t, "claude", ["mcp", "list"], project)).toContain(`probe: node ${PROBE} ${claudeMarker} - ⏸ Pending approval`);
    expect(await cli(t, "claude", ["mcp", "get", "probe"], project)).toMatch(/Scope: Project config/);

    const opencodeMarker = join(project, ".opencode/probe-pack/started.jsonl");
    const listed = await cli(t, "opencode", ["mcp", "list"], project);
    expect(listed).toMatch(/✓ probe \S*connected/);
    expectStartedWithToken(opencodeMarker);
  }, 4 * TIMEOUT_MS);

  it("bosun mcp sync: a server of bosun.json, synced, is listed, started and given its token by Claude Code and OpenCode", async () => {
    const t = makeTempHome();
    for (const dir of [".claude", ".config/opencode"]) mkdirSync(join(t.home, dir), { recursive: true });
    const marker = join(t.root, "synced.jsonl");
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ mcp: { synced: { command: "node", args: [PROBE, marker], env: { PROBE_TOKEN: "{env:PROBE_TOKEN}" } } } }));
    const sync = await runBinAsync(["mcp", "sync", "--yes"], t.env, { cwd: t.home, timeoutMs: TIMEOUT_MS });
    expect(sync.code, sync.stderr).toBe(0);
    const work = join(t.root, "work");
    mkdirSync(work, { recursive: true });
    expect(await cli(t, "claude", ["mcp", "list"], work)).toContain(`synced: node ${PROBE} ${marker} - ✔ Connected`);
    expect(await cli(t, "opencode", ["mcp", "list"], work)).toMatch(/✓ synced \S*connected/);
    expectStartedWithToken(marker);
  }, 4 * TIMEOUT_MS);

  it("bosun doctor asks each real CLI for its MCP servers: loaded in Claude Code, Codex and OpenCode, waiting for a trusted folder in Gemini CLI", async () => {
    const t = makeTempHome();
    const work = join(t.root, "work");
    mkdirSync(work, { recursive: true });
    await install(t, { pack: probePack(t), runtimes: ["claude", "codex", "gemini", "opencode"] });
    const bins = (["claude", "codex", "gemini", "opencode"] as const).map((id) => dirname(realCli(id).bin));
    const env = { ...t.env, PROBE_TOKEN: TOKEN, PATH: [...bins, dirname(process.execPath), "/usr/bin", "/bin"].join(":"), TMPDIR: join(t.home, ".tmp"), TERM: "dumb", LANG: "C.UTF-8" };
    mkdirSync(env.TMPDIR, { recursive: true });
    const run = await runBinAsync(["doctor", "--json", "--timeout", "150"], env, { cwd: work, wrapper: ["unshare", "-n"], setup: "ip link set lo up", timeoutMs: 4 * TIMEOUT_MS });
    expect(run.stdout, run.stderr).not.toContain(TOKEN);
    const report = JSON.parse(run.stdout) as { runtimes: { runtime: string; artifacts: { kind: string; name: string; state: string; reason?: string }[] }[] };
    const mcp = Object.fromEntries(report.runtimes.map((runtime) => [runtime.runtime, runtime.artifacts.filter((artifact) => artifact.kind === "mcp").map((artifact) => `${artifact.name} ${artifact.state}`)]));
    expect(mcp).toEqual({ claude: ["probe loaded"], codex: ["probe loaded"], gemini: ["probe waiting"], opencode: ["probe loaded"] });
    expect(run.code, run.stderr).toBe(0);
  }, 5 * TIMEOUT_MS);
});

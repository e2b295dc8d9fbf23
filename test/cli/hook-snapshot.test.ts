import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kernel/package-info.js";
import { withAgentsPart } from "../../src/cli/hook-snapshot.js";
import { packagedHelperPath } from "../../src/install/hook-helper.js";
import { AGENTS_SUMMARY_PART } from "../../src/runtimes/collect-status.js";
import { runCli } from "../fixtures/cli.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

function withHelper(): TempHome & { helper: string; snapshot: string; hook(...args: string[]): string } {
  const t = makeTempHome();
  const helper = join(t.paths.data, "bin", "bosun-hook.mjs");
  mkdirSync(join(t.paths.data, "bin"), { recursive: true, mode: 0o700 });
  copyFileSync(packagedHelperPath(packageRoot()), helper);
  const hook = (...args: string[]) => spawnSync(process.execPath, [helper, ...args], { env: t.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 10_000 }).stdout;
  return { ...t, helper, snapshot: join(t.paths.data, "hook-status.json"), hook };
}

const readSnapshot = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("the hook snapshot", () => {
  it("bosun status writes it with its summary line, 0600, in the helper's format, and the helper prints it", async () => {
    const t = withHelper();
    const status = await runCli(["status", "--json"], t.env, t.home);
    expect(status.code).toBe(0);
    const { summary } = JSON.parse(status.stdout);
    expect(summary).toMatch(/^bosun \d+\.\d+\.\d+: 0 of 8 agents signed in/);
    const snapshot = readSnapshot(t.snapshot);
    expect(snapshot).toEqual({ version: 2, generatedAt: expect.any(String), line: summary, cli: { node: process.execPath, entry: join(packageRoot(), "bin", "bosun.js") } });
    expect(Math.abs(Date.parse(snapshot.generatedAt) - Date.now())).toBeLessThan(60_000);
    expect(statSync(t.snapshot).mode & 0o777).toBe(0o600);
    // Written by renaming a temp file: none is left next to it.
    expect(readdirSync(t.paths.data).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(t.hook("session-start")).toBe(`${summary}\n`);
    // The text screen writes it too.
    t.write(t.snapshot, "{}");
    expect((await runCli(["status"], t.env, t.home)).code).toBe(0);
    expect(readSnapshot(t.snapshot).line).toBe(summary);
  });

  it("is not written when bosun's hook helper is not installed", async () => {
    const t = makeTempHome();
    expect((await runCli(["status"], t.env, t.home)).code).toBe(0);
    expect((await runCli(["agents"], t.env, t.home)).code).toBe(0);
    expect(existsSync(join(t.paths.data, "hook-status.json"))).toBe(false);
  });

  it("a snapshot that cannot be written never fails bosun status: it is logged", async () => {
    const t = withHelper();
    mkdirSync(t.snapshot);
    const status = await runCli(["status"], t.env, t.home);
    expect(status.code).toBe(0);
    expect(status.stderr).toBe("");
    expect(readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8")).toContain("hook status snapshot not written");
  });

  it("bosun agents replaces the agents' part of the line and keeps the rest", async () => {
    const t = withHelper();
    t.write(t.snapshot, JSON.stringify({ version: 2, generatedAt: "2020-01-01T00:00:00.000Z", line: "bosun 0.1.0: 0 of 8 agents signed in · bosun pack in 3 agents", cli: { node: "n", entry: "e" } }));
    const env = { ...t.env, ANTHROPIC_API_KEY: "sk-ant-test-1234567890" };
    const agents = await runCli(["agents", "--json"], env, t.home);
    expect(agents.code).toBe(0);
    const signedIn = JSON.parse(agents.stdout).agents.filter((agent: { auth: { connected: boolean } }) => agent.auth.connected).length;
    expect(signedIn).toBeGreaterThan(0);
    const snapshot = readSnapshot(t.snapshot);
    expect(snapshot.line).toBe(`bosun 0.1.0: ${signedIn} of 8 agents signed in · bosun pack in 3 agents`);
    expect(snapshot.generatedAt).not.toBe("2020-01-01T00:00:00.000Z");
    expect(snapshot.cli.entry).toBe(join(packageRoot(), "bin", "bosun.js"));
  });

  it("the agents' part: replaced in a line of this version, else a line of its own", () => {
    const part = "2 of 8 agents signed in";
    expect(withAgentsPart("bosun 1.2.3: 0 of 8 agents signed in · x", "1.2.3", part, AGENTS_SUMMARY_PART)).toBe("bosun 1.2.3: 2 of 8 agents signed in · x");
    expect(withAgentsPart("bosun 1.2.2: 0 of 8 agents signed in · x", "1.2.3", part, AGENTS_SUMMARY_PART)).toBe("bosun 1.2.3: 2 of 8 agents signed in");
    expect(withAgentsPart("bosun 1.2.3: agents, packs and the model catalog are not set up yet", "1.2.3", part, AGENTS_SUMMARY_PART)).toBe("bosun 1.2.3: 2 of 8 agents signed in");
    expect(withAgentsPart(null, "1.2.3", part, AGENTS_SUMMARY_PART)).toBe("bosun 1.2.3: 2 of 8 agents signed in");
  });

  it("bosun install writes it right after installing a hook: the next session start prints what bosun status prints", async () => {
    const t = makeTempHome();
    const install = await runCli(["install", "--runtime", "claude,gemini", "--scope", "global", "--yes"], t.env, t.home);
    expect(install.code, install.stderr).toBe(0);
    const snapshot = join(t.paths.data, "hook-status.json");
    const line = readSnapshot(snapshot).line;
    expect(statSync(snapshot).mode & 0o777).toBe(0o600);
    const helper = join(t.paths.data, "bin", "bosun-hook.mjs");
    const printed = spawnSync(process.execPath, [helper, "session-start"], { env: t.env as NodeJS.ProcessEnv, encoding: "utf8" }).stdout;
    expect(printed).toBe(`${line}\n`);
    const status = await runCli(["status", "--json"], t.env, t.home);
    expect(line).toBe(JSON.parse(status.stdout).summary);
    expect(line).toContain("bosun pack in 2 agents");
  });

  it("a dry run writes no snapshot", async () => {
    const t = makeTempHome();
    expect((await runCli(["install", "--runtime", "claude", "--scope", "global", "--dry-run"], t.env, t.home)).code).toBe(0);
    expect(existsSync(join(t.paths.data, "hook-status.json"))).toBe(false);
  });
});

describe("the installed hook command", () => {
  it("tells the helper to print JSON for Gemini, and the bare line for Claude Code and Codex", async () => {
    const t = makeTempHome();
    const install = await runCli(["install", "--runtime", "claude,codex,gemini", "--scope", "global", "--yes"], t.env, t.home);
    expect(install.code, install.stderr).toBe(0);
    const helper = join(t.paths.data, "bin", "bosun-hook.mjs");
    const command = (file: string) => JSON.parse(readFileSync(join(t.home, file), "utf8")).hooks.SessionStart[0].hooks[0].command;
    expect(command(".gemini/settings.json")).toBe(`node ${helper} --format json session-start`);
    expect(command(".claude/settings.json")).toBe(`node ${helper} session-start`);
    expect(command(".codex/hooks.json")).toBe(`node ${helper} session-start`);
  });
});

import { describe, expect, it } from "vitest";
import { startBosun } from "../../src/app/start.js";
import { reportRuntime, unverifiedNote } from "../../src/runtimes/collect-status.js";
import { getRuntime, listRuntimes } from "../../src/runtimes/registry.js";
import { runCli } from "../fixtures/cli.js";
import { makeDetection } from "../fixtures/detection.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const KEY = "sk-ant-test-only-in-bosuns-dotenv-0123456789";

interface AgentJson {
  id: string;
  installed: boolean;
  auth: { connected: boolean; mode: string; authPath: string };
  verified: boolean;
  verifiedAgainst?: string;
}

describe("detection sees the agent's environment, not bosun's .env", () => {
  it("a key only in bosun's .env makes no agent look signed in (bosun agents, bosun status)", async () => {
    const t = makeTempHome();
    t.write(`${t.paths.data}/.env`, `ANTHROPIC_API_KEY=${KEY}\nGEMINI_API_KEY=${KEY}\nOPENAI_API_KEY=${KEY}\n`);
    const agents = await runCli(["agents", "--json"], t.env, t.home);
    expect(agents.code, agents.stderr).toBe(0);
    const reports: AgentJson[] = JSON.parse(agents.stdout).agents;
    expect(reports.filter((report) => report.auth.connected).map((report) => report.id)).toEqual([]);
    expect(agents.stdout).not.toContain(KEY);
    const status = await runCli(["status", "--json"], t.env, t.home);
    const report = JSON.parse(status.stdout);
    expect(report.subsystems.agents.signedIn).toBe(0);
    // bosun itself still reads its .env (its own model catalog and agent use it).
    expect(report.dotenv).toMatchObject({ found: true, variables: 3 });
    expect(status.stdout).not.toContain(KEY);
  });

  it("the same key in the shell's environment does count", async () => {
    const t = makeTempHome();
    t.write(`${t.paths.data}/.env`, `ANTHROPIC_API_KEY=${KEY}\n`);
    const agents = await runCli(["agents", "--json"], { ...t.env, ANTHROPIC_API_KEY: KEY }, t.home);
    const claude = (JSON.parse(agents.stdout).agents as AgentJson[]).find((report) => report.id === "claude")!;
    expect(claude.auth).toMatchObject({ connected: true, authPath: "ANTHROPIC_API_KEY" });
  });

  it("the boot keeps the environment as it came (agentEnv) beside bosun's own (env, with .env loaded)", async () => {
    const t = makeTempHome();
    t.write(`${t.paths.data}/.env`, `ANTHROPIC_API_KEY=${KEY}\nSHELL_SET=from-dotenv\n`);
    const env = { ...t.env, SHELL_SET: "from-shell" };
    const boot = await startBosun({ env, cwd: t.home, skipConfig: true, spawnDetached: () => "" });
    expect(boot.env.ANTHROPIC_API_KEY).toBe(KEY);
    expect(boot.agentEnv.ANTHROPIC_API_KEY).toBeUndefined();
    expect(boot.agentEnv.SHELL_SET).toBe("from-shell");
    expect(boot.agentEnv.HOME).toBe(t.home);
  });

  it("bosun install resolves agents' folders from the agent's environment: CODEX_HOME in bosun's .env is not Codex's", async () => {
    const t = makeTempHome();
    t.write(`${t.paths.data}/.env`, `CODEX_HOME=${t.root}/elsewhere\n`);
    const dry = await runCli(["install", "--runtime", "codex", "--scope", "global", "--dry-run", "--json"], t.env, t.home);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`${t.home}/.codex`);
    expect(dry.stdout).not.toContain("elsewhere");
  });
});

describe("verified sign-in rules", () => {
  it("bosun agents --json says, per agent, whether its sign-in rules were verified against the real CLI", async () => {
    const t = makeTempHome();
    const agents = await runCli(["agents", "--json"], t.env, t.home);
    for (const report of JSON.parse(agents.stdout).agents as AgentJson[]) {
      const against = getRuntime(report.id).signInVerifiedAgainst;
      expect(report.verified).toBe(against !== undefined);
      if (against === undefined) expect("verifiedAgainst" in report).toBe(false);
      else expect(report.verifiedAgainst).toBe(against);
    }
  });

  it("a runtime with signInVerifiedAgainst is verified, with what it was verified against", async () => {
    const runtime = { ...getRuntime("claude"), signInVerifiedAgainst: "claude 2.1.197 (claude auth status)" };
    const report = await reportRuntime(runtime, {}, makeDetection().ctx);
    expect(report).toMatchObject({ verified: true, verifiedAgainst: "claude 2.1.197 (claude auth status)" });
    const { signInVerifiedAgainst: _dropped, ...unverified } = runtime;
    expect(await reportRuntime(unverified, {}, makeDetection().ctx)).toMatchObject({ verified: false });
    expect("verifiedAgainst" in (await reportRuntime(unverified, {}, makeDetection().ctx))).toBe(false);
  });

  it("the text view ends with one line naming the agents whose rules are unverified", async () => {
    const t = makeTempHome();
    const agents = await runCli(["agents"], t.env, t.home);
    const unverified = listRuntimes().filter((runtime) => runtime.signInVerifiedAgainst === undefined).map((runtime) => runtime.id);
    expect(unverified.length).toBeGreaterThan(0);
    expect(agents.stdout.trimEnd().split("\n").at(-1)).toBe(`${unverified.join(", ")}: sign-in rules from public docs, not verified against the real CLI`);
    expect(unverifiedNote([])).toBeNull();
  });
});

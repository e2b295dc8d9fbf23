import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { runBinAsync } from "../fixtures/cli.js";
import { realCli } from "../fixtures/real-clis.js";
import { makeTempHome } from "../fixtures/temp-home.js";

// bosun doctor against the pinned real CLIs, after a real `bosun install` of bosun's own pack.
// bosun runs inside a network namespace with only loopback up, so neither it nor the CLIs it
// asks can reach the network. The machine is shared: each probe gets a generous timeout.
const PROBE_TIMEOUT_S = "150";
const RUN_TIMEOUT_MS = 280_000;
const TEST_TIMEOUT_MS = 2 * RUN_TIMEOUT_MS + 20_000;

type Report = {
  ok: boolean;
  runtimes: { runtime: string; roots: { scope: string; intact: { ok: boolean; files: { path: string; change: string }[] } }[]; artifacts: { kind: string; name: string; scope: string; state: string; reason?: string }[]; probe: { failure?: string } | null }[];
  problems: { kind: string; text: string }[];
};

function setup() {
  const t = makeTempHome();
  const project = join(t.root, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  const bins = (["claude", "codex", "gemini", "opencode"] as const).map((id) => dirname(realCli(id).bin));
  const env: Env = { ...t.env, PATH: [...bins, dirname(process.execPath), "/usr/bin", "/bin"].join(":"), TMPDIR: join(t.home, ".tmp"), TERM: "dumb", LANG: "C.UTF-8" };
  mkdirSync(env.TMPDIR!, { recursive: true });
  mkdirSync(join(t.home, ".codex"), { recursive: true });
  const bosun = (args: string[]) => runBinAsync(args, env, { cwd: project, wrapper: ["unshare", "-n"], setup: "ip link set lo up", timeoutMs: RUN_TIMEOUT_MS });
  return { t, project, env, bosun };
}

const states = (report: Report, runtime: string) => Object.fromEntries(report.runtimes.find((entry) => entry.runtime === runtime)!.artifacts.map((a) => [`${a.kind} ${a.name} (${a.scope})`, a.state]));

describe("bosun doctor with the real CLIs", () => {
  it("finds bosun's pack intact and loaded in all four after a global install", async () => {
    const { bosun } = setup();
    const install = await bosun(["install", "--runtime", "claude,codex,gemini,opencode", "--scope", "global", "--yes", "--no-verify"]);
    expect(install.code, install.stderr).toBe(0);
    const run = await bosun(["doctor", "--json", "--timeout", PROBE_TIMEOUT_S]);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    for (const runtime of report.runtimes) {
      expect(runtime.probe?.failure, runtime.runtime).toBeUndefined();
      expect(runtime.roots.every((root) => root.intact.ok), runtime.runtime).toBe(true);
    }
    expect(states(report, "claude")).toEqual({
      "agent bosun-reviewer (global)": "loaded",
      "command bosun-delegate (global)": "loaded",
      "command bosun-status (global)": "loaded",
      "skill bosun-orchestrator (global)": "loaded",
      "hook bosun-session-start (global)": "loaded",
      // Claude started bosun mcp serve and lists it connected.
      "mcp bosun (global)": "loaded",
    });
    // Codex's commands are skills in $CODEX_HOME/skills, its skill in ~/.agents/skills.
    expect(states(report, "codex")).toEqual({
      "command bosun-delegate (global)": "loaded",
      "command bosun-status (global)": "loaded",
      "skill bosun-orchestrator (global)": "loaded",
      // Codex lists the hook, and runs it only once you trust it.
      "hook bosun-session-start (global)": "waiting",
      "mcp bosun (global)": "loaded",
    });
    // OpenCode keeps its own copy of the skill (it lists a skill once, from its own folder).
    expect(states(report, "opencode")).toEqual({
      "agent bosun-reviewer (global)": "loaded",
      "command bosun-delegate (global)": "loaded",
      "command bosun-status (global)": "loaded",
      "skill bosun-orchestrator (global)": "loaded",
      "mcp bosun (global)": "loaded",
    });
    // Gemini 0.61 lists only skills offline (and MCP servers, which it starts only in a trusted folder); it reads bosun's global skill from Codex's copy in ~/.agents/skills.
    expect(states(report, "gemini")).toEqual({
      "agent bosun-reviewer (global)": "unchecked",
      "command bosun-delegate (global)": "unchecked",
      "command bosun-status (global)": "unchecked",
      "hook bosun-session-start (global)": "unchecked",
      "skill bosun-orchestrator (global)": "loaded",
      "mcp bosun (global)": "waiting",
    });
  }, TEST_TIMEOUT_MS);

  it("catches an edited file and a removed skill (claude)", async () => {
    const { t, bosun } = setup();
    expect((await bosun(["install", "--runtime", "claude", "--scope", "global", "--yes", "--no-verify"])).code).toBe(0);
    writeFileSync(join(t.home, ".claude/commands/bosun-status.md"), "---\ndescription: mine now\n---\nmy text\n");
    rmSync(join(t.home, ".claude/skills/bosun-orchestrator"), { recursive: true });
    const run = await bosun(["doctor", "--runtime", "claude", "--json", "--timeout", PROBE_TIMEOUT_S]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    const files = report.runtimes[0]!.roots[0]!.intact.files;
    expect(files).toContainEqual({ path: "commands/bosun-status.md", change: "edited" });
    expect(files).toContainEqual({ path: "skills/bosun-orchestrator/SKILL.md", change: "missing" });
    const skill = report.runtimes[0]!.artifacts.find((a) => a.kind === "skill" && a.name === "bosun-orchestrator")!;
    // The manifest still lists it; Claude itself says it did not load it.
    expect(skill).toMatchObject({ state: "not-loaded", reason: "claude does not list it" });
    expect(report.problems.map((problem) => problem.text)).toContain(
      "Claude Code (global): skill bosun-orchestrator is not loaded (claude does not list it); its file changed (see above)",
    );
  }, TEST_TIMEOUT_MS);

  it("names an untrusted project folder as the reason (gemini, codex)", async () => {
    const { bosun } = setup();
    const install = await bosun(["install", "--runtime", "gemini,codex", "--scope", "local", "--yes", "--no-verify"]);
    expect(install.code, install.stderr).toBe(0);
    const run = await bosun(["doctor", "--runtime", "gemini,codex", "--json", "--timeout", PROBE_TIMEOUT_S]);
    const report = JSON.parse(run.stdout) as Report;
    expect(run.code).toBe(1);
    const gemini = report.runtimes.find((entry) => entry.runtime === "gemini")!;
    const geminiSkill = gemini.artifacts.find((a) => a.kind === "skill")!;
    expect(geminiSkill).toMatchObject({ scope: "local", state: "not-loaded", reason: "untrusted folder" });
    const codexHook = report.runtimes.find((entry) => entry.runtime === "codex")!.artifacts.find((a) => a.kind === "hook")!;
    expect(codexHook).toMatchObject({ scope: "local", state: "not-loaded" });
    expect(codexHook.reason).toMatch(/^untrusted folder/);
    expect(report.problems.some((problem) => problem.text.includes("trust this folder in Gemini CLI"))).toBe(true);
    expect(report.problems.some((problem) => problem.text.includes("trust this project in Codex"))).toBe(true);
  }, TEST_TIMEOUT_MS);

  it("reports a CLI replaced by a script that hangs as one timeout line, while the others answer", async () => {
    const { t, env, bosun } = setup();
    expect((await bosun(["install", "--runtime", "claude,codex", "--scope", "global", "--yes", "--no-verify"])).code).toBe(0);
    const fake = join(t.root, "hanging-bin");
    mkdirSync(fake);
    writeFileSync(join(fake, "claude"), "#!/bin/sh\nsleep 600\n");
    chmodSync(join(fake, "claude"), 0o755);
    env.PATH = `${fake}:${env.PATH}`;
    const run = await bosun(["doctor", "--json", "--timeout", "8"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report & { runtimes: { probe: { ms: number } | null }[] };
    const claude = report.runtimes.find((entry) => entry.runtime === "claude")!;
    expect(claude.probe).toMatchObject({ failure: "did not answer within 8 s (stopped)" });
    // Stopped at its timeout, not when the script would have ended.
    expect((claude.probe as { ms: number }).ms).toBeLessThan(8_000 + 5_000);
    expect(report.problems.filter((problem) => problem.kind === "probe").map((problem) => problem.text)).toEqual([
      `Claude Code: claude -p --output-format stream-json --verbose did not answer within 8 s (stopped); check that ${join(fake, "claude")} runs, or give it longer with --timeout`,
    ]);
    expect(report.runtimes.find((entry) => entry.runtime === "codex")!.probe?.failure).toBeUndefined();
  }, TEST_TIMEOUT_MS);
});

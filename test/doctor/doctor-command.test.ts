import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const CAPTURED_CLAUDE = new URL("./captured/claude-stream-global.jsonl", import.meta.url).pathname;
const PLANTED = "sk-ant-test-PLANTEDdoctorSECRET0123456789";

/** A temp home with bosun's pack installed for Claude (global), and a `claude` of the test's making first on PATH. */
function installed(claudeScript: string | null): TempHome & { project: string; bin: string } {
  const t = makeTempHome();
  const project = join(t.root, "project");
  const bin = join(t.root, "bin");
  mkdirSync(project, { recursive: true });
  mkdirSync(bin, { recursive: true });
  t.env.PATH = `${bin}:${process.env.PATH}`;
  if (claudeScript !== null) fakeCli(bin, "claude", claudeScript);
  const install = runBin(["install", "--runtime", "claude", "--scope", "global", "--yes", "--no-verify"], t.env, project);
  expect(install.code, install.stderr).toBe(0);
  return { ...t, project, bin };
}

function fakeCli(bin: string, name: string, script: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, name), 0o755);
}

const doctor = (t: TempHome & { project: string }, args: string[] = []) => runBin(["doctor", "--runtime", "claude", ...args], t.env, t.project);

describe("bosun doctor", () => {
  it("reports every artifact intact and loaded, with exit 0, when the CLI lists them all", () => {
    // The captured real stream names bosun's skill, commands, agent, MCP server (connected) and a SessionStart hook that printed bosun's line.
    const t = installed(`cat '${CAPTURED_CLAUDE}'`);
    const result = doctor(t, ["--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    const claude = report.runtimes[0];
    // ~/.claude and the home folder (~/.claude.json, where the MCP server is).
    expect(claude.roots.map((root: { intact: { ok: boolean } }) => root.intact.ok)).toEqual([true, true]);
    expect(claude.artifacts.map((a: { kind: string; name: string; state: string }) => `${a.kind} ${a.name} ${a.state}`).sort()).toEqual([
      "agent bosun-reviewer loaded",
      "command bosun-delegate loaded",
      "command bosun-status loaded",
      "hook bosun-session-start loaded",
      "mcp bosun loaded",
      "skill bosun-orchestrator loaded",
    ]);
    expect(report.problems).toEqual([]);
  });

  it("lists an edited file, a missing one and one replaced by a link, each with what to do (exit 1)", () => {
    const t = installed(`cat '${CAPTURED_CLAUDE}'`);
    const claudeDir = join(t.home, ".claude");
    writeFileSync(join(claudeDir, "commands/bosun-status.md"), "my edit\n");
    rmSync(join(claudeDir, "commands/bosun-delegate.md"));
    rmSync(join(claudeDir, "agents/bosun-reviewer.md"));
    symlinkSync("/etc/hostname", join(claudeDir, "agents/bosun-reviewer.md"));
    const json = JSON.parse(doctor(t, ["--json"]).stdout);
    expect(json.runtimes[0].roots[0].intact.files).toEqual([
      { path: "agents/bosun-reviewer.md", change: "replaced by a link" },
      { path: "commands/bosun-delegate.md", change: "missing" },
      { path: "commands/bosun-status.md", change: "edited" },
    ]);
    const text = doctor(t);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("Claude Code (global): commands/bosun-status.md was edited; if that was not you, bosun uninstall --runtime claude --scope global (it backs up changed files) then bosun install --runtime claude --scope global puts bosun's back");
    expect(text.stdout).toContain("commands/bosun-delegate.md is missing;");
    expect(text.stdout).toContain("agents/bosun-reviewer.md was replaced by a link;");
    expect(text.stderr.trim()).toBe("bosun: doctor found 3 problems; each line above says what to do");
  });

  it("stops a CLI that hangs at the timeout, with everything it started, and says so in one line", () => {
    // The fake CLI starts a child that would outlive it, and both wait forever.
    const t = installed(`sleep 300 & echo $! > "$HOME/child.pid"; echo $$ > "$HOME/cli.pid"; wait`);
    const result = doctor(t, ["--timeout", "1.5"]);
    expect(result.code).toBe(1);
    const problems = result.stdout.split("\n").filter((line) => line.includes("did not answer"));
    expect(problems).toHaveLength(2); // the probe's row and its problem line
    expect(result.stdout).toContain("Claude Code: claude -p --output-format stream-json --verbose did not answer within 1.5 s (stopped); check that");
    for (const file of ["cli.pid", "child.pid"]) {
      const pid = Number(readFileSync(join(t.home, file), "utf8"));
      expect(alive(pid), file).toBe(false);
    }
  });

  it("turns garbage output into one line, with no secret and no escape sequence", () => {
    const t = installed(`printf '\\033]0;title\\007\\033[31m${PLANTED}\\n{"type":"system","subtype":"init","skills":"${PLANTED}"\\n'; echo "${PLANTED}" >&2; exit 3`);
    const result = doctor(t);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).not.toContain(PLANTED);
    expect(result.stdout + result.stderr).not.toContain("\u001b");
    expect(result.stdout).toContain("exited with code 3 without listing what it loaded");
    const json = doctor(t, ["--json"]);
    expect(json.stdout).not.toContain(PLANTED);
  });

  it("runs the CLI in the agent's environment: nothing from bosun's own .env", () => {
    const t = installed(`echo "key=\${ANTHROPIC_API_KEY:-none} mine=\${MY_OWN:-none}" > "$HOME/seen-env"; cat '${CAPTURED_CLAUDE}'`);
    t.write(join(t.paths.data, ".env"), `ANTHROPIC_API_KEY=${PLANTED}\n`);
    t.env.MY_OWN = "yes";
    const result = doctor(t, ["--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(t.home, "seen-env"), "utf8").trim()).toBe("key=none mine=yes");
    expect(JSON.parse(result.stdout).runtimes[0].signIn.connected).toBe(false);
  });

  it("asks Claude to leave out the git status it would give the model (its init event waits for it)", () => {
    const t = installed(`echo "git=\${CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS:-unset}" > "$HOME/seen-env"; cat '${CAPTURED_CLAUDE}'`);
    const result = doctor(t, ["--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(t.home, "seen-env"), "utf8").trim()).toBe("git=1");
  });

  it("gives the hook snapshot's time, or says there is none", () => {
    const t = installed(`cat '${CAPTURED_CLAUDE}'`);
    const snapshot = join(t.paths.data, "hook-status.json");
    rmSync(snapshot, { force: true });
    expect(JSON.parse(doctor(t, ["--json"]).stdout).hook.generatedAt).toBeNull();
    expect(doctor(t).stdout).toContain("Hook status  none yet");
    // Only its time is read: whatever else the file holds never reaches the report.
    t.write(snapshot, JSON.stringify({ version: 1, generatedAt: "2026-12-01T10:00:00.000Z", line: `bosun 0.1.0: ${PLANTED}` }));
    const json = doctor(t, ["--json"]);
    expect(JSON.parse(json.stdout).hook).toEqual({ path: snapshot, generatedAt: "2026-12-01T10:00:00.000Z" });
    expect(json.stdout + doctor(t).stdout).not.toContain(PLANTED);
    t.write(snapshot, "{garbled");
    expect(doctor(t).stdout).toContain("hook-status.json is not valid JSON");
  });

  it("says when the CLI is not installed, without failing for it", () => {
    const t = installed(null);
    t.env.PATH = `${t.bin}:${join(process.execPath, "..")}`;
    const result = doctor(t, ["--json"]);
    expect(result.code, result.stdout).toBe(0);
    const claude = JSON.parse(result.stdout).runtimes[0];
    expect(claude.cli.installed).toBe(false);
    expect(new Set(claude.artifacts.map((a: { state: string }) => a.state))).toEqual(new Set(["unchecked"]));
    expect(existsSync(join(t.home, ".claude/bosun-manifest.json"))).toBe(true);
  });

  it.each([
    [["--timeout", "0"], "--timeout must be a number of seconds above 0 and at most 600, not \"0\""],
    [["--timeout", "soon"], "--timeout must be a number of seconds above 0 and at most 600, not \"soon\""],
    [["--runtime", "nope"], "nope"],
  ])("refuses bad flags %j with one line", (args, message) => {
    const t = makeTempHome();
    const result = runBin(["doctor", ...args], t.env, t.root);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });
});

/** Running (a zombie no one has reaped yet is dead: it was killed, only its entry is left). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

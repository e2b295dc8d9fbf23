import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const CAPTURED_CLAUDE = new URL("./captured/claude-stream-global.jsonl", import.meta.url).pathname;

/** A temp home with a stand-in `claude` that prints the init stream captured from the real one (and notes each run but `--version`). */
function withClaude() {
  const t = makeTempHome();
  const bin = join(t.root, "bin");
  const project = join(t.root, "project");
  mkdirSync(bin, { recursive: true });
  mkdirSync(project, { recursive: true });
  // `--version` is how bosun install reads which contract to write (a stand-in has no package.json).
  writeFileSync(join(bin, "claude"), `#!/bin/sh\nif [ "$1" = --version ]; then echo '2.1.197 (Claude Code)'; exit 0; fi\necho "$*" >> "$HOME/claude-runs"\ncat '${CAPTURED_CLAUDE}'\n`);
  chmodSync(join(bin, "claude"), 0o755);
  t.env.PATH = `${bin}:${process.env.PATH}`;
  return { t, project };
}

describe("bosun install's closing check", () => {
  it("asks the agent's CLI whether it loaded what was just installed", () => {
    const { t, project } = withClaude();
    const result = runBin(["install", "--runtime", "claude", "--scope", "global", "--yes"], t.env, project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Loaded (asked each agent's CLI; bosun doctor checks everything)");
    expect(result.stdout).toContain("  Claude Code  6 of 6 loaded");
  });

  it("is in --json, and --no-verify skips it (the CLI is not asked what it loaded)", () => {
    const { t, project } = withClaude();
    const json = JSON.parse(runBin(["install", "--runtime", "claude", "--scope", "global", "--yes", "--json"], t.env, project).stdout);
    expect(json.verify.runtimes[0].artifacts.map((a: { state: string }) => a.state)).toEqual(["loaded", "loaded", "loaded", "loaded", "loaded", "loaded"]);
    expect(json.verify.problems).toEqual([]);
    const again = makeTempHome();
    again.env.PATH = t.env.PATH;
    const skipped = runBin(["install", "--runtime", "claude", "--scope", "global", "--yes", "--json", "--no-verify"], again.env, project);
    expect(JSON.parse(skipped.stdout).verify).toBeUndefined();
    expect(existsSync(join(again.home, "claude-runs"))).toBe(false);
  });

  it("names what the CLI did not load", () => {
    const { t, project } = withClaude();
    // A Claude that lists nothing of bosun's.
    writeFileSync(join(t.root, "bin", "claude"), `#!/bin/sh\necho '{"type":"system","subtype":"init","skills":[],"slash_commands":[],"agents":[]}'\n`);
    const result = runBin(["install", "--runtime", "claude", "--scope", "global", "--yes"], t.env, project);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  Claude Code  0 of 6 loaded");
    expect(result.stdout).toContain("✗ Claude Code (global): skill bosun-orchestrator is not loaded (claude does not list it)");
  });
});

// The pack audit on the command line: what a pack will run in the user's agents (hooks with
// their event and matcher, executable files), shown before anything is written — in the plan
// on a terminal, alone with --yes (also with --quiet and without a terminal), in full with
// --dry-run, as the changes on an upgrade, one line when nothing new runs, and under `audit`
// in --json.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runCliAnswering } from "../fixtures/cli.js";
import { writeAuditPack, type TestHook } from "../fixtures/audit-packs.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { PACKAGE_ROOT } from "../fixtures/install.js";

const G = ["--runtime", "claude", "--scope", "global"];

const guard: TestHook = { event: "pre-tool", matcher: "Bash", command: "{hook-dir}/guard.sh", script: { rel: "guard.sh", text: "#!/bin/sh\nexit 0\n" } };
const lint: TestHook = { event: "post-tool", matcher: "Edit|Write", command: "node {hook-dir}/lint.mjs", script: { rel: "lint.mjs", text: "process.exit(0);\n" } };
const greet: TestHook = { event: "session-start", command: "echo hello" };

/** The audit block of a text report: from its heading to the next blank line. */
function block(text: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith("What pack "));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && line === "");
  return lines.slice(start, end < 0 ? undefined : end);
}

const packIn = (t: TempHome, version: string, hooks: Record<string, TestHook>, name?: string) => writeAuditPack(join(t.root, `pack-${version}`), version, hooks, name);

describe("bosun install: what the pack will run", () => {
  it("bosun's own pack: its one hook, {bosun-hook} resolved to the helper, with both event names, and its MCP server, {bosun} resolved to this bosun", async () => {
    const t = makeTempHome();
    const result = await runCli(["install", ...G, "--dry-run"], t.env, t.home);
    expect(result.code).toBe(0);
    const helper = join(t.paths.data, "bin/bosun-hook.mjs");
    expect(block(result.stdout)).toEqual([
      "What pack bosun will run in your agents: 1 hook, 1 MCP server, all new",
      "  Claude Code (global)  ~/.claude",
      "    + hook bosun-session-start: SessionStart (session-start), in settings.json",
      `        node ${helper} session-start`,
      "  Claude Code (global)  ~",
      `    + mcp server bosun in .claude.json starts node ${join(PACKAGE_ROOT, "bin", "bosun.js")} mcp serve`,
    ]);
  });

  it("--dry-run --json: `audit` lists every hook with runtime, scope, events and matcher, and every executable file", async () => {
    const t = makeTempHome();
    const pack = packIn(t, "1.0.0", { guard, lint, greet });
    const result = await runCli(["install", pack, ...G, "--dry-run", "--json"], t.env, t.home);
    expect(result.code).toBe(0);
    const { audit } = JSON.parse(result.stdout);
    const root = join(t.home, ".claude");
    const where = { runtime: "claude", title: "Claude Code", scope: "global", root };
    expect(audit.pack).toBe("guarded");
    expect(audit.hooks).toEqual([
      { ...where, file: "settings.json", hook: "guard", event: "PreToolUse", bosunEvent: "pre-tool", matcher: "Bash", command: `${root}/hooks/guard/guard.sh`, change: "new" },
      { ...where, file: "settings.json", hook: "lint", event: "PostToolUse", bosunEvent: "post-tool", matcher: "Edit|Write", command: `node ${root}/hooks/lint/lint.mjs`, change: "new" },
      { ...where, file: "settings.json", hook: "greet", event: "SessionStart", bosunEvent: "session-start", command: "echo hello", change: "new" },
    ]);
    expect(audit.executables).toEqual([{ ...where, path: `${root}/hooks/guard/guard.sh`, artifact: "hook guard", change: "new" }, { ...where, path: `${root}/hooks/lint/lint.mjs`, artifact: "hook lint", change: "new" }]);
    expect(audit.settings).toEqual([]);
    expect(audit.changes).toEqual({ added: audit.hooks, changed: [], removed: [], executables: audit.executables, settings: [], removedSettings: [] });
    expect(audit.unchanged).toBe(false);
  });

  it("an upgrade shows exactly what changed: one command changed (old → new), one hook added, one removed, the new executable", async () => {
    const t = makeTempHome();
    expect((await runCli(["install", packIn(t, "1.0.0", { guard, lint, greet }), ...G, "--yes"], t.env, t.home)).code).toBe(0);
    const v2 = packIn(t, "2.0.0", {
      guard,
      lint: { ...lint, command: "node {hook-dir}/lint.mjs --strict" },
      audit: { event: "stop", command: "{hook-dir}/log.sh", script: { rel: "log.sh", text: "#!/bin/sh\necho done >> /tmp/x\n" } },
    });
    const root = join(t.home, ".claude");
    const result = await runCli(["install", v2, ...G, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(block(result.stderr)).toEqual([
      "What pack guarded will run in your agents, changed since it was installed: 2 new, 1 changed, 1 removed",
      "  Claude Code (global)  ~/.claude",
      '    ~ hook lint: PostToolUse (post-tool), matcher "Edit|Write", in settings.json',
      `        now  node ${root}/hooks/lint/lint.mjs --strict`,
      `        was  node ${root}/hooks/lint/lint.mjs`,
      "    + hook audit: Stop (stop), in settings.json",
      `        ${root}/hooks/audit/log.sh`,
      "    - hook greet: SessionStart (session-start), in settings.json, removed",
      "        echo hello",
      "    + executable hooks/audit/log.sh (hook audit)",
      "  unchanged: 1 hook, 2 executable files (--dry-run lists them)",
    ]);
    // Shown before it was applied, not again in the report after it.
    expect(block(result.stdout)).toEqual([]);
    const settings = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
    expect(Object.keys(settings.hooks).sort()).toEqual(["PostToolUse", "PreToolUse", "Stop"]);
  });

  it("the same upgrade in --dry-run --json: `changes` has the added, changed (with the old command) and removed hooks", async () => {
    const t = makeTempHome();
    await runCli(["install", packIn(t, "1.0.0", { guard, greet }), ...G, "--yes"], t.env, t.home);
    const v2 = packIn(t, "2.0.0", { guard: { ...guard, command: "{hook-dir}/guard.sh --v2" }, lint });
    const { audit } = JSON.parse((await runCli(["install", v2, ...G, "--dry-run", "--json"], t.env, t.home)).stdout);
    const root = join(t.home, ".claude");
    expect(audit.changes.changed).toEqual([expect.objectContaining({ hook: "guard", command: `${root}/hooks/guard/guard.sh --v2`, was: `${root}/hooks/guard/guard.sh`, change: "changed" })]);
    expect(audit.changes.added.map((hook: { hook: string }) => hook.hook)).toEqual(["lint"]);
    expect(audit.changes.removed).toEqual([{ runtime: "claude", title: "Claude Code", scope: "global", root, file: "settings.json", hook: "greet", event: "SessionStart", bosunEvent: "session-start", command: "echo hello" }]);
    expect(audit.changes.executables.map((file: { path: string }) => file.path)).toEqual([`${root}/hooks/lint/lint.mjs`]);
    expect(audit.executables.find((file: { path: string }) => file.path.endsWith("guard.sh")).change).toBe("unchanged");
  });

  it("--yes without a terminal, and with --quiet: the block is still printed on stderr before applying", async () => {
    const t = makeTempHome();
    const result = await runCli(["install", packIn(t, "1.0.0", { guard }), ...G, "--yes", "--quiet"], t.env, t.home, "");
    expect(result.code).toBe(0);
    expect(block(result.stderr)[0]).toBe("What pack guarded will run in your agents: 1 hook, 1 executable file, all new");
    expect(result.stderr).toContain("    + executable hooks/guard/guard.sh (hook guard)");
  });

  it("--json --yes: the report's `audit` is the plan's (built before applying), and the block is on stderr", async () => {
    const t = makeTempHome();
    const result = await runCli(["install", packIn(t, "1.0.0", { guard }), ...G, "--yes", "--json"], t.env, t.home);
    const report = JSON.parse(result.stdout);
    expect(report.audit.executables).toEqual([expect.objectContaining({ artifact: "hook guard", change: "new" })]);
    expect(block(result.stderr)[0]).toMatch(/^What pack guarded will run in your agents: /);
  });

  it("without a terminal and without --yes nothing is written (the run stops before the block)", async () => {
    const t = makeTempHome();
    const result = await runCli(["install", packIn(t, "1.0.0", { guard }), ...G], t.env, t.home, "");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pass --yes to do it/);
  });

  it("on a terminal: the block is part of the plan, right before the question", async () => {
    const t = makeTempHome();
    const result = await runCliAnswering(["install", packIn(t, "1.0.0", { guard, greet }), ...G], t.env, "y");
    expect(result.code).toBe(0);
    const [plan] = result.asked.split("Apply these changes?");
    expect(block(plan as string)[0]).toBe("What pack guarded will run in your agents: 2 hooks, 1 executable file, all new");
    expect(plan).toContain(`        ${join(t.home, ".claude")}/hooks/guard/guard.sh`);
  });

  it("a reinstall with nothing new to run: one line (even after a pack file changed); --dry-run lists it all", async () => {
    const t = makeTempHome();
    const pack = packIn(t, "1.0.0", { guard, greet });
    await runCli(["install", pack, ...G, "--yes"], t.env, t.home);
    const again = await runCli(["install", pack, ...G, "--yes"], t.env, t.home);
    expect(block(again.stdout)).toEqual(["What pack guarded will run in your agents: nothing new (2 hooks, 1 executable file, as installed; --dry-run lists them)"]);
    // A skill edited in the pack: files change, nothing new runs.
    const skill = join(pack, "skills/guard-notes/SKILL.md");
    writeFileSync(skill, readFileSync(skill, "utf8") + "More notes.\n");
    const edited = await runCli(["install", pack, ...G, "--yes"], t.env, t.home);
    expect(edited.code).toBe(0);
    expect(block(edited.stderr)).toEqual(["What pack guarded will run in your agents: nothing new (2 hooks, 1 executable file, as installed; --dry-run lists them)"]);
    const quiet = await runCli(["install", pack, ...G, "--yes", "--quiet"], t.env, t.home);
    expect(block(quiet.stderr)).toEqual([]);
    const dry = await runCli(["install", pack, ...G, "--dry-run"], t.env, t.home);
    expect(block(dry.stdout)).toEqual([
      "What pack guarded will run in your agents: 2 hooks, 1 executable file, as installed",
      "  Claude Code (global)  ~/.claude",
      '      hook guard: PreToolUse (pre-tool), matcher "Bash", in settings.json',
      `        ${join(t.home, ".claude")}/hooks/guard/guard.sh`,
      "      hook greet: SessionStart (session-start), in settings.json",
      "        echo hello",
      "      executable hooks/guard/guard.sh (hook guard)",
    ]);
  });

  it("a pack that runs nothing: no block, and an empty `audit` in --json", async () => {
    const t = makeTempHome();
    const pack = packIn(t, "1.0.0", {}, "quiet-notes");
    const dry = await runCli(["install", pack, ...G, "--dry-run"], t.env, t.home);
    expect(dry.code).toBe(0);
    expect(dry.stdout).not.toContain("will run in your agents");
    const result = await runCli(["install", pack, ...G, "--yes", "--json"], t.env, t.home);
    expect(result.stderr).not.toContain("will run in your agents");
    expect(JSON.parse(result.stdout).audit).toEqual({ pack: "quiet-notes", hooks: [], executables: [], settings: [], changes: { added: [], changed: [], removed: [], executables: [], settings: [], removedSettings: [] }, unchanged: true });
  });

  it("Copilot (a hook file per hook): a changed command is read back from the installed hook file", async () => {
    const t = makeTempHome();
    const C = ["--runtime", "copilot", "--scope", "global"];
    await runCli(["install", packIn(t, "1.0.0", { greet }), ...C, "--yes"], t.env, t.home);
    const result = await runCli(["install", packIn(t, "2.0.0", { greet: { ...greet, command: "echo bye" } }), ...C, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(block(result.stderr)).toEqual([
      "What pack guarded will run in your agents, changed since it was installed: 1 changed",
      "  GitHub Copilot (global)  ~/.copilot",
      "    ~ hook greet: sessionStart (session-start), in hooks/greet.json",
      "        now  echo bye",
      "        was  echo hello",
    ]);
  });

  it("uninstall has no audit", async () => {
    const t = makeTempHome();
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    const result = await runCli(["uninstall", ...G, "--yes", "--json"], t.env, t.home);
    expect(JSON.parse(result.stdout).audit).toBeNull();
  });
});

describe("the audit of a settled reinstall", () => {
  it("is the one a full plan makes (matchers read back from the config file, artifacts from the plan)", async () => {
    const t = makeTempHome();
    const pack = packIn(t, "1.0.0", { guard, lint, greet });
    await runCli(["install", pack, ...G, "--yes"], t.env, t.home);
    // --dry-run plans in full; a plain reinstall trusts the settled record.
    const full = JSON.parse((await runCli(["install", pack, ...G, "--dry-run", "--json"], t.env, t.home)).stdout).audit;
    const settled = JSON.parse((await runCli(["install", pack, ...G, "--yes", "--json"], t.env, t.home)).stdout).audit;
    expect(full.hooks.map((hook: { matcher?: string }) => hook.matcher)).toEqual(["Bash", "Edit|Write", undefined]);
    expect(full.executables.map((file: { artifact: string }) => file.artifact)).toEqual(["hook guard", "hook lint"]);
    expect(full.unchanged).toBe(true);
    expect(settled).toEqual(full);
  });
});

import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kernel/package-info.js";
import { HELPER_MARKERS, missingMarkers, packagedHelperPath, startHelperRefresh, syncRuntimeHelper } from "../../src/install/hook-helper.js";
import { runtimeHelperSyncStep } from "../../src/startup/30_runtime_helper_sync.js";
import { migrationContext, runSteps } from "../fixtures/migration-context.js";
import { makeTempHome } from "../fixtures/temp-home.js";

/** A tiny helper with every marker, newer than anything installed in these tests. */
const SAFE_SOURCE = `const HELPER_VERSION = 2;\n${HELPER_MARKERS.filter((m) => !m.startsWith("const")).join("\n")}\n`;
const STALE = "#!/usr/bin/env node\n// an old helper without the safety functions\n";

function files() {
  const t = makeTempHome();
  return { t, target: join(t.root, "data/bin/bosun-hook.mjs"), source: join(t.root, "pkg/bosun-hook.mjs") };
}

describe("30_runtime_helper_sync (the source's seven runtime-sync tests)", () => {
  it("replaces a stale helper, keeping its mode and a backup of the old text", () => {
    const { t, target, source } = files();
    t.write(target, STALE);
    chmodSync(target, 0o600);
    t.write(source, SAFE_SOURCE);
    const result = syncRuntimeHelper(target, source);
    expect(result).toEqual({ ok: true, updated: true, target, backup: `${target}.startup-migration-backup` });
    expect(readFileSync(target, "utf8")).toBe(SAFE_SOURCE);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${target}.startup-migration-backup`, "utf8")).toBe(STALE);
  });

  it("accepts the packaged helper as a source and installs it verbatim", () => {
    const { t, target } = files();
    t.write(target, STALE);
    const source = packagedHelperPath(packageRoot());
    expect(missingMarkers(readFileSync(source, "utf8"))).toEqual([]);
    expect(syncRuntimeHelper(target, source)).toMatchObject({ ok: true, updated: true });
    expect(readFileSync(target, "utf8")).toBe(readFileSync(source, "utf8"));
  });

  it("starts the helper's refresh detached, with its own argv", () => {
    const calls: [string, string[]][] = [];
    const failed = startHelperRefresh("/data/bin/bosun-hook.mjs", "/pkg/bin/bosun.js", (command, args) => {
      calls.push([command, args]);
      return "";
    });
    expect(failed).toBe("");
    expect(calls).toEqual([[process.execPath, ["/data/bin/bosun-hook.mjs", "refresh", "--cli", "/pkg/bin/bosun.js"]]]);
  });

  it("skips a helper that is already current, without a backup", () => {
    const { t, target, source } = files();
    t.write(target, SAFE_SOURCE);
    t.write(source, SAFE_SOURCE);
    expect(syncRuntimeHelper(target, source)).toEqual({ ok: true, updated: false, reason: "already-current" });
    expect(existsSync(`${target}.startup-migration-backup`)).toBe(false);
  });

  it("refuses a source without the required safety markers and leaves the target untouched", () => {
    const { t, target, source } = files();
    t.write(target, STALE);
    t.write(source, "const HELPER_VERSION = 9;\nfunction neverFailTheHost(\n");
    const result = syncRuntimeHelper(target, source);
    expect(result).toMatchObject({ ok: false, updated: false });
    expect(result.warning).toContain("missing required safety markers");
    expect(result.warning).toContain("function withDeadline(");
    expect(readFileSync(target, "utf8")).toBe(STALE);
    expect(existsSync(`${target}.startup-migration-backup`)).toBe(false);
  });

  it("is quiet when no helper is installed", () => {
    const { t, source } = files();
    t.write(source, SAFE_SOURCE);
    const result = syncRuntimeHelper(join(t.root, "nowhere/bosun-hook.mjs"), source);
    expect(result).toMatchObject({ ok: true, updated: false });
    expect(result.reason).toContain("not found");
  });

  it("leaves a symlinked helper and the file it points to alone", () => {
    const { t, target, source } = files();
    const real = t.write("elsewhere/hook.mjs", STALE);
    mkdirSync(join(t.root, "data/bin"), { recursive: true });
    symlinkSync(real, target);
    t.write(source, SAFE_SOURCE);
    const result = syncRuntimeHelper(target, source);
    expect(result).toMatchObject({ ok: true, updated: false });
    expect(result.reason).toContain("not a regular file");
    expect(lstatSync(target).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe(STALE);
  });
});

describe("30_runtime_helper_sync as a step", () => {
  it("keeps the first stale copy as the backup forever", () => {
    const { t, target, source } = files();
    t.write(target, STALE);
    t.write(source, SAFE_SOURCE);
    syncRuntimeHelper(target, source);
    writeFileSync(target, "a later stale copy\n");
    syncRuntimeHelper(target, source);
    expect(readFileSync(`${target}.startup-migration-backup`, "utf8")).toBe(STALE);
  });

  it("replaces an installed helper with an older version stamp and starts its refresh", async () => {
    const t = makeTempHome();
    const target = join(t.paths.data, "bin/bosun-hook.mjs");
    const packaged = readFileSync(packagedHelperPath(packageRoot()), "utf8");
    t.write(target, packaged.replace(/const HELPER_VERSION = \d+;/, "const HELPER_VERSION = 0;"));
    const spawned: string[][] = [];
    const ctx = migrationContext(t, { spawnDetached: (_command, args) => (spawned.push(args), "") });
    const report = await runSteps(ctx, [runtimeHelperSyncStep]);
    expect(report.steps[0]!.actions).toHaveLength(1);
    expect(readFileSync(target, "utf8")).toBe(packaged);
    expect(spawned).toEqual([[target, "refresh", "--cli", join(packageRoot(), "bin", "bosun.js")]]);
    expect((await runSteps(ctx, [runtimeHelperSyncStep])).steps[0]!.actions).toEqual([]);
  });

  it("replaces the helper bosun shipped before --format (version 1): it would print Gemini a line its model never sees", () => {
    const t = makeTempHome();
    const target = join(t.paths.data, "bin/bosun-hook.mjs");
    const packaged = readFileSync(packagedHelperPath(packageRoot()), "utf8");
    t.write(target, packaged.replace(/const HELPER_VERSION = \d+;/, "const HELPER_VERSION = 1;"));
    expect(syncRuntimeHelper(target, packagedHelperPath(packageRoot()))).toMatchObject({ ok: true, updated: true });
    expect(readFileSync(target, "utf8")).toBe(packaged);
  });

  it("reports a refresh that could not start without failing the step", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.data, "bin/bosun-hook.mjs"), STALE);
    const report = await runSteps(migrationContext(t, { spawnDetached: () => "spawn EACCES" }), [runtimeHelperSyncStep]);
    expect(report.steps[0]!.notes).toEqual([{ level: "warn", message: "the helper's refresh did not start: spawn EACCES" }]);
  });
});

describe("the packaged hook helper", () => {
  function install() {
    const t = makeTempHome();
    const helper = join(t.paths.data, "bin/bosun-hook.mjs");
    mkdirSync(join(t.paths.data, "bin"), { recursive: true });
    copyFileSync(packagedHelperPath(packageRoot()), helper);
    const run = (...args: string[]) => spawnSync(process.execPath, [helper, ...args], { env: t.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 10_000 });
    return { t, helper, run, snapshot: join(t.paths.data, "hook-status.json") };
  }

  it("prints one fallback line and exits 0 when there is no snapshot", () => {
    const { run } = install();
    const result = run("session-start");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("bosun: status not cached yet; run `bosun status` to see your agents\n");
  });

  it("prints the cached line as one printable line, whatever the snapshot holds", () => {
    const { run, t, snapshot } = install();
    t.write(snapshot, JSON.stringify({ version: 1, generatedAt: new Date().toISOString(), line: "bosun ok\u001b[31m red\nsecond line" }));
    expect(run("session-start").stdout).toBe("bosun ok[31m red\n");
    t.write(snapshot, "{ not json");
    expect(run("session-start")).toMatchObject({ status: 0, stdout: expect.stringContaining("not cached yet") });
  });

  it("refresh builds the snapshot from `bosun status --json`", () => {
    const { run, snapshot, t } = install();
    const cli = t.write("fake-bosun.mjs", `process.stdout.write(JSON.stringify({ summary: "bosun 9: all good" }));`);
    expect(run("refresh", "--cli", cli).status).toBe(0);
    const written = JSON.parse(readFileSync(snapshot, "utf8"));
    expect(written).toMatchObject({ version: 2, line: "bosun 9: all good", cli: { entry: cli, node: process.execPath } });
    expect(statSync(snapshot).mode & 0o777).toBe(0o600);
    expect(run("session-start").stdout).toBe("bosun 9: all good\n");
  });

  it("prints the line as SessionStart additionalContext with --format json (Gemini), and the bare line without it", () => {
    const { run, t, snapshot } = install();
    t.write(snapshot, JSON.stringify({ version: 2, generatedAt: new Date().toISOString(), line: "bosun 9: 1 of 8 agents signed in\u001b" }));
    const json = run("session-start", "--format", "json");
    expect(json.status).toBe(0);
    expect(json.stdout.endsWith("\n")).toBe(true);
    expect(JSON.parse(json.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "bosun 9: 1 of 8 agents signed in" } });
    // A command installed before --format existed, and a format the helper does not know: the bare line.
    expect(run("session-start").stdout).toBe("bosun 9: 1 of 8 agents signed in\n");
    expect(run("session-start", "--format", "yaml").stdout).toBe("bosun 9: 1 of 8 agents signed in\n");
    expect(run("session-start", "--format").stdout).toBe("bosun 9: 1 of 8 agents signed in\n");
    // As an installed command has it: the option first (what `{bosun-hook}` becomes), then the pack's words.
    expect(JSON.parse(run("--format", "json", "session-start").stdout).hookSpecificOutput.additionalContext).toBe("bosun 9: 1 of 8 agents signed in");
  });

  it("wraps the fallback line too with --format json", () => {
    const { run } = install();
    expect(JSON.parse(run("session-start", "--format", "json").stdout).hookSpecificOutput.additionalContext).toContain("not cached yet");
  });

  it("exits 0 even when refresh cannot run bosun", () => {
    const { run, snapshot, t } = install();
    expect(run("refresh", "--cli", join(t.root, "missing.js")).status).toBe(0);
    expect(existsSync(snapshot)).toBe(false);
  });
});

// bosun install / uninstall / install --status on the command line: flags, dry-run groups, the
// --json shapes, confirmation and questions on a terminal, failing before any write without one.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { main } from "../../src/cli/main.js";
import { Capture, runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { packDir } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const G = ["--runtime", "claude", "--scope", "global"];

/** Runs the CLI as if on a terminal, typing each answer when a question (ending in "? " or "] ") appears on stderr. */
async function runOnTerminal(argv: string[], env: Env, answers: string[], cwd?: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = new Capture();
  const questions: string[] = [];
  let seen = 0;
  const stderr = new (class extends Capture {
    override _write(chunk: Buffer | string, encoding: BufferEncoding, done: () => void): void {
      super._write(chunk, encoding, done);
      const pending = this.text.slice(seen);
      if (/(\? |\] )$/.test(pending)) {
        seen = this.text.length;
        questions.push((pending.trim().split("\n").at(-1) ?? "").trim());
        const answer = answers.shift();
        if (answer !== undefined) setImmediate(() => stdin.write(`${answer}\n`));
      }
    }
  })();
  const previous = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const code = await main(argv, { stdout, stderr, stdin, env: { ...env } });
    return { code, stdout: stdout.text, stderr: stderr.text, questions };
  } finally {
    if (cwd) process.chdir(previous);
    stdin.destroy();
  }
}

describe("bosun install: flags", () => {
  it.each([
    [["install", "--runtime", "claude"], /pass --scope global .* or --scope local/],
    [["install", "--scope", "global"], /name the runtimes with --runtime \(e\.g\. --runtime claude,codex\), or pass --all-detected/],
    [["install", ...G, "--resolve", "maybe"], /--resolve must be keep or remove, not "maybe"/],
    [["install", ...G, "--lock-timeout", "soon"], /--lock-timeout must be a number of seconds from 0 to 3600/],
    [["install", "--runtime", "aider", "--scope", "global"], /unknown runtime "aider"; bosun installs into: claude, codex, gemini/],
    [["install", "--runtime", "claude", "--scope", "local", "--config-dir", "/x"], /--config-dir sets a runtime's global folder; it cannot be used with --scope local/],
    [["install", "--runtime", "claude,codex", "--scope", "global", "--config-dir", "/x"], /--config-dir needs exactly one --runtime/],
    [["install", "--all-detected", "--scope", "global"], /no coding agent's config folder found here; name one with --runtime/],
    [["uninstall", "--runtime", "claude"], /pass --scope global .* to bosun uninstall/],
  ])("%j → one line naming what to fix, nothing written", async (argv, message) => {
    const t = makeTempHome();
    const before = snapshotTree(t.home);
    const result = await runCli(argv, t.env, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(snapshotTree(t.home)).toEqual(before);
  });
});

describe("bosun install", () => {
  it("--dry-run prints the plan grouped by risk and changes nothing", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/commands/bosun-status.md"), "my own bosun-status\n");
    const before = snapshotTree(t.home);
    const result = await runCli(["install", ...G, "--dry-run"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^bosun install --dry-run: pack bosun 0\.1\.0 \(nothing was changed\)$/m);
    expect(result.stdout).toMatch(/^Claude Code \(global\)  ~\/\.claude  changes planned$/m);
    expect(result.stdout).toMatch(/^ {2}added \(new files\) \(11\)$/m);
    expect(result.stdout).toMatch(/^ {2}config \(bosun's own entries\) \(1\)$/m);
    expect(result.stdout).toMatch(/^ {2}needs your choice \(1\)$/m);
    expect(result.stdout).toMatch(/commands\/bosun-status\.md +command bosun-status: a file bosun did not install is where it goes \(keep \/ remove\)/);
    expect(result.stdout).toMatch(/^Hook helper {2}~\/\.local\/share\/bosun\/bin\/bosun-hook\.mjs {2}would be installed$/m);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("without a terminal: a question fails naming --resolve, a plan needs --yes; nothing is written", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/commands/bosun-status.md"), "mine\n");
    const before = snapshotTree(t.home);
    let result = await runCli(["install", ...G, "--yes"], t.env, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/1 file bosun does not own needs your choice \(commands\/bosun-status\.md\) and stdin is not a terminal; nothing was written\. Pass --resolve keep .* or --resolve remove/);
    expect(snapshotTree(t.home)).toEqual(before);
    result = await runCli(["install", ...G, "--resolve", "keep"], t.env, t.home);
    expect(result.stderr).toMatch(/^bosun: bosun install would change ~\/\.claude, ~; pass --yes to do it \(stdin is not a terminal\), or --dry-run to see the plan$/m);
    expect(snapshotTree(t.home)).toEqual(before);
    result = await runCli(["install", ...G, "--resolve", "keep", "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(readFileSync(join(t.home, ".claude/commands/bosun-status.md"), "utf8")).toBe("mine\n");
    expect(result.stdout).toMatch(/^ {2}kept$|^ {2}\d+ kept/m);
  });

  it("--yes installs; --json has the documented shape; a second run says nothing to change", async () => {
    const t = makeTempHome();
    const result = await runCli(["install", ...G, "--yes", "--json"], t.env, t.home);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(Object.keys(report)).toEqual(["mode", "dryRun", "pack", "targets", "helper", "audit", "notes", "warnings"]);
    expect(report.pack).toEqual({ name: "bosun", version: "0.1.0", dir: expect.stringMatching(/assets\/pack$/) });
    const target = report.targets[0];
    expect(Object.keys(target)).toEqual(["runtime", "title", "scope", "roots", "skipped", "notes", "cli"]);
    const root = target.roots[0];
    expect(Object.keys(root)).toEqual(["dir", "key", "status", "counts", "actions", "migrations", "drift", "journal", "backups", "recovered", "interrupted", "notes"]);
    expect(root.status).toBe("changed");
    expect(root.counts).toMatchObject({ added: 12, config: 1, kept: 0 });
    expect(root.actions[0]).toEqual({ group: "added", type: "write-file", path: "agents/bosun-reviewer.md", reason: "agent bosun-reviewer", outcome: "done" });
    expect(root.migrations).toEqual([{ id: "2026-11-30-first-time-baseline-scan", source: "engine", title: "First-time baseline scan", actions: 0 }]);
    expect(root.journal).toMatch(/^bosun-journal\/.+\.jsonl$/);
    expect(report.helper).toEqual({ path: join(t.paths.data, "bin/bosun-hook.mjs"), installed: true });
    const again = await runCli(["install", ...G], t.env, t.home);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/~\/\.claude {2}nothing to change/);
    expect(again.stdout).toMatch(/^ {2}12 kept$/m);
  });

  it("on a terminal: shows the plan, asks to apply (default no), then asks about each file bosun does not own", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/commands/bosun-status.md"), "mine\n");
    t.write(join(t.home, ".claude/commands/bosun-delegate.md"), "mine too\n");
    let result = await runOnTerminal(["install", ...G], t.env, [""]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Apply these changes\? \[y\/N\]/);
    expect(result.stderr).toMatch(/bosun: nothing was changed/);
    expect(existsSync(join(t.home, ".claude/skills"))).toBe(false);
    result = await runOnTerminal(["install", ...G], t.env, ["y", "r", ""]);
    expect(result.code).toBe(0);
    expect(result.questions).toEqual([
      "Apply these changes? [y/N]",
      "[k]eep (default), [r]eplace: back yours up and install the pack's; K or R for all the rest?",
      "[k]eep (default), [r]eplace: back yours up and install the pack's; K or R for all the rest?",
    ]);
    expect(readFileSync(join(t.home, ".claude/commands/bosun-delegate.md"), "utf8")).toContain("bosun-orchestrator skill");
    expect(readFileSync(join(t.home, ".claude/commands/bosun-status.md"), "utf8")).toBe("mine\n");
    expect(result.stdout).toMatch(/commands\/bosun-delegate\.md .*\(you chose remove\)/);
    expect(result.stdout).toMatch(/^ {2}backup: ~\/\.claude\/bosun-backups\/.+\/commands\/bosun-delegate\.md$/m);
  });

  it("on a terminal with --quiet: the plan is still shown before the question it asks about; the report on stdout is the same", async () => {
    const t = makeTempHome();
    const result = await runOnTerminal(["install", ...G, "--quiet"], t.env, ["y"]);
    expect(result.code).toBe(0);
    expect(result.questions).toEqual(["Apply these changes? [y/N]"]);
    const [plan] = result.stderr.split("Apply these changes?");
    expect(plan).toMatch(/^bosun install --dry-run: pack bosun 0\.1\.0 \(nothing was changed\)$/m);
    expect(plan).toMatch(/^Claude Code \(global\)  ~\/\.claude  changes planned$/m);
    expect(plan).toMatch(/^ {2}added \(new files\) \(12\)$/m);
    expect(result.stdout).toMatch(/^Claude Code \(global\)  ~\/\.claude  installed$/m);
  });

  it("--config-dir puts a runtime's global install where you say", async () => {
    const t = makeTempHome();
    const dir = join(t.root, "my-claude");
    const result = await runCli(["install", "--runtime", "claude", "--scope", "global", "--config-dir", dir, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "skills/bosun-orchestrator/SKILL.md"))).toBe(true);
    expect(existsSync(join(t.home, ".claude"))).toBe(false);
  });

  it("--all-detected installs into every runtime whose folder exists", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".codex/config.toml"), "");
    t.write(join(t.home, ".qwen/settings.json"), "{}");
    const result = await runCli(["install", "--all-detected", "--scope", "global", "--yes", "--json"], t.env, t.home);
    expect(JSON.parse(result.stdout).targets.map((target: { runtime: string }) => target.runtime)).toEqual(["codex", "qwen"]);
  });

  it("a held lock fails with the holder named after --lock-timeout", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/bosun-install.lock"), JSON.stringify({ pid: process.pid, host: (await import("node:os")).hostname(), acquiredAt: "2026-12-01T00:00:00.000Z" }));
    const result = await runCli(["install", ...G, "--yes", "--lock-timeout", "0"], t.env, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`bosun-install\\.lock is held by process ${process.pid} on .* since 2026-12-01T00:00:00\\.000Z`));
  });

  it("a third-party pack installs next to bosun's own", async () => {
    const t = makeTempHome();
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    const result = await runCli(["install", packDir("demo-v1"), ...G, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(existsSync(join(t.home, ".claude/skills/bosun-orchestrator/SKILL.md"))).toBe(true);
    expect(existsSync(join(t.home, ".claude/skills/demo-skill/SKILL.md"))).toBe(true);
    const status = JSON.parse((await runCli(["install", "--status", "--json"], t.env, t.home)).stdout);
    expect(status.runtimes[0].packs.map((pack: { name: string }) => pack.name)).toEqual(["bosun", "demo"]);
  });
});

describe("bosun uninstall", () => {
  it("a pack that is not installed: one line naming it and what each folder has, exit 1, nothing changed", async () => {
    const t = makeTempHome();
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    await runCli(["install", packDir("demo-v1"), ...G, "--yes"], t.env, t.home);
    const before = snapshotTree(t.root);
    for (const argv of [["uninstall", "nosuchpack", ...G, "--yes"], ["uninstall", "nosuchpack", ...G, "--dry-run"], ["uninstall", "nosuchpack", ...G, "--yes", "--json"]]) {
      const result = await runCli(argv, t.env, t.home);
      expect([result.code, result.stdout, result.stderr], argv.join(" ")).toEqual([1, "", 'bosun: pack "nosuchpack" is not installed in claude global (installed: bosun 0.1.0, demo 1.0.0); nothing was changed\n']);
      expect(snapshotTree(t.root)).toEqual(before);
    }
    const both = await runCli(["uninstall", "nosuchpack", "--runtime", "claude,codex", "--scope", "global", "--yes"], t.env, t.home);
    expect(both.stderr).toBe('bosun: pack "nosuchpack" is not installed in any of claude global (installed: bosun 0.1.0, demo 1.0.0), codex global (nothing installed); nothing was changed\n');
    expect(snapshotTree(t.root)).toEqual(before);
    // Installed in one of the runtimes named: that one is uninstalled, the other has nothing to
    // change, and its folders (none of them there) are not made to take its lock.
    const some = await runCli(["uninstall", "demo", "--runtime", "claude,codex", "--scope", "global", "--yes", "--json"], t.env, t.home);
    expect(some.code).toBe(0);
    expect(JSON.parse(some.stdout).targets.map((target: { roots: { status: string }[] }) => target.roots.map((root) => root.status))).toEqual([["changed"], ["unchanged"]]);
    expect([".codex", ".agents"].filter((dir) => existsSync(join(t.home, dir)))).toEqual([]);
    const detected = await runCli(["install", "--all-detected", "--scope", "global", "--dry-run", "--json"], t.env, t.home);
    expect(JSON.parse(detected.stdout).targets.map((target: { runtime: string }) => target.runtime)).toEqual(["claude"]);
  });

  it("an interrupted run rolled back first is named: not installed, or a question without a terminal, then says nothing else was changed", async () => {
    const run = "2026-12-01T00-00-00-000Z-0badf00d";
    /** A run killed after it wrote commands/extra.md (its journal has no commit line). */
    const interrupted = (t: TempHome) => {
      const root = join(t.home, ".claude");
      const begin = { op: "begin", runId: run, startedAt: "2026-12-01T00:00:00.000Z", pid: 1, host: "h", runtime: "claude", scope: "global", pack: "bosun", bosunVersion: "0.1.0" };
      t.write(join(root, `bosun-journal/${run}.jsonl`), [begin, { op: "create", path: "commands/extra.md" }].map((line) => JSON.stringify(line)).join("\n") + "\n");
      t.write(join(root, "commands/extra.md"), "half written\n");
      return root;
    };
    const t = makeTempHome();
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    let root = interrupted(t);
    let result = await runCli(["uninstall", "nosuchpack", ...G, "--yes"], t.env, t.home);
    expect([result.code, result.stderr]).toEqual([1, `bosun: pack "nosuchpack" is not installed in claude global (installed: bosun 0.1.0); the interrupted install ${run} in ${root} was rolled back first; nothing else was changed\n`]);
    expect(existsSync(join(root, "commands/extra.md"))).toBe(false);
    // A file of yours where the pack goes, found once the interrupted run is rolled back.
    const fresh = makeTempHome();
    root = interrupted(fresh);
    fresh.write(join(root, "commands/bosun-status.md"), "mine\n");
    result = await runCli(["install", ...G, "--yes"], fresh.env, fresh.home);
    expect([result.code, result.stderr]).toEqual([1, expect.stringMatching(new RegExp(`and stdin is not a terminal; the interrupted install ${run} in ${root} was rolled back first; nothing else was written\\. Pass --resolve keep`))]);
    expect(existsSync(join(root, "commands/extra.md"))).toBe(false);
  });

  it("removes the folders a fresh install created, the runtime's own folder included, once nothing is left in them", async () => {
    const t = makeTempHome();
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    const result = await runCli(["uninstall", ...G, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {4}skills +bosun created it; nothing is left in it \[removed\]$/m);
    expect(existsSync(join(t.home, ".claude"))).toBe(false);
  });

  it("removes bosun's files and entries, keeps yours, prints what it did", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/settings.json"), '{ "model": "opus" }\n');
    t.write(join(t.home, ".claude/commands/mine.md"), "mine\n");
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    writeFileSync(join(t.home, ".claude/agents/bosun-reviewer.md"), "edited\n");
    const result = await runCli(["uninstall", ...G, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^bosun uninstall: pack bosun$/m);
    expect(result.stdout).toMatch(/~\/\.claude {2}uninstalled/);
    expect(result.stdout).toMatch(/^ {2}backed up \(your edits\) \(1\)$/m);
    expect(result.stdout).toMatch(/^ {2}removed \(retired\) \(\d+\)$/m);
    expect(readFileSync(join(t.home, ".claude/settings.json"), "utf8")).toBe('{ "model": "opus" }\n');
    expect(readFileSync(join(t.home, ".claude/commands/mine.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(t.home, ".claude/bosun-manifest.json"))).toBe(false);
  });
});

describe("bosun install --status", () => {
  it("shows each root with its packs, files, migrations and drift (text and --json)", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".cursor/cli-config.json"), "{}");
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    writeFileSync(join(t.home, ".claude/commands/bosun-status.md"), "edited\n");
    writeFileSync(join(t.home, ".claude/settings.json"), "{}\n");
    const text = await runCli(["install", "--status"], t.env, t.home);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}RUNTIME +SCOPE +ROOT +PACK +FILES +MIGRATIONS +DRIFT$/m);
    expect(text.stdout).toMatch(/^ {2}claude +global +~\/\.claude +bosun 0\.1\.0 +12 files +1 migration +1 edited, 1 config entries gone$/m);
    expect(text.stdout).toMatch(/^ {2}cursor +global +~\/\.cursor +not installed/m);
    const json = JSON.parse((await runCli(["install", "--status", "--json", "--runtime", "claude"], t.env, t.root)).stdout);
    expect(json.runtimes).toEqual([
      {
        runtime: "claude",
        title: "Claude Code",
        scope: "global",
        key: "main",
        dir: join(t.home, ".claude"),
        exists: true,
        installed: true,
        packs: [{ name: "bosun", version: "0.1.0", files: 12, updatedAt: expect.any(String) }],
        files: 12,
        migrations: [{ id: "2026-11-30-first-time-baseline-scan", source: "engine", appliedAt: expect.any(String) }],
        interrupted: false,
        drift: { modified: ["commands/bosun-status.md"], missing: [], config: ["settings.json: SessionStart (bosun-session-start)"], shared: [] },
        problems: [],
      },
      // The home folder, for bosun's MCP server in ~/.claude.json: no files, the one entry in place.
      expect.objectContaining({ runtime: "claude", scope: "global", key: "config-home", dir: t.home, installed: true, packs: [expect.objectContaining({ name: "bosun", files: 0 })], drift: { modified: [], missing: [], config: [], shared: [] } }),
      expect.objectContaining({ runtime: "claude", scope: "local", exists: false, installed: false }),
    ]);
  });

  it("bosun status shows the install per agent folder", async () => {
    const t = makeTempHome();
    await runCli(["install", ...G, "--yes"], t.env, t.home);
    const status = JSON.parse((await runCli(["status", "--json"], t.env, t.home)).stdout);
    expect(status.subsystems.install).toEqual({
      state: "ready",
      detail: "packs installed in 1 agent (bosun install --status)",
      detected: ["claude"],
      installs: [{ runtime: "claude", scope: "global", root: join(t.home, ".claude"), packs: [{ name: "bosun", version: "0.1.0", files: 12 }], interrupted: false }],
    });
    expect(status.summary).toMatch(/bosun pack in 1 agent/);
  });
});

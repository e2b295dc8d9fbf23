// bosun.lock on the command line: written by install and uninstall at a project's root (only
// when its bytes change), install --frozen (installs exactly the lock or fails before writing),
// install --check (every drift, one line each, nothing written), bad locks and refused flags.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { packDir } from "../fixtures/install.js";
import { lockLines, makeProject } from "../fixtures/lock-project.js";
import { successionPacks } from "../fixtures/succession-packs.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const YES = ["--yes", "--no-verify"];
const LOCAL = (runtimes: string) => ["--runtime", runtimes, "--scope", "local", ...YES];
const UNLOCAL = (runtimes: string) => ["--runtime", runtimes, "--scope", "local", "--yes"];

async function ok(argv: string[], t: TempHome, cwd: string) {
  const result = await runCli(argv, t.env, cwd);
  if (result.code !== 0) throw new Error(`bosun ${argv.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}

/** A copy of the demo pack under the temp root (so a test can edit it). */
function demoCopy(t: TempHome, version: "demo-v1" | "demo-v2" = "demo-v1"): string {
  const dir = join(t.root, `pack-${version}`);
  cpSync(packDir(version), dir, { recursive: true });
  return dir;
}

/** Everything under the temp root: a failed or read-only command must leave it as it was. */
const everything = (t: TempHome) => snapshotTree(t.root);

describe("bosun install writes bosun.lock at a project's root", () => {
  it("creates it (and the merge attribute), adds runtimes and scopes, and leaves it untouched when nothing changes", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    const first = await ok(["install", ...LOCAL("claude")], t, project);
    expect(first.stdout).toMatch(/Lock {2}.*bosun\.lock {2}created \(and bosun\.lock merge=union added to \.gitattributes\)/);
    const lines = lockLines(project);
    expect(lines[0]).toBe(`{"lockVersion":1}`);
    expect(JSON.parse(lines[1] as string)).toMatchObject({ pack: "bosun", version: "0.1.0", digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(lines.slice(2)).toEqual([`{"install":"claude","scope":"local","pack":"bosun"}`]);
    expect(readFileSync(join(project, ".gitattributes"), "utf8")).toBe("bosun.lock merge=union\n");

    // A no-op install (settled) does not touch the lock: same bytes, same inode and time.
    const before = statSync(join(project, "bosun.lock"));
    const again = await ok(["install", ...LOCAL("claude"), "--json"], t, project);
    expect(JSON.parse(again.stdout).lock).toEqual({ file: join(project, "bosun.lock"), write: "unchanged", attributes: false });
    const after = statSync(join(project, "bosun.lock"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);

    await ok(["install", ...LOCAL("codex")], t, project);
    await ok(["install", "--runtime", "claude", "--scope", "global", ...YES], t, project);
    expect(lockLines(project).slice(2)).toEqual([`{"install":"claude","scope":"global","pack":"bosun"}`, `{"install":"claude","scope":"local","pack":"bosun"}`, `{"install":"codex","scope":"local","pack":"bosun"}`]);
    // Only a new lock adds the attribute: a .gitattributes the user changed since is left alone.
    writeFileSync(join(project, ".gitattributes"), "*.png binary\n");
    await ok(["install", ...LOCAL("gemini")], t, project);
    expect(readFileSync(join(project, ".gitattributes"), "utf8")).toBe("*.png binary\n");
  });

  it("bosun uninstall takes its lines out, and the lock goes with the last install; a no-lock uninstall writes none", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    await ok(["install", ...LOCAL("claude,codex")], t, project);
    const removed = await ok(["uninstall", ...UNLOCAL("codex")], t, project);
    expect(removed.stdout).toMatch(/bosun\.lock {2}updated/);
    expect(lockLines(project).slice(2)).toEqual([`{"install":"claude","scope":"local","pack":"bosun"}`]);
    const last = await ok(["uninstall", ...UNLOCAL("claude")], t, project);
    expect(last.stdout).toMatch(/bosun\.lock {2}removed/);
    expect(existsSync(join(project, "bosun.lock"))).toBe(false);
    await ok(["install", ...LOCAL("claude")], t, project);
    unlinkSync(join(project, "bosun.lock"));
    await ok(["uninstall", ...UNLOCAL("claude")], t, project);
    expect(existsSync(join(project, "bosun.lock"))).toBe(false);
  });

  it("a global install starts no lock, but is recorded in a lock the project has (and its uninstall too)", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    await ok(["install", "--runtime", "claude", "--scope", "global", ...YES], t, project);
    expect(existsSync(join(project, "bosun.lock"))).toBe(false);
    expect(existsSync(join(project, ".gitattributes"))).toBe(false);
    await ok(["install", ...LOCAL("codex")], t, project);
    await ok(["install", "--runtime", "claude", "--scope", "global", ...YES], t, project);
    expect(lockLines(project).slice(2)).toEqual([`{"install":"claude","scope":"global","pack":"bosun"}`, `{"install":"codex","scope":"local","pack":"bosun"}`]);
    await ok(["uninstall", "--runtime", "claude", "--scope", "global", "--yes"], t, project);
    expect(lockLines(project).slice(2)).toEqual([`{"install":"codex","scope":"local","pack":"bosun"}`]);
  });

  it("keeps an existing .gitattributes (appending the attribute on a new line), and writes no lock below the root or outside a project", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    writeFileSync(join(project, ".gitattributes"), "*.png binary");
    await ok(["install", ...LOCAL("claude")], t, project);
    expect(readFileSync(join(project, ".gitattributes"), "utf8")).toBe("*.png binary\nbosun.lock merge=union\n");

    const other = makeProject(t, "other");
    const sub = join(other, "packages", "app");
    mkdirSync(sub, { recursive: true });
    await ok(["install", ...LOCAL("claude")], t, sub);
    expect(existsSync(join(other, "bosun.lock"))).toBe(false);
    expect(existsSync(join(sub, "bosun.lock"))).toBe(false);
    await ok(["install", "--runtime", "claude", "--scope", "global", ...YES], t, t.home);
    expect(existsSync(join(t.home, "bosun.lock"))).toBe(false);
  });

  it("a lock bosun cannot read stops the install before anything is written, with one line naming the file and line", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    writeFileSync(join(project, "bosun.lock"), `{"lockVersion":1}\n{"pack":"bosun","version":"0.1.0"\n`);
    const before = everything(t);
    const result = await runCli(["install", ...LOCAL("claude")], t.env, project);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([`bosun: ${join(project, "bosun.lock")}:2: is not a JSON object on one line; restore the file from git, or delete it and run bosun install to write it again; nothing was changed`]);
    expect(everything(t)).toEqual(before);
  });
});

describe("bosun.lock under a renamed pack (a succession)", () => {
  it("the new pack takes the old one's lines where it took its place; --check agrees, and --frozen installs it", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    const packs = successionPacks(join(t.root, "packs"));
    await ok(["install", packs.old, ...LOCAL("claude,codex")], t, project);
    await ok(["install", packs.old, "--runtime", "claude", "--scope", "global", ...YES], t, project);
    const line = (runtime: string, scope: string, pack: string) => `{"install":"${runtime}","scope":"${scope}","pack":"${pack}"}`;
    expect(lockLines(project).slice(2)).toEqual([line("claude", "global", "oldkit"), line("claude", "local", "oldkit"), line("codex", "local", "oldkit")]);
    // Claude Code's project folder only: oldkit stays where newkit did not go.
    await ok(["install", packs.next, ...LOCAL("claude")], t, project);
    const lines = lockLines(project);
    expect(lines.slice(1, 3).map((text) => JSON.parse(text).pack)).toEqual(["newkit", "oldkit"]);
    expect(lines.slice(3)).toEqual([line("claude", "global", "oldkit"), line("claude", "local", "newkit"), line("codex", "local", "oldkit")]);
    expect((await runCli(["install", packs.old, "--check"], t.env, project)).code).toBe(0);
    expect((await runCli(["install", packs.next, "--check"], t.env, project)).code).toBe(0);
    // Everywhere else too: oldkit's line goes with its last install.
    await ok(["install", packs.next, ...LOCAL("codex")], t, project);
    await ok(["install", packs.next, "--runtime", "claude", "--scope", "global", ...YES], t, project);
    expect(lockLines(project).slice(1).map((text) => JSON.parse(text))).toEqual([
      expect.objectContaining({ pack: "newkit", version: "2.0.0" }),
      { install: "claude", scope: "global", pack: "newkit" },
      { install: "claude", scope: "local", pack: "newkit" },
      { install: "codex", scope: "local", pack: "newkit" },
    ]);
    const frozen = await runCli(["install", packs.next, "--frozen", ...YES], t.env, project);
    expect(frozen.code, frozen.stderr).toBe(0);
    expect((await runCli(["install", packs.next, "--check"], t.env, project)).code).toBe(0);
  });
});

describe("bosun install --frozen", () => {
  /** A project whose lock pins a copy of the demo pack in claude and codex (local) and claude (global); then a fresh home. */
  async function locked() {
    const t = makeTempHome();
    const project = makeProject(t);
    const pack = demoCopy(t);
    await ok(["install", pack, ...LOCAL("claude,codex")], t, project);
    await ok(["install", pack, "--runtime", "claude", "--scope", "global", ...YES], t, project);
    const lock = readFileSync(join(project, "bosun.lock"), "utf8");
    const fresh = makeTempHome();
    const clone = makeProject(fresh);
    writeFileSync(join(clone, "bosun.lock"), lock);
    return { t: fresh, project: clone, pack, lock };
  }

  it("installs exactly what the lock lists (every runtime and scope), and never rewrites the lock", async () => {
    const { t, project, pack, lock } = await locked();
    const before = statSync(join(project, "bosun.lock"));
    const result = await ok(["install", pack, "--frozen", "--yes", "--no-verify", "--json"], t, project);
    const report = JSON.parse(result.stdout);
    expect(report.frozen).toBe(true);
    expect(report.runs.map((run: { targets: { runtime: string; scope: string }[] }) => run.targets.map((target) => `${target.runtime} ${target.scope}`))).toEqual([["claude global"], ["claude local", "codex local"]]);
    expect(existsSync(join(t.home, ".claude", "agents", "demo-agent.md"))).toBe(true);
    expect(existsSync(join(project, ".claude", "agents", "demo-agent.md"))).toBe(true);
    expect(readFileSync(join(project, "bosun.lock"), "utf8")).toBe(lock);
    expect(statSync(join(project, "bosun.lock")).mtimeMs).toBe(before.mtimeMs);
    const check = await runCli(["install", pack, "--check"], t.env, project);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/1 pack, 3 installs {2}matches/);
  });

  it("--dry-run checks the lock, shows every scope's plan and writes nothing", async () => {
    const { t, project, pack } = await locked();
    const before = everything(t);
    const result = await ok(["install", pack, "--frozen", "--dry-run", "--json"], t, project);
    const report = JSON.parse(result.stdout);
    expect(report.runs.map((run: { dryRun: boolean; targets: unknown[] }) => [run.dryRun, run.targets.length])).toEqual([[true, 1], [true, 2]]);
    expect(everything(t)).toEqual(before);
  });

  it("--runtime and --scope narrow it to a subset of the lock; from a subfolder it runs at the project's root", async () => {
    const { t, project, pack } = await locked();
    const sub = join(project, "src");
    mkdirSync(sub);
    await ok(["install", pack, "--frozen", "--runtime", "codex", "--scope", "local", ...YES], t, sub);
    expect(existsSync(join(project, ".codex"))).toBe(true);
    expect(existsSync(join(project, ".claude"))).toBe(false);
    expect(existsSync(join(sub, ".codex"))).toBe(false);
  });

  it.each([
    ["the lock is missing", async (s: Awaited<ReturnType<typeof locked>>) => unlinkSync(join(s.project, "bosun.lock")), [] as string[], /--frozen: there is no bosun\.lock in .*proj; nothing was written\. Run bosun install there \(without --frozen\) to write one/],
    ["the pack's version differs", async () => {}, ["VERSION2"], /--frozen: pack demo: its folder \(.*\) is version 2\.0\.0, the lock pins 1\.0\.0 \(.*bosun\.lock\); nothing was written\. Run bosun install without --frozen/],
    ["the pack's files differ (with where)", async (s: Awaited<ReturnType<typeof locked>>) => writeFileSync(join(s.pack, "agents", "demo-agent.md"), "---\ndescription: changed\n---\nChanged.\n"), [], /--frozen: pack demo 1\.0\.0: its files \(.*\) differ from the locked ones \(changed: agents\/\)/],
    ["a runtime the lock does not list", async () => {}, ["--runtime", "gemini"], /--frozen: the lock has no gemini install of pack demo \(it lists: claude global, claude local, codex local\)/],
    ["a runtime not in the lock for that scope", async () => {}, ["--runtime", "codex", "--scope", "global"], /--frozen: the lock has no codex global install of pack demo/],
    ["a pack the lock does not pin", async () => {}, ["OWN"], /--frozen: pack bosun is not in the lock \(it pins demo 1\.0\.0\)/],
    ["a lock from a newer bosun", async (s: Awaited<ReturnType<typeof locked>>) => writeFileSync(join(s.project, "bosun.lock"), s.lock.replace(`"lockVersion":1`, `"lockVersion":3`)), [], /bosun\.lock:1: lockVersion: is 3, from a newer bosun/],
  ])("fails before writing anything when %s, naming it", async (_name, change, extra, message) => {
    const s = await locked();
    await change(s);
    const packArg = extra.includes("OWN") ? [] : extra.includes("VERSION2") ? [packDir("demo-v2")] : [s.pack];
    const flags = extra.filter((flag) => flag !== "OWN" && flag !== "VERSION2");
    const before = everything(s.t);
    const result = await runCli(["install", ...packArg, "--frozen", ...flags, ...YES], s.t.env, s.project);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(everything(s.t)).toEqual(before);
  });
});

describe("bosun install --check", () => {
  /** A project with a copy of the demo pack in claude local and codex local, and its lock. */
  async function installed() {
    const t = makeTempHome();
    const project = makeProject(t);
    const pack = demoCopy(t);
    await ok(["install", pack, ...LOCAL("claude,codex")], t, project);
    return { t, project, pack };
  }
  const check = (s: { t: TempHome; project: string }, ...args: string[]) => runCli(["install", ...args, "--check"], s.t.env, s.project);

  it("exits 0 when everything matches, and writes nothing (no lock, journal or install lock); --json has the documented shape", async () => {
    const s = await installed();
    const before = everything(s.t);
    const result = await check(s, s.pack, "--json");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(Object.keys(report)).toEqual(["file", "ok", "checked", "drift"]);
    expect(report).toEqual({ file: join(s.project, "bosun.lock"), ok: true, checked: { packs: ["demo"], installs: [{ runtime: "claude", scope: "local", pack: "demo" }, { runtime: "codex", scope: "local", pack: "demo" }] }, drift: [] });
    expect(everything(s.t)).toEqual(before);
  });

  it("lists every drift, one line each, exits 1, and writes nothing", async () => {
    const s = await installed();
    const claude = join(s.project, ".claude");
    // The pack's source changed; an installed file edited, one deleted; the hook's entry gone.
    writeFileSync(join(s.pack, "skills", "demo-skill", "SKILL.md"), "---\nname: demo-skill\ndescription: changed\n---\nChanged.\n");
    writeFileSync(join(claude, "agents", "demo-agent.md"), "edited by hand\n");
    unlinkSync(join(claude, "commands", "demo-old.md"));
    const settings = hookSettingsFile(claude);
    writeFileSync(settings, "{}\n");
    // codex local: pinned at another version and digest in the lock (as if a teammate upgraded it).
    const lock = readFileSync(join(s.project, "bosun.lock"), "utf8");
    const demoLine = lock.split("\n").find((line) => line.includes(`"pack":"demo","version"`)) as string;
    // gemini local: installed but not in the lock.
    await ok(["install", s.pack, "--runtime", "gemini", "--scope", "local", ...YES], s.t, join(s.project, ".."));
    cpSync(join(s.project, "..", ".gemini"), join(s.project, ".gemini"), { recursive: true });
    rmSync(join(s.project, "..", ".gemini"), { recursive: true });
    writeFileSync(join(s.project, "bosun.lock"), lock);
    const before = everything(s.t);
    const result = await check(s, s.pack);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/Lock {2}.*bosun\.lock {2}1 pack, 2 installs {2}5 differences/);
    expect(lines.slice(1).map((line) => line.trim().split(/\s+/)[0])).toEqual(["source", "edited", "deleted", "entry", "not-locked"]);
    expect(result.stdout).toMatch(/source +pack demo 1\.0\.0: its files \(.*\) differ from the locked ones \(changed: skills\/\)/);
    expect(result.stdout).toMatch(/edited +claude local: agents\/demo-agent\.md \(pack demo, in .*\.claude\) was edited since bosun installed it/);
    expect(result.stdout).toMatch(/deleted +claude local: commands\/demo-old\.md \(pack demo, .*\) was deleted/);
    expect(result.stdout).toMatch(/entry +claude local: bosun's entry for pack demo is gone from settings\.local\.json: SessionStart \(demo-hook\)/);
    expect(result.stdout).toMatch(/not-locked +gemini local: pack demo 1\.0\.0 is installed in .*\.gemini but not in the lock/);
    expect(result.stderr).toMatch(/bosun: the installs differ from bosun\.lock in 5 ways; each line above says what/);
    expect(everything(s.t)).toEqual(before);

    // The lock pins another version, then another digest, of what is installed.
    writeFileSync(join(s.project, "bosun.lock"), lock.replace(demoLine, demoLine.replace(`"version":"1.0.0"`, `"version":"1.1.0"`)));
    const version = await check(s, "--runtime", "codex", "--json");
    expect(JSON.parse(version.stdout).drift.map((drift: { kind: string; text: string }) => `${drift.kind}: ${drift.text}`)).toEqual([expect.stringMatching(/^version: codex local: pack demo is installed at 1\.0\.0 in .*\.codex, the lock pins 1\.1\.0$/)]);
    writeFileSync(join(s.project, "bosun.lock"), lock.replace(/"digest":"sha256:[0-9a-f]{64}"/, `"digest":"sha256:${"0".repeat(64)}"`));
    const digest = await check(s, "--runtime", "codex");
    expect(digest.stdout).toMatch(/digest +codex local: pack demo 1\.0\.0 in .*\.codex was installed from other files than the locked ones; run bosun install --frozen/);
  });

  it("a run interrupted in a locked folder is drift (the check does not roll it back: it writes nothing)", async () => {
    const s = await installed();
    const run = "2026-12-01T00-00-00-000Z-0badf00d";
    const begin = { op: "begin", runId: run, startedAt: "2026-12-01T00:00:00.000Z", pid: 1, host: "h", runtime: "claude", scope: "local", pack: "demo", bosunVersion: "0.1.0" };
    s.t.write(join(s.project, ".claude", "bosun-journal", `${run}.jsonl`), [begin, { op: "create", path: "commands/extra.md" }].map((line) => JSON.stringify(line)).join("\n") + "\n");
    s.t.write(join(s.project, ".claude", "commands", "extra.md"), "half written\n");
    const before = everything(s.t);
    const result = await check(s, "--runtime", "claude", "--json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).drift).toEqual([{ kind: "interrupted", pack: "demo", runtime: "claude", scope: "local", text: `claude local: an install in ${join(s.project, ".claude")} was interrupted; run bosun install --frozen to roll it back and finish` }]);
    expect(everything(s.t)).toEqual(before);
  });

  it("a locked install missing from a fresh home is drift (global scope); a pack the lock does not have, given as PACK, too", async () => {
    const s = await installed();
    await ok(["install", s.pack, "--runtime", "claude", "--scope", "global", ...YES], s.t, s.project);
    const fresh = makeTempHome();
    const clone = makeProject(fresh);
    cpSync(join(s.project, "bosun.lock"), join(clone, "bosun.lock"));
    const missing = await runCli(["install", "--check", "--scope", "global"], fresh.env, clone);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/missing +claude global: pack demo is not installed \(the lock pins 1\.0\.0\); run bosun install --frozen/);
    const other = await runCli(["install", packDir("demo-v2"), "--check"], fresh.env, clone);
    expect(other.stdout).toMatch(/source +pack demo: its folder \(.*demo-v2\) is version 2\.0\.0, the lock pins 1\.0\.0/);
    const renamed = demoCopy(fresh);
    writeFileSync(join(renamed, "pack.json"), JSON.stringify({ ...JSON.parse(readFileSync(join(renamed, "pack.json"), "utf8")), name: "renamed" }));
    const unlocked = await runCli(["install", renamed, "--check", "--json"], fresh.env, clone);
    expect(unlocked.code).toBe(1);
    expect(JSON.parse(unlocked.stdout).drift).toEqual([{ kind: "unlocked-pack", pack: "renamed", text: `pack renamed (${renamed}) is not in the lock; bosun install it from the project's root to add it` }]);
  });

  it("with no lock, or a lock of the wrong shape: one line naming the file, exit 1, nothing written", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    const none = await runCli(["install", "--check"], t.env, project);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^bosun: --check: there is no bosun\.lock in .*proj; nothing was written/);
    writeFileSync(join(project, "bosun.lock"), `{"lockVersion":1}\n{"pack":"bosun","version":"0.1.0","digest":"sha256:${"a".repeat(64)}","parts":{}}\n{"install":"claude","scope":"local","pack":7}\n`);
    const before = everything(t);
    const wrong = await runCli(["install", "--check"], t.env, project);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(`bosun: ${join(project, "bosun.lock")}:3: pack: must be a string (a pack name); nothing was changed`);
    expect(everything(t)).toEqual(before);
  });
});

describe("flag combinations the lock refuses", () => {
  it.each([
    [["--frozen", "--check"], /--check only reads and compares with bosun\.lock; it does not take --frozen/],
    [["--check", "--dry-run", "--yes"], /--check only reads .*; it does not take --dry-run, --yes/],
    [["--check", "--resolve", "remove"], /--check only reads .*; it does not take --resolve/],
    [["--frozen", "--all-detected"], /--frozen installs the runtimes bosun\.lock lists; it does not take --all-detected/],
    [["--frozen", "--status"], /--frozen installs the runtimes bosun\.lock lists; it does not take --status/],
    [["--frozen", "--resolve", "keep"], /--frozen installs exactly what bosun\.lock says, and --resolve keep would leave a locked file out; pass --resolve remove/],
  ])("install %j → one line, nothing written", async (flags, message) => {
    const t = makeTempHome();
    const project = makeProject(t);
    const before = everything(t);
    const result = await runCli(["install", ...flags], t.env, project);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(everything(t)).toEqual(before);
  });
});

describe("bosun doctor: the lock section", () => {
  it("reports the lock check when the project has a lock: matches, then each difference as a problem", async () => {
    const t = makeTempHome();
    const project = makeProject(t);
    await ok(["install", ...LOCAL("claude")], t, project);
    const clean = await runCli(["doctor"], t.env, project);
    expect(clean.stdout).toMatch(/Lock {2}.*bosun\.lock {2}1 pack, 1 install {2}matches/);
    unlinkSync(join(project, ".claude", "agents", "bosun-reviewer.md"));
    const drift = await runCli(["doctor", "--json"], t.env, project);
    expect(drift.code).toBe(1);
    const report = JSON.parse(drift.stdout);
    expect(report.lock.drift.map((entry: { kind: string; path?: string }) => `${entry.kind} ${entry.path}`)).toEqual(["deleted agents/bosun-reviewer.md"]);
    expect(report.problems.filter((problem: { kind: string }) => problem.kind === "lock").map((problem: { text: string }) => problem.text)).toEqual([expect.stringMatching(/^bosun\.lock: claude local: agents\/bosun-reviewer\.md \(pack bosun, in .*\) was deleted since bosun installed it$/)]);
    writeFileSync(join(project, "bosun.lock"), "garbled\n");
    const garbled = await runCli(["doctor"], t.env, project);
    expect(garbled.stdout).toMatch(/Lock {2}.*bosun\.lock {2}cannot be read \(see Problems\)/);
    expect(garbled.stdout).toMatch(/✗ .*bosun\.lock:1: is not a JSON object on one line/);
    // Outside a project: no lock section.
    const home = await runCli(["doctor", "--json"], t.env, t.home);
    expect(JSON.parse(home.stdout).lock).toBeNull();
  });
});

/** The settings file bosun put the demo hook's entry in (Claude's local scope). */
function hookSettingsFile(claude: string): string {
  for (const name of ["settings.json", "settings.local.json"]) if (existsSync(join(claude, name))) return join(claude, name);
  throw new Error("no settings file");
}

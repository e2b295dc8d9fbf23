// Seeded crash runs: the install process is killed with SIGKILL at a random change of an
// upgrade (two runtimes, three roots); the next run rolls the interrupted one back and ends with
// the full new install, every user file intact, no stale lock and no journal left open.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PackNotInstalledError } from "../../src/install/install-errors.js";
import { runCli } from "../fixtures/cli.js";
import { install, packDir, treeState, uninstall } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { seededRandom } from "../fixtures/random.js";

const CHILD = fileURLToPath(new URL("../fixtures/install-crash-child.mjs", import.meta.url));
// BOSUN_CRASH_RUNS raises the number of kill points for a longer local soak.
const RUNS = Math.max(30, Number(process.env.BOSUN_CRASH_RUNS ?? 32));
const RUNTIMES = ["claude", "codex"];

/** v1 installed in Claude Code and Codex, plus files of yours next to bosun's. */
async function prepared(): Promise<{ t: TempHome; mine: Map<string, string> }> {
  const t = makeTempHome();
  const claude = join(t.home, ".claude");
  t.write(join(claude, "settings.json"), '{\n  "model": "opus", // mine\n}\n');
  t.write(join(t.home, ".codex/config.toml"), '# mine\r\nmodel = "gpt-5"\r\n');
  await install(t, { pack: packDir("demo-v1"), runtimes: RUNTIMES });
  const mine = new Map<string, string>();
  const put = (path: string, content: string) => mine.set(t.write(path, content), content);
  put(join(claude, "commands/mine.md"), "my command\n");
  put(join(claude, "skills/demo-skill/references/deep/mine.md"), "my notes\n");
  put(join(t.home, ".agents/skills/my-skill/SKILL.md"), "---\nname: my-skill\ndescription: mine\n---\n");
  writeFileSync(join(claude, "agents/demo-agent.md"), "my edits\n");
  mine.set(join(claude, "agents/demo-agent.md"), "my edits\n");
  symlinkSync("../notes.md", join(claude, "skills/demo-skill/references/link.md"));
  return { t, mine };
}

/** Kills the run before its `killAt`-th change, or before the first change to a path ending in `killAt`. */
function runChild(t: TempHome, killAt: number | string, mode: "install" | "uninstall" = "install", pack = packDir("demo-v3")) {
  const kill = typeof killAt === "number" ? { CRASH_AFTER_WRITES: String(killAt) } : { CRASH_AT_PATH: killAt };
  const env = { ...t.env, ...kill, INSTALL_RUNTIMES: RUNTIMES.join(","), ...(mode === "install" ? { INSTALL_PACK: pack } : { INSTALL_MODE: "uninstall" }) };
  return spawnSync(process.execPath, [CHILD], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
}

/** The completed v3 install, without what differs per run (journals, manifest times). */
function shape(t: TempHome): Record<string, string> {
  return Object.fromEntries(Object.entries(treeState(t.home)).filter(([path]) => !path.includes("bosun-journal") && !path.endsWith("bosun-manifest.json") && !path.endsWith("bosun-install-state.json")));
}

describe("an upgrade killed with SIGKILL at a random moment", async () => {
  const reference = await prepared();
  const probe = runChild(reference.t, -1);
  const total = probe.status === 0 ? (JSON.parse(probe.stdout) as { writes: number }).writes : 0;
  const expected = shape(reference.t);

  it("counts its changes when not killed", () => {
    expect(probe.stderr).toBe("");
    expect(total).toBeGreaterThan(40);
  });

  const next = seededRandom(11);
  const killPoints = Array.from({ length: RUNS }, () => Math.floor(next() * total));

  it.each(killPoints.map((at, run) => [run, at]))("run %i: killed before change %i, then the next install completes", async (_run, killAt) => {
    const { t, mine } = await prepared();
    const crashed = runChild(t, killAt);
    expect(crashed.signal).toBe("SIGKILL");

    const outcome = await install(t, { pack: packDir("demo-v3"), runtimes: RUNTIMES });
    expect(outcome.result.targets.every((target) => target.roots.every((root) => root.status !== "planned"))).toBe(true);
    expect(shape(t)).toEqual(expected);
    for (const [path, content] of mine) expect(readFileSync(path, "utf8"), path).toBe(content);
    for (const root of [join(t.home, ".claude"), join(t.home, ".codex"), join(t.home, ".agents")]) {
      expect(existsSync(join(root, "bosun-install.lock")), `${root}: no stale lock`).toBe(false);
      for (const name of readdirSync(join(root, "bosun-journal"))) {
        expect(name, `${root}: only committed journals`).toMatch(/\.jsonl$/);
        expect(readFileSync(join(root, "bosun-journal", name), "utf8")).toContain('"op":"commit"');
      }
    }
  });
});

/** Where bosun keeps its state for each root of bosun's pack in Claude Code and Codex (the home folder's root, of ~/.claude.json, keeps it in ~/.claude/bosun-home). */
const STATE_DIRS = [".claude", ".claude/bosun-home", ".codex", ".agents"];

/** bosun's pack installed in a fresh home (so bosun made every folder), plus a command of yours and your edits to one of bosun's files. */
async function preparedForUninstall(): Promise<{ t: TempHome; journals: Set<string> }> {
  const t = makeTempHome();
  await install(t, { runtimes: RUNTIMES });
  t.write(join(t.home, ".claude/commands/mine.md"), "my command\n");
  writeFileSync(join(t.home, ".claude/agents/bosun-reviewer.md"), "my edits\n");
  return { t, journals: new Set(journalFiles(t)) };
}

function journalFiles(t: TempHome): string[] {
  return Object.keys(treeState(t.home)).filter((path) => path.endsWith(".jsonl"));
}

/** The home as you see it: without bosun's data folder and the backup's run id. */
function userView(t: TempHome): Record<string, string> {
  return Object.fromEntries(
    Object.entries(treeState(t.home))
      .filter(([path]) => !path.startsWith(".local"))
      .map(([path, state]) => [path.replace(/bosun-backups\/[^/]+/, "bosun-backups/<run>"), state]),
  );
}

/**
 * Without what a run killed after its commit leaves of bosun's own: its journal, its lock, and a
 * runtime folder it emptied but had not removed yet. Any other folder left is a failure.
 */
function withoutLeftovers(tree: Record<string, string>): Record<string, string> {
  const kept = Object.entries(tree).filter(([path]) => !/(^|\/)(bosun-journal|bosun-install\.lock)(\/|$)/.test(path));
  const emptiedRoot = (path: string) => STATE_DIRS.includes(path) && !kept.some(([other]) => other.startsWith(path + "/"));
  return Object.fromEntries(kept.filter(([path]) => !emptiedRoot(path)));
}

describe("an uninstall killed with SIGKILL at a random moment", async () => {
  const reference = await preparedForUninstall();
  const probe = runChild(reference.t, -1, "uninstall");
  const total = probe.status === 0 ? (JSON.parse(probe.stdout) as { writes: number }).writes : 0;
  const expected = userView(reference.t);

  it("counts its changes when not killed, and removes every folder bosun made that nothing is left in", () => {
    expect(probe.stderr).toBe("");
    expect(total).toBeGreaterThan(40);
    expect(Object.keys(expected).filter((path) => !path.startsWith(".claude/bosun-backups/"))).toEqual([".claude", ".claude/bosun-backups", ".claude/commands", ".claude/commands/mine.md"]);
  });

  const next = seededRandom(23);
  const killPoints = Array.from({ length: Math.ceil(RUNS * 0.75) }, () => Math.floor(next() * total));

  it.each(killPoints.map((at, run) => [run, at]))("run %i: killed before change %i, then the next uninstall completes (or finds it complete)", async (_run, killAt) => {
    const { t, journals } = await preparedForUninstall();
    expect(runChild(t, killAt, "uninstall").signal).toBe("SIGKILL");
    // The killed run committed in a folder when its journal there has the commit line, or is gone with the manifest (tidied).
    const fresh = journalFiles(t).filter((path) => !journals.has(path));
    const committed = STATE_DIRS.some((root) => {
      const own = fresh.filter((path) => path.startsWith(`${root}/`)).map((path) => readFileSync(join(t.home, path), "utf8").includes('"op":"commit"'));
      return own.includes(true) || (own.length === 0 && !existsSync(join(t.home, root, "bosun-manifest.json")));
    });
    const again = await uninstall(t, { runtimes: RUNTIMES }).then(
      () => null,
      (error: unknown) => error,
    );
    if (!committed) {
      // Rolled back, then done in full: exactly what an uninterrupted uninstall leaves.
      expect(again).toBeNull();
      expect(userView(t)).toEqual(expected);
    } else {
      // Killed after a commit: what that run had not tidied yet may stay, nothing else.
      if (again !== null) expect(again).toBeInstanceOf(PackNotInstalledError);
      expect(withoutLeftovers(userView(t))).toEqual(withoutLeftovers(expected));
    }
    expect(readFileSync(join(t.home, ".claude/commands/mine.md"), "utf8")).toBe("my command\n");
  });
});

/** A pack whose skill has a file at a path of the longest length an action may have (1,024 characters), with the longest name (255 bytes). */
function longPathPack(t: TempHome, version: string): { dir: string; rel: string } {
  const rel = ["skills/deep/references", "a".repeat(199), "b".repeat(199), "c".repeat(199), "d".repeat(199), "e".repeat(70), `${"é".repeat(125)}ee.md`].join("/");
  expect([rel.length, Buffer.byteLength(rel.split("/").at(-1)!)]).toEqual([1024, 255]);
  const dir = join(t.root, `long-${version}`);
  t.write(join(dir, "pack.json"), JSON.stringify({ name: "long", version, artifacts: { skills: ["deep"] } }));
  t.write(join(dir, "skills/deep/SKILL.md"), "---\nname: deep\ndescription: a skill with a deep file\n---\nRead the references.\n");
  t.write(join(dir, rel), `version ${version}\n`);
  return { dir, rel };
}

describe("an action path of the longest length allowed", () => {
  it("its file is replaced (its temp file's name cut to fit), and the journal lines of its backup and temp file (longer still) read back: after a committed upgrade, and after one killed part way", async () => {
    for (const killed of [false, true]) {
      const t = makeTempHome();
      const v1 = longPathPack(t, "1.0.0");
      await install(t, { pack: v1.dir, runtimes: RUNTIMES });
      writeFileSync(join(t.home, ".claude", v1.rel), "my edits\n");
      // The upgrade backs up your edited copy and replaces the file through a temp file.
      const v2 = longPathPack(t, "2.0.0");
      if (killed) expect(runChild(t, "bosun-manifest.json", "install", v2.dir).signal).toBe("SIGKILL");
      else await install(t, { pack: v2.dir, runtimes: RUNTIMES });
      const result = await runCli(["install", v2.dir, "--runtime", RUNTIMES.join(","), "--scope", "global", "--yes"], t.env, t.home);
      expect([result.code, result.stderr], killed ? "killed" : "committed").toEqual([0, ""]);
      const tree = treeState(t.home);
      expect(readFileSync(join(t.home, ".claude", v2.rel), "utf8")).toBe("version 2.0.0\n");
      const backups = Object.keys(tree).filter((path) => path.startsWith(".claude/bosun-backups/") && path.endsWith(v1.rel));
      expect(backups.map((path) => readFileSync(join(t.home, path), "utf8"))).toEqual(["my edits\n"]);
      expect(Object.keys(tree).filter((path) => path.endsWith(".bosun-tmp"))).toEqual([]);
    }
  });
});

import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startBosun } from "../../src/app/start.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { seededRandom } from "../fixtures/random.js";

const CHILD = fileURLToPath(new URL("../fixtures/legacy-crash-child.ts", import.meta.url));
// BOSUN_CRASH_RUNS raises the number of kill points per mode for a longer local soak.
const RUNS_PER_MODE = Number(process.env.BOSUN_CRASH_RUNS ?? 12);

/** A legacy tree in which every file has unique content, and where each file must end up. */
function legacyTree(t: TempHome): Map<string, string> {
  const { legacy, config, data, cache } = t.paths;
  const expected = new Map<string, string>();
  const file = (from: string, to: string) => {
    const content = JSON.stringify({ legacy: from, nonce: Math.random() });
    t.write(join(legacy, from), content);
    expected.set(content, to);
  };
  // Translated on the way: the translation becomes bosun.json, the original its backup.
  const settings = JSON.stringify({ legacy: "settings.json", nonce: Math.random(), defaultModel: "anthropic/claude-sonnet-5" });
  t.write(join(legacy, "settings.json"), settings);
  expected.set(settings, join(config, "legacy-settings.json"));
  expected.set(settings.replace('"defaultModel"', '"model"'), join(config, "bosun.json"));
  file("secrets.env", join(data, "secrets.env"));
  file(".env", join(data, ".env"));
  for (let i = 0; i < 6; i++) file(`sessions/s${i}.jsonl`, join(data, `sessions/s${i}.jsonl`));
  file("sessions/2025/old.jsonl", join(data, "sessions/2025/old.jsonl"));
  file("agents/rev/agent.json", join(data, "agents/rev/agent.json"));
  file("agents/rev/notes.md", join(data, "agents/rev/notes.md"));
  file("plugins/p/plugin.json", join(data, "plugins/p/plugin.json"));
  file("cache/models.json", join(cache, "models.json"));
  file("cache/deep/x.bin", join(cache, "deep/x.bin"));
  t.write(join(legacy, "logs/old.log"), "dropped");
  symlinkSync("s0.jsonl", join(legacy, "sessions/latest"));
  // Targets that already exist: one merged folder and a .env that is replaced with a backup.
  t.write(join(data, "sessions/existing.jsonl"), "was already there");
  expected.set("was already there", join(data, "sessions/existing.jsonl"));
  t.write(join(data, ".env"), "OLD_ENV=1\n");
  expected.set("OLD_ENV=1\n", join(data, ".env.startup-migration-backup"));
  return expected;
}

function runChild(t: TempHome, killAt: number, exdev: boolean) {
  const env = { ...t.env, CRASH_AFTER_OPS: String(killAt), ...(exdev ? { CRASH_EXDEV_ROOT: t.paths.legacy } : {}) };
  return spawnSync(process.execPath, ["--import", "tsx", CHILD], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
}

function allFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = lstatSync(path);
    if (info.isDirectory()) allFiles(path, out);
    else out.push(path);
  }
  return out;
}

describe.each([
  ["on one filesystem", false],
  ["across filesystems", true],
])("a start killed during 10_legacy_layout %s", (_label, exdev) => {
  const counted = makeTempHome();
  legacyTree(counted);
  const probe = runChild(counted, -1, exdev);
  const totalOps = probe.status === 0 ? (JSON.parse(probe.stdout) as { ops: number }).ops : 0;

  it("counts its file-system changes when not killed", () => {
    expect(probe.stderr).toBe("");
    expect(totalOps).toBeGreaterThan(10);
  });

  const next = seededRandom(exdev ? 7 : 3);
  const killPoints = Array.from({ length: RUNS_PER_MODE }, () => Math.floor(next() * Math.max(totalOps, 1)));

  it.each(killPoints.map((at, run) => [run, at]))("run %i: killed before change %i, then a normal start finishes the move", async (_run, killAt) => {
    const t = makeTempHome();
    const expected = legacyTree(t);
    const crashed = runChild(t, killAt, exdev);
    expect(crashed.signal).toBe("SIGKILL");

    await startBosun({ env: { ...t.env }, cwd: t.home, skipConfig: true, spawnDetached: () => "" });

    const files = allFiles(t.home);
    for (const [content, target] of expected) {
      expect(readFileSync(target, "utf8"), relative(t.home, target)).toBe(content);
      const copies = files.filter((f) => lstatSync(f).isFile() && readFileSync(f, "utf8") === content);
      expect(copies.map((f) => relative(t.home, f)), `exactly one copy of ${relative(t.home, target)}`).toEqual([relative(t.home, target)]);
    }
    expect(lstatSync(join(t.paths.data, "sessions/latest")).isSymbolicLink()).toBe(true);
    expect(files.filter((f) => f.endsWith(".tmp") || f.includes(".stale-") || f.endsWith(".lock"))).toEqual([]);
    expect(existsSync(t.paths.legacy)).toBe(false);
  });
});

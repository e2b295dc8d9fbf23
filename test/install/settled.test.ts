import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELPER_RELATIVE_PATH } from "../../src/install/hook-helper.js";
import { collectHeadlessDefaults } from "../../src/runtimes/headless.js";
import type { InstallOutcome } from "../../src/install/install-pack.js";
import { journalDir } from "../../src/install/apply/journal.js";
import { buildInstallReport } from "../../src/install/report.js";
import { MANIFEST_FILE, STATE_FILE, statePath, type InstallRoot } from "../../src/install/records/root.js";
import { install, packDir, treeState, watchedFs } from "../fixtures/install.js";
import { pick as pickIndex, seededRandom } from "../fixtures/random.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const RUNTIME_SETS = [["claude"], ["codex"], ["opencode"], ["gemini"], ["claude", "opencode"], ["codex", "gemini"], ["cursor"]];

interface World {
  t: TempHome;
  pack: string;
  runtimes: string[];
  options: Record<string, unknown>;
  /** The roots of the first install (every runtime's). */
  roots: InstallRoot[];
  random: () => number;
}

/** One element of a list, at random. */
const pick = <T,>(random: () => number, list: readonly T[]): T => list[pickIndex(random, list.length)] as T;

function filesUnder(dir: string, base = dir, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, base, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function installedFiles(w: World): string[] {
  return w.roots.flatMap((root) => {
    const manifest = statePath(root, MANIFEST_FILE);
    if (!existsSync(manifest)) return [];
    return Object.keys(JSON.parse(readFileSync(manifest, "utf8")).files as Record<string, string>).map((rel) => join(root.dir, rel));
  });
}

const CONFIG_NAMES = new Set(["settings.json", "hooks.json", "config.toml", "opencode.json", "opencode.jsonc"]);
const configFiles = (w: World) => w.roots.flatMap((root) => (existsSync(root.dir) ? readdirSync(root.dir).filter((name) => CONFIG_NAMES.has(name)).map((name) => join(root.dir, name)) : []));

/** Every change a user, an editor, git or another tool makes between two installs. */
const MUTATIONS: Record<string, (w: World) => void> = {
  "pack file edited": (w) => {
    const file = pick(w.random, filesUnder(w.pack).filter((path) => !path.endsWith("pack.json")));
    writeFileSync(file, readFileSync(file, "utf8") + "\nMore text.\n");
  },
  "pack file rewritten with the same bytes": (w) => {
    const file = pick(w.random, filesUnder(w.pack));
    writeFileSync(file, readFileSync(file));
  },
  "pack file added": (w) => writeFileSync(join(w.pack, "skills/demo-skill/references/new.md"), "A new reference.\n"),
  "pack file removed": (w) => rmSync(join(w.pack, "skills/demo-skill/references/notes.md")),
  "pack dot-file added": (w) => writeFileSync(join(w.pack, "skills/demo-skill/.DS_Store"), "x"),
  "pack file made executable": (w) => chmodSync(join(w.pack, "skills/demo-skill/references/notes.md"), 0o755),
  "pack version bumped": (w) => {
    const file = join(w.pack, "pack.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"1.0.0"', '"1.0.1"'));
  },
  "pack migration added": (w) => {
    mkdirSync(join(w.pack, "migrations"), { recursive: true });
    const record = { id: "2026-12-02-retire-gone", title: "Retire a command", description: "gone is gone", introducedIn: "1.0.1", scopes: ["global", "local"], destructive: true, steps: [{ type: "retire-command", name: "gone" }] };
    writeFileSync(join(w.pack, "migrations/002-retire-gone.json"), JSON.stringify(record));
  },
  "installed file edited": (w) => {
    const file = pick(w.random, installedFiles(w));
    if (file) writeFileSync(file, "edited by the user\n");
  },
  "installed file rewritten with the same bytes": (w) => {
    const file = pick(w.random, installedFiles(w));
    if (file) writeFileSync(file, readFileSync(file));
  },
  "installed file deleted": (w) => {
    const file = pick(w.random, installedFiles(w));
    if (file) unlinkSync(file);
  },
  "installed file mode changed": (w) => {
    const file = pick(w.random, installedFiles(w));
    if (file) chmodSync(file, statSync(file).mode & 0o111 ? 0o644 : 0o755);
  },
  "your file added next to bosun's": (w) => {
    const file = pick(w.random, installedFiles(w));
    if (file) writeFileSync(join(file, "..", "mine.md"), "mine\n");
  },
  "installed folder swapped for a symlink": (w) => {
    const file = pick(w.random, installedFiles(w).filter((path) => path.includes("/skills/")));
    if (!file) return;
    const folder = join(file, "..");
    if (lstatSync(folder).isSymbolicLink() || existsSync(`${folder}.copy`)) return;
    cpSync(folder, `${folder}.copy`, { recursive: true });
    rmSync(folder, { recursive: true });
    symlinkSync(`${folder}.copy`, folder);
  },
  "config edited": (w) => {
    const file = pick(w.random, configFiles(w));
    if (!file) return;
    const text = readFileSync(file, "utf8");
    writeFileSync(file, file.endsWith(".toml") ? `${text}\n[mine]\nkey = 1\n` : text.replace("{", '{\n  "mine": 1,'));
  },
  "config deleted": (w) => {
    const file = pick(w.random, configFiles(w));
    if (file) unlinkSync(file);
  },
  "manifest rewritten with the same bytes": (w) => {
    const file = statePath(w.roots[0]!, MANIFEST_FILE);
    if (existsSync(file)) writeFileSync(file, readFileSync(file));
  },
  "manifest entry removed": (w) => {
    const file = statePath(w.roots[0]!, MANIFEST_FILE);
    if (!existsSync(file)) return;
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    delete manifest.files[pick(w.random, Object.keys(manifest.files))];
    writeFileSync(file, JSON.stringify(manifest, null, 2));
  },
  "applied migration dropped from the install state": (w) => {
    const file = statePath(w.roots[0]!, STATE_FILE);
    if (!existsSync(file)) return;
    const state = JSON.parse(readFileSync(file, "utf8"));
    state.appliedMigrations = [];
    writeFileSync(file, JSON.stringify(state));
  },
  "a run left its stash": (w) => mkdirSync(join(journalDir(w.roots[0]!), "20261130T000000Z-dead"), { recursive: true }),
  "helper deleted": (w) => rmSync(join(w.t.paths.data, HELPER_RELATIVE_PATH), { force: true }),
  "agents config changed": (w) => {
    const key = Object.keys(collectHeadlessDefaults(undefined)[w.runtimes[0]!] ?? {})[0];
    if (key) w.options.agentsConfig = { [w.runtimes[0]!]: { [key]: "changed-by-the-user" } };
  },
  "bosun upgraded": (w) => void (w.options.bosunVersion = "0.2.0"),
  "another runtime added to the run": (w) => void (w.runtimes = [...w.runtimes, pick(w.random, ["claude", "opencode", "codex", "gemini"].filter((id) => !w.runtimes.includes(id)))]),
  "another runtime installed on its own": async (w) => void (await install(w.t, { pack: w.pack, runtimes: [pick(w.random, ["opencode", "codex", "gemini"])] })),
};

/** A reinstall as `bosun install --dry-run` plans it, trusting settled roots or planning in full. */
const plan = (w: World, trustSettled: boolean) => install(w.t, { pack: w.pack, runtimes: w.runtimes, dryRun: true, trustSettled, ...w.options });

async function attempt(run: () => Promise<InstallOutcome>): Promise<{ outcome: InstallOutcome } | { error: string }> {
  try {
    return { outcome: await run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Everything an outcome shows, with the plans' actions as the full planner makes them (a settled plan has no pack files' sources). */
function shown(outcome: InstallOutcome) {
  return {
    report: buildInstallReport(outcome, true),
    plans: outcome.result.targets.flatMap(({ roots }) =>
      roots.map(({ plan }) => ({ actions: plan.actions.map((action) => ({ ...action, desired: undefined })), config: plan.config, createdFiles: plan.createdFiles, notes: plan.notes, pending: plan.pending.map(({ record, checksum, actions }) => ({ id: record.id, source: record.source, checksum, actions })), drift: plan.drift, manifest: plan.manifest })),
    ),
  };
}

describe("settled reinstall", () => {
  it("a settled root is reinstalled without loading the pack, with the outcome a full plan gives, and nothing written", async () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const first = await install(t, { pack });
    expect(first.settled).toBe(false);
    const tree = treeState(t.home);
    const fs = watchedFs(() => undefined);
    const again = await install(t, { pack, fs });
    expect(again.settled).toBe(true);
    expect(fs.writes()).toBe(0);
    expect(treeState(t.home)).toEqual(tree);
    expect(again.result.targets[0]!.roots[0]!.status).toBe("unchanged");
    expect(shown(again)).toEqual(shown(await install(t, { pack, trustSettled: false })));
  });

  it("property: whenever a reinstall trusts a settled root, the full planner also finds nothing to do and shows the same (300 seeded scenarios)", async () => {
    const names = Object.keys(MUTATIONS);
    const seen = { settled: 0, full: 0, mutationsTrusted: new Set<string>() };
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const t = makeTempHome();
      const pack = join(t.root, "pack");
      cpSync(packDir("demo-v1"), pack, { recursive: true });
      const w: World = { t, pack, runtimes: [...pick(random, RUNTIME_SETS)], options: {}, roots: [], random };
      // Sometimes one of your files is where the pack puts one (kept: asked again next time).
      const conflict = random() < 0.15 ? pick(random, ["keep", "remove"] as const) : null;
      if (conflict) {
        const first = await install(t, { pack, runtimes: w.runtimes, dryRun: true });
        const target = first.result.targets[0]!.roots[0]!;
        const write = target.plan.actions.find((action) => action.type === "write-file");
        if (write) t.write(join(target.root.dir, write.rel), "my own file\n");
      }
      const first = await install(t, { pack, runtimes: w.runtimes, ...(conflict ? { resolve: conflict } : {}) });
      w.roots = first.result.targets.flatMap(({ roots }) => roots.map(({ root }) => root));
      const applied: string[] = [];
      for (let step = Math.floor(random() * 4); step > 0; step--) {
        const name = pick(random, names);
        await MUTATIONS[name]!(w);
        applied.push(name);
      }
      const label = `seed ${seed} (${w.runtimes.join(",")}${conflict ? `, conflict ${conflict}` : ""}): ${applied.join(" + ") || "no change"}`;
      const trusting = await attempt(() => plan(w, true));
      const full = await attempt(() => plan(w, false));
      if ("error" in trusting || "error" in full) {
        // A pack broken by the change is reported either way, never trusted.
        expect(trusting, label).toEqual(full);
        seen.full++;
        continue;
      }
      const trusted = trusting.outcome;
      expect(full.outcome.settled, label).toBe(false);
      if (trusted.settled) {
        seen.settled++;
        for (const name of applied) seen.mutationsTrusted.add(name);
        expect(full.outcome.result.targets.flatMap(({ roots }) => roots.map((root) => root.status)).every((status) => status === "unchanged"), label).toBe(true);
        expect(shown(trusted), label).toEqual(shown(full.outcome));
      } else {
        seen.full++;
        expect(shown(trusted), label).toEqual(shown(full.outcome));
      }
      // Nothing changed and nothing asked again: the reinstall must be the settled one.
      if (applied.length === 0 && conflict !== "keep") expect(trusted.settled, label).toBe(true);
    }
    // Both paths ran often; a change to the pack, an installed file or the inputs was never trusted.
    expect(seen.settled).toBeGreaterThan(30);
    expect(seen.full).toBeGreaterThan(100);
    for (const name of ["pack file edited", "pack file added", "pack file removed", "installed file edited", "installed file deleted", "installed file mode changed", "bosun upgraded", "pack version bumped", "a run left its stash"]) {
      expect([...seen.mutationsTrusted], name).not.toContain(name);
    }
  }, 240_000);

  it("bosun's own pack: a deleted hook helper is put back by a full plan, and the reinstall after that is settled", async () => {
    const t = makeTempHome();
    await install(t);
    const helper = join(t.paths.data, HELPER_RELATIVE_PATH);
    rmSync(helper);
    const again = await install(t);
    expect(again.settled).toBe(false);
    expect(again.result.helper).toEqual({ path: helper, installed: true });
    expect((await install(t)).settled).toBe(true);
  });

  it("after a real reinstall that changed something, the next one is settled again; a moved pack folder is planned in full", async () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    await install(t, { pack, runtimes: ["claude", "codex"] });
    writeFileSync(join(pack, "skills/demo-skill/references/notes.md"), "New notes.\n");
    const upgrade = await install(t, { pack, runtimes: ["claude", "codex"] });
    expect(upgrade.settled).toBe(false);
    expect(upgrade.result.targets.flatMap(({ roots }) => roots.map((root) => root.status))).toContain("changed");
    expect((await install(t, { pack, runtimes: ["claude", "codex"] })).settled).toBe(true);
    renameSync(pack, `${pack}-moved`);
    const moved = await install(t, { pack: `${pack}-moved`, runtimes: ["claude", "codex"] });
    expect(moved.settled).toBe(false);
  });
});

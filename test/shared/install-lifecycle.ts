// The install lifecycle every runtime must pass, in every scope it declares (as Hono runs one
// suite against every adapter): a fresh install, a settled reinstall that writes nothing, an
// upgrade that backs up your edits, an uninstall that gives the tree back byte for byte, a fault
// at a stride of writes (tree restored, or the run complete), SIGKILL at seeded points (the next
// run recovers), and the config files the runtime's contract edits keeping your BOM, comments
// and CRLF. Everything it expects per runtime is derived from the runtime's declared install surface.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { parseConfig } from "../../src/install/config/json-hooks.js";
import { parseToml } from "../../src/install/config/toml-block.js";
import { InstallFailedError, PackNotInstalledError } from "../../src/install/install-errors.js";
import type { InstallFs } from "../../src/install/apply/install-fs.js";
import type { InstallOutcome } from "../../src/install/install-pack.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { JOURNAL_DIR, LOCK_FILE, MANIFEST_FILE, statePath, type InstallRoot } from "../../src/install/records/root.js";
import { isSkip, type InstallScope } from "../../src/runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../src/runtimes/kit/types.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { failingFs, install, uninstall, watchedFs } from "../fixtures/install.js";
import { seededRandom } from "../fixtures/random.js";
import { completed, configSurfaces, makeWorld, PACK, PACK_HOOK_EVENT, seed, surfaceLabel, surfacePath, tree, V1, V2, type World } from "./lifecycle-world.js";

const CHILD = fileURLToPath(new URL("../fixtures/install-crash-child.mjs", import.meta.url));
/**
 * Faults: the first write, every STRIDE-th of an upgrade (every 3·STRIDE-th of a fresh install
 * and of an uninstall) from an offset seeded per case, and the last LAST_WRITES. Every k is run
 * for Claude Code and Codex in test/install/fault-injection.test.ts; here a run is 35 to 95
 * writes (journal, backups, replacements, config edits, removals, manifest, tidying), so the
 * stride still hits each phase of the upgrade, and the offsets differ between the 32 runtime ×
 * scope cases, which keeps them all inside the suite's time budget.
 */
const STRIDE = 7;
const LAST_WRITES = 2;

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;
const statuses = (outcome: InstallOutcome) => outcome.result.targets.flatMap((target) => target.roots.map((root) => root.status));
const manifestOf = (root: InstallRoot) => readManifest(nodeFs, statePath(root, MANIFEST_FILE)).manifest;
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
/** The user's files that no config contract names (those bosun edits on purpose). */
const untouchable = (w: World) => [...w.mine].filter(([path]) => !configSurfaces(w.runtime, w.scope).surfaces.some((surface) => path === surfacePath(w, surface)));

/** A random sequence seeded by the runtime and scope: each case faults and kills at its own points. */
function caseRandom(runtime: InstallRuntime, scope: InstallScope): () => number {
  return seededRandom([...`${runtime.id}/${scope}`].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7));
}

/** v1 installed over the user's files, then one of bosun's files edited by the user (the first the manifest lists). */
async function installedV1(runtime: InstallRuntime, scope: InstallScope): Promise<World> {
  const w = makeWorld(runtime, scope);
  seed(w);
  await install(w.t, { ...w.options, pack: V1 });
  writeFileSync(join(w.main.dir, Object.keys(manifestOf(w.main).files).sort()[0]!), "my edits\n");
  return w;
}

/**
 * The runs a fault or a SIGKILL interrupts, each from where it starts: v1 into an empty home
 * (bosun makes the runtime's folders and config files), v1 → v2 over an edited file and the
 * user's config files, and v1's uninstall from there. `again` runs it (the next run recovers a
 * killed one first; an uninstall killed after its commit finds the pack gone: nothing is left to
 * do). `stride`: the upgrade, which does the most, takes the most faults.
 */
const RUNS = {
  "fresh install": {
    start: async (runtime: InstallRuntime, scope: InstallScope) => makeWorld(runtime, scope),
    child: { pack: V1 },
    stride: 3 * STRIDE,
    again: (w: World, fs?: InstallFs) => install(w.t, { ...w.options, pack: V1, ...(fs ? { fs } : {}) }),
  },
  upgrade: {
    start: installedV1,
    child: { pack: V2 },
    stride: STRIDE,
    again: (w: World, fs?: InstallFs) => install(w.t, { ...w.options, pack: V2, ...(fs ? { fs } : {}) }),
  },
  uninstall: {
    start: installedV1,
    child: { pack: PACK, mode: "uninstall" },
    stride: 3 * STRIDE,
    again: (w: World, fs?: InstallFs) =>
      uninstall(w.t, { ...w.options, pack: PACK, ...(fs ? { fs } : {}) }).catch((error: unknown) => {
        if (error instanceof PackNotInstalledError) return null;
        throw error;
      }),
  },
} satisfies Record<string, { start: (runtime: InstallRuntime, scope: InstallScope) => Promise<World>; child: { pack: string; mode?: string }; stride: number; again: (w: World, fs?: InstallFs) => Promise<InstallOutcome | null> }>;

const RUN_NAMES = Object.keys(RUNS) as (keyof typeof RUNS)[];

/** The crash child: one install or uninstall in its own process, killed with SIGKILL before its `killAt`-th change (counted from 0). */
function runChild(w: World, killAt: number, run: { pack: string; mode?: string }): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const env = {
    ...w.t.env,
    CRASH_AFTER_WRITES: String(killAt),
    INSTALL_PACK: run.pack,
    ...(run.mode ? { INSTALL_MODE: run.mode } : {}),
    INSTALL_RUNTIMES: w.runtime.id,
    INSTALL_SCOPE: w.scope,
    INSTALL_CWD: w.cwd,
    ...(w.options.agentsConfig ? { INSTALL_AGENTS_CONFIG: JSON.stringify(w.options.agentsConfig) } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { env: env as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (_code, signal) => resolve({ signal, stdout, stderr }));
  });
}

/** The paths of the layout's artifact kinds the pack has, as `<root key>:<folder>/`. */
function placedFolders(runtime: InstallRuntime, scope: InstallScope): string[] {
  const layout = runtime.installSurface.layout(scope);
  const folders: string[] = [];
  if (!isSkip(layout.skills)) folders.push(`${layout.skills.root ?? "main"}:${layout.skills.dir}/`);
  if (!isSkip(layout.commands)) folders.push(`${layout.commands.root ?? "main"}:${layout.commands.dir}/`);
  if (!isSkip(layout.agents)) folders.push(`main:${layout.agents.dir}/`);
  if (!isSkip(layout.hooks) && PACK_HOOK_EVENT in layout.hooks.events) folders.push(`main:${layout.hooks.filesDir}/`);
  return folders;
}

/** Registers the seven lifecycle checks for one runtime and scope (inside the caller's describe). */
export function installLifecycleSuite(runtime: InstallRuntime, scope: InstallScope): void {
  // Each run uninterrupted, once for the case: how many writes it makes, and the tree it leaves.
  const references = new Map<keyof typeof RUNS, Promise<{ writes: number; after: Record<string, string> }>>();
  const uninterrupted = (name: keyof typeof RUNS) => {
    let reference = references.get(name);
    if (!reference) {
      reference = (async () => {
        const w = await RUNS[name].start(runtime, scope);
        const counter = watchedFs(() => {});
        await RUNS[name].again(w, counter);
        return { writes: counter.writes(), after: completed(w) };
      })();
      references.set(name, reference);
    }
    return reference;
  };

  it("fresh install: every artifact kind the layout places is there as the manifest lists it, and nothing but those, bosun's state and the contract's config files is written", async () => {
    const w = makeWorld(runtime, scope);
    const before = tree(w);
    const outcome = await install(w.t, { ...w.options, pack: V1 });
    expect(statuses(outcome)).toEqual(w.roots.map(() => "changed"));
    const listed = new Set<string>();
    for (const root of w.roots) {
      const manifest = manifestOf(root);
      expect(manifest.packs[PACK]?.version, root.dir).toBe("1.0.0");
      for (const [rel, hash] of Object.entries(manifest.files)) {
        expect(sha256(join(root.dir, rel)), rel).toBe(hash);
        listed.add(relative(w.t.root, join(root.dir, rel)));
        listed.add(`${root.key}:${rel}`);
      }
    }
    for (const folder of placedFolders(runtime, scope)) expect([...listed].some((entry) => entry.startsWith(folder)), `${folder} holds a file of the pack`).toBe(true);
    const config = new Set(configSurfaces(runtime, scope).surfaces.map((surface) => relative(w.t.root, surfacePath(w, surface))));
    const own = (rel: string) => w.roots.some((root) => rel.startsWith(relative(w.t.root, join(root.dir, root.stateDir, "bosun-"))));
    const data = relative(w.t.root, w.t.paths.data);
    const after = tree(w);
    const unaccounted = Object.keys(after).filter((rel) => after[rel] !== before[rel] && !after[rel]!.startsWith("dir") && !listed.has(rel) && !config.has(rel) && !own(rel) && !rel.startsWith(`${data}/`));
    expect(unaccounted).toEqual([]);
  });

  const plainOnly = configSurfaces(runtime, scope).surfaces.filter((surface) => surface.plainJsonOnly);
  const plainNote = plainOnly.length === 0 ? "" : `; with comments in ${plainOnly.map(surfaceLabel).join(", ")}, which the runtime reads as plain JSON, a full plan repeats the warning (not settled, by design) and still writes nothing`;
  it(`settled reinstall: the same pack again is found settled and writes nothing at all (no file, no lock, no time changed)${plainNote}`, async () => {
    for (const plain of plainOnly.length === 0 ? [true] : [true, false]) {
      const w = makeWorld(runtime, scope);
      seed(w, { plain });
      await install(w.t, { ...w.options, pack: V1 });
      const before = snapshotTree(w.t.root);
      const fs = watchedFs(() => {});
      const outcome = await install(w.t, { ...w.options, pack: V1, fs });
      expect(statuses(outcome)).toEqual(w.roots.map(() => "unchanged"));
      expect(fs.writes()).toBe(0);
      expect(snapshotTree(w.t.root)).toEqual(before);
      expect(outcome.settled, plain ? "settled: nothing loaded or planned" : "commented config: planned in full").toBe(plain);
      const notes = outcome.result.targets.flatMap((target) => target.roots.flatMap((root) => root.plan.notes));
      for (const surface of plainOnly) expect(notes.some((note) => note.includes(surface.plainJsonOnly!)), `${surfaceLabel(surface)}: the warning`).toBe(!plain);
    }
  });

  it("upgrade v1 → v2: every file you edited is backed up with your edits before v2 replaces or removes it; your own files stay; v2 again writes nothing", async () => {
    const w = makeWorld(runtime, scope);
    seed(w);
    await install(w.t, { ...w.options, pack: V1 });
    const preview = await install(w.t, { ...w.options, pack: V2, dryRun: true });
    const touched = preview.result.targets.flatMap((target) =>
      target.roots.flatMap((result) => result.plan.actions.filter((action) => action.type === "replace-file" || action.type === "remove-managed").map((action) => ({ root: result.root, rel: action.rel }))),
    );
    expect(touched.length, "v2 changes every file, so the upgrade replaces some").toBeGreaterThan(0);
    for (const { root, rel } of touched) writeFileSync(join(root.dir, rel), `my edits to ${rel}\n`);
    const outcome = await install(w.t, { ...w.options, pack: V2 });
    expect(statuses(outcome)).toContain("changed");
    const backups = outcome.result.targets.flatMap((target) => target.roots.flatMap((result) => result.backups.map((backup) => join(result.root.dir, backup))));
    for (const { root, rel } of touched) {
      const copies = backups.filter((backup) => backup.endsWith(`/${rel}`) && backup.startsWith(root.dir));
      expect(copies.map((copy) => readFileSync(copy, "utf8")), rel).toEqual([`my edits to ${rel}\n`]);
      const hash = manifestOf(root).files[rel];
      if (hash) expect(sha256(join(root.dir, rel)), `${rel}: v2's copy`).toBe(hash);
      else expect(existsSync(join(root.dir, rel)), `${rel}: gone in v2`).toBe(false);
    }
    for (const root of w.roots) expect(manifestOf(root).packs[PACK]?.version).toBe("2.0.0");
    const fs = watchedFs(() => {});
    expect(statuses(await install(w.t, { ...w.options, pack: V2, fs })), "v2 again").toEqual(w.roots.map(() => "unchanged"));
    expect(fs.writes(), "v2 again writes nothing").toBe(0);
    for (const [path, content] of untouchable(w)) expect(readFileSync(path, "utf8"), path).toBe(content);
  });

  it("uninstall: the tree is byte-identical to before the install (in a fresh home, and over your files); only the hook helper stays in bosun's data folder", async () => {
    for (const seeded of [false, true]) {
      const w = makeWorld(runtime, scope);
      if (seeded) seed(w);
      const before = tree(w, { withoutData: true });
      await install(w.t, { ...w.options, pack: V1 });
      expect(tree(w, { withoutData: true }), "the install changed something").not.toEqual(before);
      await uninstall(w.t, { ...w.options, pack: PACK });
      expect(tree(w, { withoutData: true }), seeded ? "over your files" : "in a fresh home").toEqual(before);
    }
  });

  it(`fault at the first write, every ${ordinal(STRIDE)} of an upgrade, every ${ordinal(3 * STRIDE)} of a fresh install and of an uninstall (seeded offsets), and the last ${LAST_WRITES} of each: the tree is byte-identical to before, or the run is complete`, async () => {
    const random = caseRandom(runtime, scope);
    for (const name of RUN_NAMES) {
      const run = RUNS[name];
      const { writes, after } = await uninterrupted(name);
      expect(writes, name).toBeGreaterThan(10);
      const points = new Set<number>([1]);
      for (let k = 1 + Math.floor(random() * run.stride); k <= writes; k += run.stride) points.add(k);
      for (let k = writes - LAST_WRITES + 1; k <= writes; k++) points.add(k);
      let rolledBack = 0;
      // A fault that rolled back leaves the tree as it was (asserted), so the next fault starts
      // from it; one that hit after the commit needs the run's start made again.
      let w = await run.start(runtime, scope);
      for (const k of [...points].sort((a, b) => a - b)) {
        const label = `${name}: write ${k} of ${writes}`;
        const before = tree(w);
        const failed = await run.again(w, failingFs(k)).then(
          () => null,
          (error: unknown) => error,
        );
        if (failed) {
          // A fault before the run starts (the folder for its lock) is reported as it is.
          if (failed instanceof InstallFailedError) expect(failed.failures, label).toEqual([]);
          else expect(String(failed), label).toMatch(/EIO: injected failure/);
          expect(tree(w), `${label} failed: the tree must be as before`).toEqual(before);
          rolledBack++;
        } else {
          expect(completed(w), `${label} hit after the commit: the run must be complete`).toEqual(after);
          w = await run.start(runtime, scope);
        }
      }
      // Not every fault before the commit fails the run: a folder whose removal fails stays, by design.
      expect(rolledBack, `${name}: a fault at the first write, at least, rolls back`).toBeGreaterThan(0);
    }
  }, 90_000);

  it(`SIGKILL at a seeded point of a fresh install, an upgrade and an uninstall: the next run recovers and completes it, your files intact, no stale lock, only committed journals`, async () => {
    const next = caseRandom(runtime, scope);
    const runs = await Promise.all(
      RUN_NAMES.map(async (name) => {
        const run = RUNS[name];
        const { writes, after } = await uninterrupted(name);
        const killAt = Math.floor(next() * writes);
        const w = await run.start(runtime, scope);
        const label = `${name} killed before change ${killAt} of ${writes}`;
        return { w, run, label, expected: after, crashed: await runChild(w, killAt, run.child) };
      }),
    );
    for (const { w, run, label, expected, crashed } of runs) {
      expect([crashed.signal, crashed.stderr], label).toEqual(["SIGKILL", ""]);
      const outcome = await run.again(w);
      if (outcome) expect(statuses(outcome).every((status) => status !== "planned"), label).toBe(true);
      expect(completed(w), label).toEqual(expected);
      for (const [path, content] of untouchable(w)) expect(readFileSync(path, "utf8"), `${label}: ${path}`).toBe(content);
      for (const root of w.roots) {
        expect(existsSync(statePath(root, LOCK_FILE)), `${label}: ${root.dir}: no stale lock`).toBe(false);
        const journals = statePath(root, JOURNAL_DIR);
        for (const name of existsSync(journals) ? readdirSync(journals) : []) expect(readFileSync(join(journals, name), "utf8"), `${label}: ${root.dir}: ${name} committed`).toContain('"op":"commit"');
      }
    }
  }, 60_000);

  const editions = runtime.installSurface.cli?.editions ?? [undefined];
  const perEdition = editions.map((edition) => ({ edition, ...configSurfaces(runtime, scope, edition) }));
  const edited = [...new Set(perEdition.flatMap(({ surfaces }) => surfaces.filter((surface) => surface.edits).map(surfaceLabel)))];
  const editionNote = editions.length > 1 ? ` (each of its ${editions.length} CLI editions)` : "";
  if (edited.length === 0) {
    const reasons = [...new Set(perEdition.flatMap(({ none }) => none))].join("; ");
    it(`config files: the contract edits none (${reasons}); the install records no config entry`, async () => {
      for (const { edition, surfaces } of perEdition) {
        const w = makeWorld(runtime, scope, edition);
        expect(surfaces.filter((surface) => surface.edits)).toEqual([]);
        seed(w, { edition });
        await install(w.t, { ...w.options, pack: V1 });
        expect(manifestOf(w.main).config).toEqual([]);
        for (const [path, content] of w.mine) expect(readFileSync(path, "utf8"), path).toBe(content);
      }
    });
    return;
  }
  it(`config files (${edited.join(", ")})${editionNote}: your BOM, comments and CRLF line endings kept by the install and the upgrade, byte-identical after the uninstall`, async () => {
    for (const { edition, surfaces } of perEdition) {
      const w = makeWorld(runtime, scope, edition);
      const seeded = seed(w, { edition });
      expect(seeded).toEqual(surfaces);
      const previous = new Map<string, string>();
      for (const pack of [V1, V2]) {
        await install(w.t, { ...w.options, pack });
        expect(w.roots.flatMap((root) => manifestOf(root).config).length).toBeGreaterThan(0);
        for (const surface of surfaces) {
          const path = surfacePath(w, surface);
          const mine = w.mine.get(path)!;
          const text = readFileSync(path, "utf8");
          const label = `${surfaceLabel(surface)} (${edition?.since ?? "no CLI edition"}) after ${pack === V1 ? "the install" : "the upgrade"}`;
          if (!surface.edits) {
            expect(text, `${label}: bosun only looks in it`).toBe(mine);
            continue;
          }
          expect(text, `${label}: bosun's entries added`).not.toBe(mine);
          // v2 changes the hook's command and the settings; a TOML block stays as it was.
          if (surface.syntax === "json" && previous.has(path)) expect(text, `${label}: v2's entries`).not.toBe(previous.get(path));
          previous.set(path, text);
          expect(text.startsWith("\ufeff"), `${label}: BOM kept`).toBe(true);
          for (const comment of mine.match(/(\/\/|#)[^\r\n]*/g) ?? []) expect(text, label).toContain(comment);
          expect(text.split("\n").slice(0, -1).every((line) => line.endsWith("\r")), `${label}: CRLF kept`).toBe(true);
          expect((surface.syntax === "json" ? parseConfig(text) : parseToml(text)).ok, label).toBe(true);
        }
      }
      await uninstall(w.t, { ...w.options, pack: PACK });
      for (const [path, content] of w.mine) expect(readFileSync(path, "utf8"), path).toBe(content);
    }
  });
}

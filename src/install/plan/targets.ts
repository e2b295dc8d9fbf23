import { basename, dirname, join } from "node:path";
import { displayPath } from "../../kernel/paths.js";
import type { InstallScope, RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { buildDesired, type BosunCommand, type DesiredInputs, type DesiredInstall, type RootKey } from "./desired.js";
import { exists, type InstallFs } from "../apply/install-fs.js";
import { installedStatKey } from "./classify.js";
import { readManifest } from "../records/manifest.js";
import { succeededBy } from "../migrations/pack-records.js";
import type { LoadedPack } from "../pack/load-pack.js";
import type { PackReuse } from "../pack/pack-reuse.js";
import type { TemplateVars } from "../pack/template.js";
import { JOURNAL_DIR, MANIFEST_FILE, rootsFor, statePath, type InstallRoot } from "../records/root.js";
import type { CliTarget, InstallTarget } from "../run-install.js";
import { placementsFor, type SkillDir } from "./placements.js";
import { skippingReadersOf } from "./shared-folders.js";

export { detectedRuntimes, placementPeers, placementsFor, skillDirsOf, type Placement, type SkillDir } from "./placements.js";

export interface TargetInputs {
  pack: LoadedPack;
  runtimes: readonly InstallRuntime[];
  scope: InstallScope;
  ctx: RootContext;
  configDir?: string;
  /** Template values for one runtime (they differ by runtime and scope). */
  varsFor(runtime: InstallRuntime): TemplateVars;
  helperCommand: string;
  portableHelperCommand?: string | null;
  /** What `{bosun}` becomes in an MCP server's command (desired.ts). */
  bosunCommand: BosunCommand;
  fs: InstallFs;
  /** Every runtime bosun installs into (to find installed ones that read the same skill folders). */
  allRuntimes: readonly InstallRuntime[];
  /** Each runtime's settled-inputs digest (see settled.ts), in the order of `runtimes`. */
  settleInputs?: readonly string[];
  /** Each runtime's CLI and contract edition, by runtime id (runtimes with a CLI contract). */
  clis?: ReadonlyMap<string, CliTarget>;
  /** The command's preview and run build each desired state once (pack-reuse.ts). */
  reuse?: PackReuse;
}

/** The skill folder names a runtime installs into a folder of that kind. */
function namesOf(pack: LoadedPack, kind: SkillDir["kind"]): string[] {
  return (kind === "skills" ? pack.skills : pack.commands).map((artifact) => artifact.name);
}

/**
 * The targets of an install: each runtime's roots and the pack's desired state there. A runtime
 * that would list a skill twice (or warn about it) when bosun also puts it in a shared folder it
 * reads (in this run, or already installed) skips its own copy (shared-folders.ts); notes say
 * where an installed runtime now sees a duplicate. Each target also lists the files outside its
 * roots it was planned from (other runtimes' manifests, with their stat keys) and its share of the notes.
 */
export function buildInstallTargets(inputs: TargetInputs): { targets: InstallTarget[]; notes: string[] } {
  const { pack, scope, ctx } = inputs;
  const shown = (path: string) => displayPath(path, ctx.home);
  const placements = placementsFor(inputs.runtimes, scope, ctx, inputs.configDir);
  const targets: InstallTarget[] = placements.map((placement, index) => {
    const watch = new Map<string, string | null>();
    const notes: string[] = [];
    const manifestAt = (path: string) => {
      const info = inputs.fs.lstatSync(path, { throwIfNoEntry: false });
      watch.set(path, info ? installedStatKey(info) : null);
      return readManifest(inputs.fs, path).manifest;
    };
    // The names this runtime would put in a skill folder of its own.
    const names = placement.skillDirs.flatMap(({ kind }) => namesOf(pack, kind));
    const skip = new Map<string, string>();
    for (const [otherIndex, other] of placements.entries()) {
      if (otherIndex === index) continue;
      for (const { dir, kind } of other.skillDirs) {
        if (!placement.reads.has(dir)) continue;
        // Both read each other's folder: the first one installs, the later one skips.
        if (placement.skillDirs.some((own) => other.reads.has(own.dir)) && otherIndex > index) continue;
        for (const name of namesOf(pack, kind)) if (names.includes(name) && !skip.has(name)) skip.set(name, `${placement.runtime.title} also reads ${shown(dir)}, where bosun installs it for ${other.runtime.title}`);
      }
    }
    for (const dir of placement.reads) {
      // A manifest that could change nothing is not read (nor recorded as planned from).
      if (names.every((name) => skip.has(name))) break;
      const manifest = manifestAt(join(dirname(dir), MANIFEST_FILE));
      for (const name of names) {
        if (!skip.has(name) && Object.hasOwn(manifest.files, `${basename(dir)}/${name}/SKILL.md`)) skip.set(name, `${placement.runtime.title} also reads ${shown(dir)}, where bosun installed it for ${manifest.runtime ?? "another runtime"}`);
      }
    }
    // Installed runtimes (not in this run) that read a folder this one fills, and hold their own copy.
    for (const { dir, kind } of placement.skillDirs) {
      for (const reader of skippingReadersOf(dir, ctx)) {
        const other = inputs.allRuntimes.find((runtime) => runtime.id === reader.runtime);
        if (!other || (reader.scope === scope && inputs.runtimes.includes(other))) continue;
        const main = mainRootDir(other, reader.scope, ctx);
        if (main === null) continue;
        const manifest = manifestAt(join(main, MANIFEST_FILE));
        const duplicates = namesOf(pack, kind).filter((name) => Object.keys(manifest.files).some((rel) => rel.endsWith(`/${name}/SKILL.md`)));
        if (duplicates.length > 0) notes.push(`${other.title} also reads ${shown(dir)} and has its own copy of ${duplicates.join(", ")}: run bosun install --runtime ${other.id} --scope ${reader.scope} to drop the duplicate`);
      }
    }
    const rootDirs: Partial<Record<RootKey, string>> = Object.fromEntries(placement.roots.map((root) => [root.key, root.dir]));
    const cli = inputs.clis?.get(placement.runtime.id);
    const desiredInputs: DesiredInputs = { pack, runtime: placement.runtime, scope, rootDirs, vars: inputs.varsFor(placement.runtime), helperCommand: inputs.helperCommand, portableHelperCommand: inputs.portableHelperCommand ?? null, bosunCommand: inputs.bosunCommand, skipSkills: skip, paths: { home: ctx.home, cwd: ctx.cwd }, ...(cli ? { edition: cli.choice } : {}) };
    const desired = inputs.reuse ? inputs.reuse.desired(desiredInputs, buildDesired) : buildDesired(desiredInputs);
    const roots = usedRoots(placement.roots, desired, pack, inputs.fs);
    const idleRoots = placement.roots.filter((root) => !roots.includes(root)).map((root) => root.dir);
    return { runtime: placement.runtime, scope, roots, desired, ...(cli ? { cli } : {}), context: { watch: [...watch], notes, inputs: inputs.settleInputs?.[index] ?? null, ...(idleRoots.length > 0 ? { idleRoots } : {}) } };
  });
  return { targets, notes: targets.flatMap((target) => target.context?.notes ?? []) };
}

/**
 * The roots an install runs in: the runtime's own, and each extra root the pack puts something in
 * or installed into before (its manifest lists the pack: what it holds there may have to go), or
 * where a run was killed before it wrote the manifest (its journals are there, to be rolled back).
 * An extra root the pack does not use (the home folder of ~/.claude.json, for a pack without MCP
 * servers) gets no record of the pack for nothing.
 */
function usedRoots(roots: readonly InstallRoot[], desired: DesiredInstall, pack: LoadedPack, fs: InstallFs): InstallRoot[] {
  const used = new Set<RootKey>(["main", ...desired.files.map((file) => file.root), ...desired.hooks.map((hook) => hook.root), ...desired.settings.map((setting) => setting.root), ...(desired.toml ? [desired.toml.root] : [])]);
  // The packs it takes the place of too: their entries there are its migrations' to take out.
  const names = [pack.name, ...pack.migrations.flatMap(({ record }) => succeededBy(record.steps))];
  return roots.filter((root) => used.has(root.key) || holds(fs, root, names));
}

/**
 * The root's manifest lists one of the packs or has a problem the run must report, or the root has
 * bosun's journals and no manifest (a run killed before it wrote one, or an uninstall killed after
 * it removed it). A path bosun cannot look at counts as neither: the run reports that itself.
 */
function holds(fs: InstallFs, root: InstallRoot, packNames: readonly string[]): boolean {
  try {
    const manifest = statePath(root, MANIFEST_FILE);
    if (!exists(fs, manifest)) return exists(fs, statePath(root, JOURNAL_DIR));
    const read = readManifest(fs, manifest);
    return read.problems.length > 0 || packNames.some((name) => read.manifest.packs[name] !== undefined);
  } catch {
    return false;
  }
}

/** A runtime's main folder for a scope, or null when it has none here (no project scope, or the home folder). */
export function mainRootDir(runtime: InstallRuntime, scope: InstallScope, ctx: RootContext): string | null {
  try {
    return rootsFor(runtime, scope, ctx)[0]?.dir ?? null;
  } catch {
    return null;
  }
}

/**
 * The targets of an uninstall of the pack `name`: the roots of each runtime (the pack's files there
 * are removed), but an extra root where bosun has not installed that pack (nor left a journal).
 */
export function buildUninstallTargets(name: string, runtimes: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, fs: InstallFs, configDir?: string): InstallTarget[] {
  return runtimes.map((runtime) => ({ runtime, scope, roots: rootsFor(runtime, scope, ctx, configDir).filter((root) => root.key === "main" || holds(fs, root, [name])), desired: null as DesiredInstall | null }));
}

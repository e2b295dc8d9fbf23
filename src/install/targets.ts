import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { displayPath } from "../boot/paths.js";
import { resolveRoot } from "../runtimes/install-roots.js";
import { isSkip, type InstallRuntime, type InstallScope, type RootContext } from "../runtimes/install-types.js";
import { buildDesired, type DesiredInstall, type RootKey } from "./desired.js";
import type { InstallFs } from "./install-fs.js";
import { installedStatKey } from "./classify.js";
import { readManifest } from "./manifest.js";
import type { LoadedPack } from "./pack/load-pack.js";
import type { TemplateVars } from "./pack/template.js";
import { MANIFEST_FILE, rootsFor, type InstallRoot } from "./root.js";
import type { CliTarget, InstallTarget } from "./run-install.js";
import { skippingReads, skippingReadersOf } from "./shared-folders.js";

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
  fs: InstallFs;
  /** Every runtime bosun installs into (to find installed ones that read the same skill folders). */
  allRuntimes: readonly InstallRuntime[];
  /** Each runtime's settled-inputs digest (see settled.ts), in the order of `runtimes`. */
  settleInputs?: readonly string[];
  /** Each runtime's CLI and contract edition, by runtime id (runtimes with a CLI contract). */
  clis?: ReadonlyMap<string, CliTarget>;
}

/** A folder one runtime puts skill folders in: its skills, or its commands written as skills (Codex). */
export interface SkillDir {
  dir: string;
  kind: "skills" | "commands";
}

/** Where one runtime of a run installs: its roots, the folders its skill folders go to, and the shared skill folders that make it skip its own copy. */
export interface Placement {
  runtime: InstallRuntime;
  roots: InstallRoot[];
  skillDirs: SkillDir[];
  reads: Set<string>;
}

export function placementsFor(runtimes: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, configDir?: string): Placement[] {
  return runtimes.map((runtime) => {
    const roots = rootsFor(runtime, scope, ctx, configDir);
    return { runtime, roots, skillDirs: skillDirsOf(runtime, scope, roots), reads: new Set(skippingReads(runtime, scope, ctx)) };
  });
}

/** The folders a runtime's layout puts skill folders in, for a scope's roots (a category folder, Hermes's, is not one). */
export function skillDirsOf(runtime: InstallRuntime, scope: InstallScope, roots: readonly InstallRoot[]): SkillDir[] {
  const layout = runtime.installSurface.layout(scope);
  const rootDir = (key: string | undefined) => (roots.find((root) => root.key === (key ?? "main")) ?? (roots[0] as InstallRoot)).dir;
  const dirs: SkillDir[] = [];
  if (!isSkip(layout.skills) && !layout.skills.category) dirs.push({ dir: join(rootDir(layout.skills.root), layout.skills.dir), kind: "skills" });
  if (!isSkip(layout.commands) && layout.commands.format === "skill") dirs.push({ dir: join(rootDir(layout.commands.root), layout.commands.dir), kind: "commands" });
  return dirs;
}

/** The skill folder names a runtime installs into a folder of that kind. */
function namesOf(pack: LoadedPack, kind: SkillDir["kind"]): string[] {
  return (kind === "skills" ? pack.skills : pack.commands).map((artifact) => artifact.name);
}

/**
 * What a runtime's install depends on from the other runtimes of the run: the ones whose skill
 * folder it reads (and which of the two installs a skill both read), and the ones in the run that
 * read its own skill folders. Part of what a settled reinstall must find unchanged.
 */
export function placementPeers(placements: readonly Placement[], index: number): { reads: [string, boolean][]; readBy: string[] } {
  const placement = placements[index] as Placement;
  const reads: [string, boolean][] = [];
  const readBy: string[] = [];
  for (const [otherIndex, other] of placements.entries()) {
    if (otherIndex === index) continue;
    if (other.skillDirs.some(({ dir }) => placement.reads.has(dir))) reads.push([other.runtime.id, placement.skillDirs.some(({ dir }) => other.reads.has(dir)) && otherIndex > index]);
    if (placement.skillDirs.some(({ dir }) => other.reads.has(dir))) readBy.push(other.runtime.id);
  }
  return { reads, readBy };
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
    const desired = buildDesired({ pack, runtime: placement.runtime, scope, rootDirs, vars: inputs.varsFor(placement.runtime), helperCommand: inputs.helperCommand, portableHelperCommand: inputs.portableHelperCommand ?? null, skipSkills: skip, paths: { home: ctx.home, cwd: ctx.cwd }, ...(cli ? { edition: cli.choice } : {}) });
    return { runtime: placement.runtime, scope, roots: placement.roots, desired, ...(cli ? { cli } : {}), context: { watch: [...watch], notes, inputs: inputs.settleInputs?.[index] ?? null } };
  });
  return { targets, notes: targets.flatMap((target) => target.context?.notes ?? []) };
}

/** A runtime's main folder for a scope, or null when it has none here (no project scope, or the home folder). */
export function mainRootDir(runtime: InstallRuntime, scope: InstallScope, ctx: RootContext): string | null {
  try {
    return rootsFor(runtime, scope, ctx)[0]?.dir ?? null;
  } catch {
    return null;
  }
}

/** The targets of an uninstall: the roots of each runtime (the pack's files there are removed). */
export function buildUninstallTargets(runtimes: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, configDir?: string): InstallTarget[] {
  return runtimes.map((runtime) => ({ runtime, scope, roots: rootsFor(runtime, scope, ctx, configDir), desired: null as DesiredInstall | null }));
}

/** Runtimes whose folder exists for this scope (`--all-detected`). */
export function detectedRuntimes(all: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, exists: (path: string) => boolean = existsSync): InstallRuntime[] {
  return all.filter((runtime) => {
    const root = resolveRoot(runtime, scope, ctx);
    if (!root) return false;
    // The project folder itself always exists; Cline's project scope counts when it has .clinerules.
    return root.dir === ctx.cwd ? exists(join(ctx.cwd, ".clinerules")) : exists(root.dir);
  });
}

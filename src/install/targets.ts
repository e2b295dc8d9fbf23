import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { displayPath } from "../boot/paths.js";
import { resolveGlobalRoot, resolveRoot } from "../runtimes/install-roots.js";
import { isSkip, type InstallRuntime, type InstallScope, type RootContext } from "../runtimes/install-types.js";
import { buildDesired, type DesiredInstall, type RootKey } from "./desired.js";
import type { InstallFs } from "./install-fs.js";
import { installedStatKey } from "./classify.js";
import { readManifest } from "./manifest.js";
import type { LoadedPack } from "./pack/load-pack.js";
import type { TemplateVars } from "./pack/template.js";
import { MANIFEST_FILE, rootsFor, type InstallRoot } from "./root.js";
import type { CliTarget, InstallTarget } from "./run-install.js";

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

/** Where one runtime of a run installs: its roots, the folder its skills go to, and the skill folders it also reads. */
export interface Placement {
  runtime: InstallRuntime;
  roots: InstallRoot[];
  skillsDir: string | null;
  reads: Set<string>;
}

export function placementsFor(runtimes: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, configDir?: string): Placement[] {
  return runtimes.map((runtime) => {
    const roots = rootsFor(runtime, scope, ctx, configDir);
    const layout = runtime.installSurface.layout(scope);
    const skillsDir = isSkip(layout.skills) || layout.skills.category ? null : join((roots.find((root) => root.key === (layout.skills as { root?: string }).root) ?? (roots[0] as InstallRoot)).dir, layout.skills.dir);
    return { runtime, roots, skillsDir, reads: new Set(runtime.installSurface.alsoReadsSkills?.(scope, ctx) ?? []) };
  });
}

/**
 * What a runtime's install depends on from the other runtimes of the run: the ones whose skill
 * folder it reads (and which of the two installs a skill both read), and the ones in the run that
 * read its own skill folder. Part of what a settled reinstall must find unchanged.
 */
export function placementPeers(placements: readonly Placement[], index: number): { reads: [string, boolean][]; readBy: string[] } {
  const placement = placements[index] as Placement;
  const reads: [string, boolean][] = [];
  const readBy: string[] = [];
  for (const [otherIndex, other] of placements.entries()) {
    if (otherIndex === index) continue;
    if (other.skillsDir && placement.reads.has(other.skillsDir)) reads.push([other.runtime.id, Boolean(placement.skillsDir && other.reads.has(placement.skillsDir) && otherIndex > index)]);
    if (placement.skillsDir && other.reads.has(placement.skillsDir)) readBy.push(other.runtime.id);
  }
  return { reads, readBy };
}

/**
 * The targets of an install: each runtime's roots and the pack's desired state there. A runtime
 * that also reads another runtime's skill folder skips the skills bosun puts there (in this run,
 * or already installed), so no skill shows up twice; notes say where an installed runtime now
 * sees a duplicate. Each target also lists the files outside its roots it was planned from
 * (other runtimes' manifests, with their stat keys) and its share of the notes.
 */
export function buildInstallTargets(inputs: TargetInputs): { targets: InstallTarget[]; notes: string[] } {
  const { pack, scope, ctx } = inputs;
  const shown = (path: string) => displayPath(path, ctx.home);
  const placements = placementsFor(inputs.runtimes, scope, ctx, inputs.configDir);
  const names = pack.skills.map((skill) => skill.name);
  const targets: InstallTarget[] = placements.map((placement, index) => {
    const watch = new Map<string, string | null>();
    const notes: string[] = [];
    const manifestAt = (path: string) => {
      const info = inputs.fs.lstatSync(path, { throwIfNoEntry: false });
      watch.set(path, info ? installedStatKey(info) : null);
      return readManifest(inputs.fs, path).manifest;
    };
    const skip = new Map<string, string>();
    for (const [otherIndex, other] of placements.entries()) {
      if (otherIndex === index || !other.skillsDir || !placement.reads.has(other.skillsDir)) continue;
      // Both read each other's folder: the first one installs, the later one skips.
      if (placement.skillsDir && other.reads.has(placement.skillsDir) && otherIndex > index) continue;
      for (const name of names) skip.set(name, `${placement.runtime.title} also reads ${shown(other.skillsDir)}, where bosun installs it for ${other.runtime.title}`);
    }
    for (const dir of placement.reads) {
      // A manifest that could change nothing is not read (nor recorded as planned from).
      if (names.every((name) => skip.has(name))) break;
      const manifest = manifestAt(join(dirname(dir), MANIFEST_FILE));
      for (const name of names) {
        if (!skip.has(name) && Object.hasOwn(manifest.files, `skills/${name}/SKILL.md`)) skip.set(name, `${placement.runtime.title} also reads ${shown(dir)}, where bosun installed it for ${manifest.runtime ?? "another runtime"}`);
      }
    }
    // Installed runtimes (not in this run) that read the folder this one fills, and hold their own copy.
    if (placement.skillsDir) {
      for (const other of inputs.allRuntimes) {
        if (inputs.runtimes.includes(other)) continue;
        if (!(other.installSurface.alsoReadsSkills?.("global", ctx) ?? []).includes(placement.skillsDir)) continue;
        const root = resolveGlobalRoot(other.installSurface.globalRoot, ctx).dir;
        const manifest = manifestAt(join(root, MANIFEST_FILE));
        const duplicates = names.filter((name) => Object.keys(manifest.files).some((rel) => rel.endsWith(`/${name}/SKILL.md`)));
        if (duplicates.length > 0) notes.push(`${other.title} also reads ${shown(placement.skillsDir)} and has its own copy of ${duplicates.join(", ")}: run bosun install --runtime ${other.id} --scope global to drop the duplicate`);
      }
    }
    const rootDirs: Partial<Record<RootKey, string>> = Object.fromEntries(placement.roots.map((root) => [root.key, root.dir]));
    const cli = inputs.clis?.get(placement.runtime.id);
    const desired = buildDesired({ pack, runtime: placement.runtime, scope, rootDirs, vars: inputs.varsFor(placement.runtime), helperCommand: inputs.helperCommand, portableHelperCommand: inputs.portableHelperCommand ?? null, skipSkills: skip, ...(cli ? { edition: cli.choice } : {}) });
    return { runtime: placement.runtime, scope, roots: placement.roots, desired, ...(cli ? { cli } : {}), context: { watch: [...watch], notes, inputs: inputs.settleInputs?.[index] ?? null } };
  });
  return { targets, notes: targets.flatMap((target) => target.context?.notes ?? []) };
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

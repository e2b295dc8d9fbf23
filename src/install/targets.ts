import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { displayPath } from "../boot/paths.js";
import { resolveGlobalRoot, resolveRoot } from "../runtimes/install-roots.js";
import { isSkip, type InstallRuntime, type InstallScope, type RootContext } from "../runtimes/install-types.js";
import { buildDesired, type DesiredInstall, type RootKey } from "./desired.js";
import type { InstallFs } from "./install-fs.js";
import { readManifest } from "./manifest.js";
import type { LoadedPack } from "./pack/load-pack.js";
import type { TemplateVars } from "./pack/template.js";
import { MANIFEST_FILE, rootsFor, type InstallRoot } from "./root.js";
import type { InstallTarget } from "./run-install.js";

export interface TargetInputs {
  pack: LoadedPack;
  runtimes: readonly InstallRuntime[];
  scope: InstallScope;
  ctx: RootContext;
  configDir?: string;
  /** Template values for one runtime (they differ by runtime and scope). */
  varsFor(runtime: InstallRuntime): TemplateVars;
  helperCommand: string;
  fs: InstallFs;
  /** Every runtime bosun installs into (to find installed ones that read the same skill folders). */
  allRuntimes: readonly InstallRuntime[];
}

/**
 * The targets of an install: each runtime's roots and the pack's desired state there. A runtime
 * that also reads another runtime's skill folder skips the skills bosun puts there (in this run,
 * or already installed), so no skill shows up twice; notes say where an installed runtime now
 * sees a duplicate.
 */
export function buildInstallTargets(inputs: TargetInputs): { targets: InstallTarget[]; notes: string[] } {
  const { pack, scope, ctx } = inputs;
  const notes: string[] = [];
  const shown = (path: string) => displayPath(path, ctx.home);
  const placements = inputs.runtimes.map((runtime) => {
    const roots = rootsFor(runtime, scope, ctx, inputs.configDir);
    const layout = runtime.installSurface.layout(scope);
    const skillsDir = isSkip(layout.skills) || layout.skills.category ? null : join((roots.find((root) => root.key === (layout.skills as { root?: string }).root) ?? (roots[0] as InstallRoot)).dir, layout.skills.dir);
    return { runtime, roots, skillsDir, reads: new Set(runtime.installSurface.alsoReadsSkills?.(scope, ctx) ?? []) };
  });
  const names = pack.skills.map((skill) => skill.name);
  const targets: InstallTarget[] = placements.map((placement, index) => {
    const skip = new Map<string, string>();
    for (const [otherIndex, other] of placements.entries()) {
      if (otherIndex === index || !other.skillsDir || !placement.reads.has(other.skillsDir)) continue;
      // Both read each other's folder: the first one installs, the later one skips.
      if (placement.skillsDir && other.reads.has(placement.skillsDir) && otherIndex > index) continue;
      for (const name of names) skip.set(name, `${placement.runtime.title} also reads ${shown(other.skillsDir)}, where bosun installs it for ${other.runtime.title}`);
    }
    for (const dir of placement.reads) {
      const manifest = readManifest(inputs.fs, join(dirname(dir), MANIFEST_FILE));
      for (const name of names) {
        if (!skip.has(name) && Object.hasOwn(manifest.manifest.files, `skills/${name}/SKILL.md`)) skip.set(name, `${placement.runtime.title} also reads ${shown(dir)}, where bosun installed it for ${manifest.manifest.runtime ?? "another runtime"}`);
      }
    }
    const rootDirs: Partial<Record<RootKey, string>> = Object.fromEntries(placement.roots.map((root) => [root.key, root.dir]));
    const desired = buildDesired({ pack, runtime: placement.runtime, scope, rootDirs, vars: inputs.varsFor(placement.runtime), helperCommand: inputs.helperCommand, skipSkills: skip });
    return { runtime: placement.runtime, scope, roots: placement.roots, desired };
  });
  // Installed runtimes (not in this run) that read a folder this run fills, and hold their own copy.
  for (const placement of placements) {
    if (!placement.skillsDir) continue;
    for (const other of inputs.allRuntimes) {
      if (inputs.runtimes.includes(other)) continue;
      if (!(other.installSurface.alsoReadsSkills?.("global", ctx) ?? []).includes(placement.skillsDir)) continue;
      const root = resolveGlobalRoot(other.installSurface.globalRoot, ctx).dir;
      const manifest = readManifest(inputs.fs, join(root, MANIFEST_FILE)).manifest;
      const duplicates = names.filter((name) => Object.keys(manifest.files).some((rel) => rel.endsWith(`/${name}/SKILL.md`)));
      if (duplicates.length > 0) notes.push(`${other.title} also reads ${shown(placement.skillsDir)} and has its own copy of ${duplicates.join(", ")}: run bosun install --runtime ${other.id} --scope global to drop the duplicate`);
    }
  }
  return { targets, notes };
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

/** A POSIX shell word for a path (single quotes; a quote inside becomes '\''). */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { resolveRoot } from "../../runtimes/kit/install-roots.js";
import { isSkip, type InstallScope, type RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { rootsFor, type InstallRoot } from "../records/root.js";
import { skippingReads } from "./shared-folders.js";

// Where each runtime of a run installs, apart from what it installs (targets.ts): a settled
// reinstall needs only this much, without the pack or the desired state (see settled.ts).

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


/** Runtimes whose folder exists for this scope (`--all-detected`). */
export function detectedRuntimes(all: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, exists: (path: string) => boolean = existsSync): InstallRuntime[] {
  return all.filter((runtime) => {
    const root = resolveRoot(runtime, scope, ctx);
    if (!root) return false;
    // The project folder itself always exists; Cline's project scope counts when it has .clinerules.
    return root.dir === ctx.cwd ? exists(join(ctx.cwd, ".clinerules")) : exists(root.dir);
  });
}

import { dirname, join, relative } from "node:path";
import type { InstallScope, RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import type { InstallFs } from "../apply/install-fs.js";
import { readManifest, type Manifest } from "../records/manifest.js";
import { MANIFEST_FILE, rootsFor, statePath, type InstallRoot } from "../records/root.js";
import type { InstallTarget } from "../run-install.js";
import { skippingReadersOf, skippingReads } from "./shared-folders.js";
import { skillDirsOf } from "./targets.js";

type Hold = Map<string, Map<string, string[]>>;

export interface HoldInputs {
  pack: string;
  ctx: RootContext;
  fs: InstallFs;
  allRuntimes: readonly InstallRuntime[];
}

/**
 * An uninstall that never takes a skill away from another installed runtime. A runtime that
 * skipped its own copy of a skill because it reads bosun's copy in a shared folder (Gemini CLI
 * and ~/.agents/skills) relies on it: removing the pack from the runtime that put it there keeps
 * that skill folder (the manifest records it as held for the readers). Uninstalling the last
 * reader takes the held folders away too: their roots join the run.
 */
export function withSharedHolds(targets: readonly InstallTarget[], inputs: HoldInputs): InstallTarget[] {
  const leaving = new Set(targets.map((target) => label(target.runtime.id, target.scope)));
  const out: InstallTarget[] = targets.map((target) => withHold(target, target.roots, leaving, inputs));
  const inRun = new Set(out.flatMap((target) => target.roots.map((root) => root.dir)));
  for (const target of targets) {
    for (const dir of skippingReads(target.runtime, target.scope, inputs.ctx)) {
      const rootDir = dirname(dir);
      if (inRun.has(rootDir)) continue;
      const manifest = readManifest(inputs.fs, join(rootDir, MANIFEST_FILE)).manifest;
      const held = manifest.packs[inputs.pack]?.heldFor ?? [];
      const filler = inputs.allRuntimes.find((runtime) => runtime.id === manifest.runtime);
      const scope = manifest.scope === "global" || manifest.scope === "local" ? manifest.scope : null;
      if (held.length === 0 || !filler || !scope) continue;
      const roots = safeRoots(filler, scope, inputs.ctx);
      const root = roots.find((candidate) => candidate.dir === rootDir);
      if (!root) continue;
      inRun.add(rootDir);
      out.push(withHold({ runtime: filler, scope, roots: [root], desired: null }, roots, leaving, inputs));
    }
  }
  return out;
}

/** The target with the skill folders its roots must keep for readers that stay. */
function withHold(target: InstallTarget, allRoots: readonly InstallRoot[], leaving: ReadonlySet<string>, inputs: HoldInputs): InstallTarget {
  const hold: Hold = new Map();
  for (const { dir } of skillDirsOf(target.runtime, target.scope, allRoots)) {
    const root = target.roots.find((candidate) => dir.startsWith(`${candidate.dir}/`));
    if (!root) continue;
    const base = relative(root.dir, dir);
    const manifest = readManifest(inputs.fs, statePath(root, MANIFEST_FILE)).manifest;
    for (const name of skillFolders(manifest, inputs.pack, base)) {
      const readers = skippingReadersOf(dir, inputs.ctx)
        .filter((reader) => !leaving.has(label(reader.runtime, reader.scope)) && relies(reader, name, inputs))
        .map((reader) => label(reader.runtime, reader.scope));
      if (readers.length === 0) continue;
      const byRel = hold.get(root.dir) ?? new Map<string, string[]>();
      byRel.set(`${base}/${name}`, readers);
      hold.set(root.dir, byRel);
    }
  }
  return hold.size > 0 ? { ...target, hold } : target;
}

/** The skill folder names a pack has under `base` in a root. */
function skillFolders(manifest: Manifest, pack: string, base: string): string[] {
  const names = new Set<string>();
  for (const rel of manifest.packs[pack]?.files ?? []) {
    if (!rel.startsWith(`${base}/`)) continue;
    const name = rel.slice(base.length + 1).split("/")[0];
    if (name) names.add(name);
  }
  return [...names].sort();
}

/** A reader relies on a shared skill when the pack is installed for it and it has no copy of its own. */
function relies(reader: { runtime: string; scope: InstallScope }, name: string, inputs: HoldInputs): boolean {
  const runtime = inputs.allRuntimes.find((candidate) => candidate.id === reader.runtime);
  if (!runtime) return false;
  const manifests = safeRoots(runtime, reader.scope, inputs.ctx).map((root) => readManifest(inputs.fs, statePath(root, MANIFEST_FILE)).manifest);
  const installed = manifests.some((manifest) => {
    const pack = manifest.packs[inputs.pack];
    return (pack !== undefined && (pack.heldFor ?? []).length === 0) || manifest.config.some((record) => record.kind === "hook" && record.pack === inputs.pack);
  });
  if (!installed) return false;
  return !manifests.some((manifest) => Object.keys(manifest.files).some((rel) => rel.endsWith(`/${name}/SKILL.md`)));
}

function safeRoots(runtime: InstallRuntime, scope: InstallScope, ctx: RootContext): InstallRoot[] {
  try {
    return rootsFor(runtime, scope, ctx);
  } catch {
    return [];
  }
}

export function label(runtime: string, scope: InstallScope): string {
  return `${runtime} ${scope}`;
}

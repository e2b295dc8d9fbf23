import { join } from "node:path";
import { UserError } from "../../kernel/errors.js";
import { resolveGlobalRoot, resolveRoot } from "../../runtimes/kit/install-roots.js";
import { isSkip, type ExtraRootName, type InstallScope, type RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";

/** bosun's own files in a root (under its state folder), per DESIGN §3.4. */
export const MANIFEST_FILE = "bosun-manifest.json";
export const STATE_FILE = "bosun-install-state.json";
export const JOURNAL_DIR = "bosun-journal";
export const LOCK_FILE = "bosun-install.lock";
/** Copies of files you edited that bosun replaced or removed; never pruned by bosun. */
export const BACKUP_DIR = "bosun-backups";
export const STATE_NAMES: readonly string[] = [MANIFEST_FILE, STATE_FILE, JOURNAL_DIR, LOCK_FILE, BACKUP_DIR];
const STATE_NAME_SET: ReadonlySet<string> = new Set(STATE_NAMES);

/**
 * A folder bosun installs into, with one manifest, install state, journal and lock. A runtime's
 * scope is usually one root; Codex's global scope has a second one for its skills (~/.agents).
 */
export interface InstallRoot {
  runtime: string;
  scope: InstallScope;
  /** `main`, or the extra root's name. */
  key: "main" | ExtraRootName;
  dir: string;
  /** bosun's own files, relative to `dir` ("" = the root itself). */
  stateDir: string;
}

export function statePath(root: InstallRoot, name: string): string {
  return join(root.dir, root.stateDir, name);
}

/** A state file's path relative to the root (for journals and the reserved-path check). */
export function stateRel(root: InstallRoot, name: string): string {
  return root.stateDir ? `${root.stateDir}/${name}` : name;
}

/** True for paths inside bosun's own files, which no action may touch. */
export function isReservedPath(root: InstallRoot, rel: string): boolean {
  let rest = rel;
  if (root.stateDir) {
    if (!rel.startsWith(root.stateDir) || rel[root.stateDir.length] !== "/") return false;
    rest = rel.slice(root.stateDir.length + 1);
  }
  const slash = rest.indexOf("/");
  return STATE_NAME_SET.has(slash === -1 ? rest : rest.slice(0, slash));
}

/** Install options that do not go together (`--config-dir` with two runtimes or a project scope…). */
export class InstallOptionError extends UserError {
  override name = "InstallOptionError";
}

/** The roots of one runtime and scope: its own folder, and the extra ones its layout uses. */
export function rootsFor(runtime: InstallRuntime, scope: InstallScope, ctx: RootContext, configDir?: string): InstallRoot[] {
  const main = resolveRoot(runtime, scope, ctx, configDir);
  if (!main) throw new InstallOptionError(`${runtime.title} has no project scope; use --scope global`);
  // In the home folder a project's folder is the user-wide one: one root, one scope.
  if (scope === "local" && main.dir === resolveGlobalRoot(runtime.installSurface.globalRoot, ctx).dir) {
    throw new InstallOptionError(`here ${runtime.title}'s project folder is its global one (${main.dir}); use --scope global, or run bosun in the project`);
  }
  const roots: InstallRoot[] = [{ runtime: runtime.id, scope, key: "main", dir: main.dir, stateDir: runtime.installSurface.stateDir?.[scope] ?? "" }];
  const layout = runtime.installSurface.layout(scope);
  const used = new Set<string>();
  if (!isSkip(layout.skills) && layout.skills.root) used.add(layout.skills.root);
  if (!isSkip(layout.commands) && layout.commands.root) used.add(layout.commands.root);
  if (layout.mcp && !isSkip(layout.mcp) && layout.mcp.root) used.add(layout.mcp.root);
  for (const [key, resolve] of Object.entries(runtime.installSurface.extraRoots?.[scope] ?? {})) {
    if (!used.has(key) || !resolve) continue;
    const found = resolve(ctx, main.dir);
    // The same folder as the runtime's own: what goes there goes into the main root.
    if (found === null) continue;
    const { dir, stateDir } = typeof found === "string" ? { dir: found, stateDir: "" } : found;
    roots.push({ runtime: runtime.id, scope, key: key as ExtraRootName, dir, stateDir });
  }
  return roots;
}

import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { UserError } from "../kernel/errors.js";
import { writeFileAtomically } from "../kernel/fs/atomic-write.js";
import type { McpServer } from "../mcp/server-schema.js";
import { isSkip, type InstallScope, type RootContext } from "../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../runtimes/kit/types.js";
import { BOSUN_PLACEHOLDER, placeholderUses } from "./pack/mcp-placeholders.js";
import { detectedRuntimes } from "./plan/placements.js";
import { installedHere, readManifest } from "./records/manifest.js";
import { MANIFEST_FILE, rootsFor, statePath } from "./records/root.js";

/**
 * `bosun mcp sync` writes the servers of `bosun.json` as a pack of bosun's own, made in its data
 * folder from the config each time (one for the global servers, one per project), and installs
 * it like any pack: each server entry planned, recorded, a server of yours of the same name a
 * question, removed exactly when it leaves `bosun.json`.
 */
export const MCP_SYNC_PACK = "bosun-mcp";
const SYNC_VERSION = "1.0.0";

/** A server of `bosun.json` that cannot be synced as written. */
export class McpSyncError extends UserError {
  override name = "McpSyncError";
}

/** Where the pack made from one scope's servers is kept: `<data>/mcp-sync/global`, or one folder per project root. */
export function syncPackDir(dataDir: string, scope: InstallScope, projectRoot: string | null): string {
  if (scope === "global") return join(dataDir, "mcp-sync", "global");
  return join(dataDir, "mcp-sync", `project-${createHash("sha256").update(projectRoot ?? "").digest("hex").slice(0, 16)}`);
}

/**
 * A server of `bosun.json` uses a pack's placeholder (`{pack-dir}`: it has no support folder) or
 * one bosun does not know: the error names the setting. `{config-dir}` (the agent's folder) is
 * allowed, as in a pack.
 */
export function syncPlaceholderProblem(file: string, name: string, server: McpServer): string | null {
  const use = placeholderUses(server).find((found) => found.token !== "{config-dir}");
  if (!use) return null;
  const why =
    use.token === "{pack-dir}"
      ? "is a pack's support folder, and a server of bosun.json has none: write the path itself"
      : use.token === BOSUN_PLACEHOLDER
        ? "is for packs (bosun's own pack registers bosun mcp serve in every agent); bosun run does not start bosun itself"
        : "is not a placeholder bosun knows (only {config-dir}, the agent's folder, is filled in here)";
  return `${file}: mcp.${name}.${use.field}: ${use.token} ${why}`;
}

/**
 * Writes the pack for one scope's servers into `dir`: `pack.json` and `mcp/<name>.json`, each
 * only when its text changed (an unchanged pack keeps the reinstall settled), and a server's
 * file removed when it left `bosun.json`.
 */
export async function writeSyncPack(dir: string, servers: Readonly<Record<string, McpServer>>, fs: typeof nodeFs = nodeFs): Promise<void> {
  const names = Object.keys(servers).sort();
  const files = new Map<string, string>([[join(dir, "pack.json"), `${JSON.stringify({ name: MCP_SYNC_PACK, version: SYNC_VERSION, description: "The MCP servers of bosun.json (bosun mcp sync writes this pack; edit bosun.json, not these files).", artifacts: { mcp: names } }, null, 2)}\n`]]);
  for (const name of names) files.set(join(dir, "mcp", `${name}.json`), `${JSON.stringify(servers[name], null, 2)}\n`);
  fs.mkdirSync(join(dir, "mcp"), { recursive: true, mode: 0o700 });
  for (const entry of fs.readdirSync(join(dir, "mcp"))) {
    if (!files.has(join(dir, "mcp", entry))) fs.rmSync(join(dir, "mcp", entry), { force: true, recursive: true });
  }
  for (const [path, text] of files) {
    let current: string | null = null;
    try {
      current = fs.readFileSync(path, "utf8");
    } catch {
      current = null;
    }
    if (current !== text) await writeFileAtomically(path, text, { mode: 0o600 });
  }
}

/** The runtimes whose layout for `scope` has an MCP file bosun writes. */
export function takesMcp(runtime: InstallRuntime, scope: InstallScope): boolean {
  const mcp = runtime.installSurface.layout(scope).mcp;
  return mcp !== undefined && !isSkip(mcp);
}

/**
 * The agents to sync into when none is named: those installed here (their user folder exists)
 * that bosun writes MCP servers for. A project's servers go to the same agents, in the project.
 */
export function syncRuntimes(all: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, exists?: (path: string) => boolean): InstallRuntime[] {
  return detectedRuntimes(all, "global", ctx, exists).filter((runtime) => runtime.installSurface.localRoot !== null || scope === "global").filter((runtime) => takesMcp(runtime, scope));
}

/** A runtime named with `--runtime` that bosun writes no MCP servers for: the error says which do. */
export function refuseWithoutMcp(runtimes: readonly InstallRuntime[], all: readonly InstallRuntime[], scope: InstallScope): void {
  const without = runtimes.filter((runtime) => !takesMcp(runtime, scope));
  if (without.length === 0) return;
  const takers = all.filter((runtime) => takesMcp(runtime, scope)).map((runtime) => runtime.id);
  throw new McpSyncError(`bosun writes no MCP servers ${scope === "global" ? "" : "into a project "}for ${without.map((runtime) => runtime.title).join(", ")}; it does for ${takers.join(", ")}`);
}

/** The runtimes `bosun mcp sync` wrote servers into for this scope before (its pack is recorded in one of their roots). */
export function syncedRuntimes(all: readonly InstallRuntime[], scope: InstallScope, ctx: RootContext, fs: typeof nodeFs = nodeFs): InstallRuntime[] {
  return all.filter((runtime) => {
    if (scope === "local" && runtime.installSurface.localRoot === null) return false;
    let roots;
    try {
      roots = rootsFor(runtime, scope, ctx);
    } catch {
      return false;
    }
    return roots.some((root) => {
      const path = statePath(root, MANIFEST_FILE);
      return fs.existsSync(path) && installedHere(readManifest(fs, path).manifest, MCP_SYNC_PACK) !== null;
    });
  });
}

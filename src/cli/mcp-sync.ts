import { Writable } from "node:stream";
import type { Boot } from "../app/start.js";
import { UserError } from "../kernel/errors.js";
import type { McpServer } from "../mcp/server-schema.js";
import type { InstallScope } from "../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../runtimes/kit/types.js";
import { bootForCommand } from "./boot.js";
import type { InstallFlags } from "./install.js";
import { notify, writeJson, writeLine, type Output } from "./output.js";

export interface McpSyncFlags {
  runtime?: string[];
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
}

/** One scope's sync: the servers `bosun.json` has there, and what the installer does with them. */
interface SyncRun {
  scope: InstallScope;
  /** The folder the run works in: the home folder, or the project's root. */
  cwd: string;
  servers: Record<string, McpServer>;
  /** install: the servers are written (and those gone from bosun.json removed); uninstall: none is left, bosun's entries go. */
  mode: "install" | "uninstall";
  runtimes: InstallRuntime[];
  packDir: string;
}

/**
 * `bosun mcp sync`: the global servers of `bosun.json` into every agent's user config, a
 * project's into the project, through the installer (the same plan, questions, `--yes`,
 * `--dry-run` and report as `bosun install`). With no servers left in a scope, the entries bosun
 * wrote there before are removed.
 */
export async function mcpSyncAction(flags: McpSyncFlags, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const runs = await syncRuns(flags, boot);
  if (runs.length === 0) {
    if (flags.json) return writeJson(output, { runs: [] });
    writeLine(output.stdout, "bosun.json has no MCP servers (mcp), globally or in this project, and bosun wrote none before: nothing to sync");
    return;
  }
  const { runInstallCommand } = await import("./install.js");
  const reports: unknown[] = [];
  for (const [index, run] of runs.entries()) {
    const installFlags: InstallFlags = { runtime: [run.runtimes.map((runtime) => runtime.id).join(",")], scope: run.scope, verify: false, ...(flags.yes ? { yes: true } : {}), ...(flags.dryRun ? { dryRun: true } : {}), ...(flags.json ? { json: true } : {}) };
    const pack = run.mode === "install" ? run.packDir : (await import("../install/mcp-sync.js")).MCP_SYNC_PACK;
    if (flags.json) {
      // Each run's report is one JSON document: collected, and printed together.
      const captured = capture(output);
      await runInstallCommand(run.mode, pack, installFlags, captured.output, { boot, cwd: run.cwd });
      reports.push({ scope: run.scope, servers: Object.keys(run.servers).sort(), ...(JSON.parse(captured.text()) as object) });
      continue;
    }
    if (index > 0) writeLine(output.stdout);
    const names = Object.keys(run.servers).sort();
    notify(output, run.mode === "install" ? `bosun: ${run.scope === "global" ? "global" : "this project's"} MCP servers of bosun.json (${names.join(", ")}) → ${run.runtimes.map((runtime) => runtime.id).join(", ")}` : `bosun: bosun.json has no ${run.scope === "global" ? "global" : "project"} MCP servers now: removing those bosun wrote into ${run.runtimes.map((runtime) => runtime.id).join(", ")}`);
    await runInstallCommand(run.mode, pack, installFlags, output, { boot, cwd: run.cwd });
  }
  if (flags.json) writeJson(output, { runs: reports });
}

/**
 * The runs to make: the global servers, and the project's when bosun runs in one (each scope's
 * servers as one pack, written to bosun's data folder); a scope with no servers that bosun synced
 * before is a removal from where it did. The agents: those named, or every one installed here
 * that bosun writes MCP servers for.
 */
async function syncRuns(flags: McpSyncFlags, boot: Boot): Promise<SyncRun[]> {
  const sync = await import("../install/mcp-sync.js");
  const registry = await import("../runtimes/registry.js");
  const all = registry.listInstallRuntimes();
  const named = (flags.runtime ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter(Boolean);
  if (flags.runtime && named.length === 0) throw new UserError("--runtime needs a runtime id (e.g. --runtime claude,codex)");
  const chosen = named.length > 0 ? [...new Set(named)].map((id) => registry.getInstallRuntime(id)) : null;
  const layers = boot.config?.layers ?? [];
  const scopes: { scope: InstallScope; cwd: string; layer: "global" | "project" }[] = [{ scope: "global", cwd: boot.paths.home, layer: "global" }];
  if (boot.project) scopes.push({ scope: "local", cwd: boot.project.root, layer: "project" });
  const runs: SyncRun[] = [];
  for (const { scope, cwd, layer } of scopes) {
    const found = layers.filter((entry) => entry.scope === layer);
    const servers: Record<string, McpServer> = {};
    for (const entry of found) {
      for (const [name, server] of Object.entries(entry.value.mcp ?? {})) {
        const problem = sync.syncPlaceholderProblem(entry.file, name, server);
        if (problem) throw new sync.McpSyncError(problem);
        servers[name] = server;
      }
    }
    const ctx = { env: boot.agentEnv, home: boot.paths.home, cwd };
    const packDir = sync.syncPackDir(boot.paths.data, scope, scope === "local" ? cwd : null);
    if (Object.keys(servers).length > 0) {
      if (chosen) sync.refuseWithoutMcp(chosen, all, scope);
      const runtimes = chosen ?? sync.syncRuntimes(all, scope, ctx);
      if (runtimes.length === 0) throw new sync.McpSyncError(`no agent bosun writes MCP servers for is installed here (${all.filter((runtime) => sync.takesMcp(runtime, scope)).map((runtime) => runtime.id).join(", ")}); name one with --runtime`);
      // bosun's own copy, made from bosun.json (a dry run plans from it too; no agent's file changes).
      await sync.writeSyncPack(packDir, servers);
      runs.push({ scope, cwd, servers, mode: "install", runtimes, packDir });
    } else {
      const synced = sync.syncedRuntimes(chosen ?? all, scope, ctx);
      if (synced.length > 0) runs.push({ scope, cwd, servers, mode: "uninstall", runtimes: synced, packDir });
    }
  }
  return runs;
}

/** An output whose stdout is kept (a run's JSON report), its stderr and stdin the command's own. */
function capture(output: Output): { output: Output; text(): string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { output: { ...output, stdout: stream }, text: () => text };
}

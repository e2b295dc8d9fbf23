import * as nodeFs from "node:fs";
import { join, resolve } from "node:path";
import type { Env } from "../boot/paths.js";
import { HELPER_RELATIVE_PATH, packagedHelperPath } from "../migrations/30_runtime_helper_sync.js";
import { collectHeadlessDefaults } from "../runtimes/headless-defaults.js";
import type { AgentsConfig } from "../runtimes/collect-status.js";
import { collectContractRows, getInstallRuntime, listInstallRuntimes } from "../runtimes/install-registry.js";
import type { InstallRuntime, InstallScope, RootContext } from "../runtimes/install-types.js";
import type { InstallFs } from "./install-fs.js";
import type { Choice } from "./migration-record.js";
import { ENGINE_MIGRATIONS } from "./migrations/index.js";
import { packMigrationRecords } from "./migrations/pack-records.js";
import { loadPack, type LoadedPack } from "./pack/load-pack.js";
import type { PlannedAction } from "./plan-types.js";
import { InstallOptionError, type InstallRoot } from "./root.js";
import { runInstall, type InstallRequest, type InstallResult } from "./run-install.js";
import { buildInstallTargets, buildUninstallTargets, detectedRuntimes, shellQuote } from "./targets.js";
import { templateVars } from "./template-vars.js";

export interface InstallPackOptions {
  /** A pack folder; bosun's own pack when absent. Uninstall also takes a pack name. */
  pack?: string;
  runtimes?: readonly string[];
  allDetected?: boolean;
  scope: InstallScope;
  configDir?: string;
  dryRun: boolean;
  resolve?: Choice;
  lockTimeoutMs: number;
  env: Env;
  home: string;
  cwd: string;
  /** bosun's data folder (the hook helper goes to `<data>/bin/`). */
  dataDir: string;
  packageRoot: string;
  bosunVersion: string;
  agentsConfig: AgentsConfig;
  ask?: (questions: { root: InstallRoot; action: PlannedAction }[]) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  fs?: InstallFs;
  now?: () => Date;
  /** The random part of run ids (tests pass a fixed one). */
  random?: () => string;
}

/** What `bosun install` / `bosun uninstall` did (or would do). */
export interface InstallOutcome {
  mode: "install" | "uninstall";
  pack: { name: string; version: string | null; dir: string | null };
  result: InstallResult;
  notes: string[];
}

/** bosun's own pack, shipped in the package. */
export function bundledPackDir(packageRoot: string): string {
  return join(packageRoot, "assets", "pack");
}

/**
 * `bosun install`: loads and checks the pack (a bad pack is one error, before anything else),
 * resolves each runtime's roots, converts the pack to each runtime's layout, and runs the
 * installer (plan, questions, journal, apply, commit).
 */
export async function installPack(options: InstallPackOptions): Promise<InstallOutcome> {
  const pack = loadPack(options.pack ?? bundledPackDir(options.packageRoot));
  const ctx: RootContext = { env: options.env, home: options.home, cwd: options.cwd };
  const runtimes = selectRuntimes(options, ctx);
  const fs = options.fs ?? nodeFs;
  const helperTarget = join(options.dataDir, HELPER_RELATIVE_PATH);
  const helperCommand = `node ${shellQuote(helperTarget)}`;
  const agents = collectHeadlessDefaults(options.agentsConfig);
  const { targets, notes } = buildInstallTargets({
    pack,
    runtimes,
    scope: options.scope,
    ctx,
    ...(options.configDir === undefined ? {} : { configDir: options.configDir }),
    varsFor: (runtime) =>
      templateVars({ agents, bosunVersion: options.bosunVersion, hookCommand: helperCommand, runtime: { id: runtime.id, title: runtime.title }, scope: options.scope, pack: { name: pack.name, version: pack.version } }),
    helperCommand,
    fs,
    allRuntimes: listInstallRuntimes(),
  });
  const result = await runInstall({
    ...runOptions(options),
    pack: { name: pack.name, version: pack.version, artifacts: artifactNames(pack) },
    records: [...ENGINE_MIGRATIONS, ...packMigrationRecords(pack.name, pack.migrations)],
    targets,
    helper: { source: packagedHelperPath(options.packageRoot), target: helperTarget },
  });
  return { mode: "install", pack: { name: pack.name, version: pack.version, dir: pack.dir }, result, notes };
}

/**
 * `bosun uninstall`: removes the pack's files bosun installed and still matches, backs up the
 * ones you edited, keeps every file it does not own, and removes only its own config entries.
 */
export async function uninstallPack(options: InstallPackOptions): Promise<InstallOutcome> {
  const named = options.pack ?? "bosun";
  // A folder with a pack.json names its pack; anything else is a pack name.
  const asFolder = resolve(options.cwd, named);
  const loaded: LoadedPack | null = nodeFs.existsSync(join(asFolder, "pack.json")) ? loadPack(asFolder) : null;
  const name = loaded?.name ?? named;
  const ctx: RootContext = { env: options.env, home: options.home, cwd: options.cwd };
  const runtimes = selectRuntimes(options, ctx);
  const targets = buildUninstallTargets(runtimes, options.scope, ctx, options.configDir);
  const result = await runInstall({ ...runOptions(options), pack: { name, version: loaded?.version ?? "", artifacts: new Set() }, records: [], targets, helper: null });
  return { mode: "uninstall", pack: { name, version: loaded?.version ?? null, dir: loaded?.dir ?? null }, result, notes: [] };
}

/** `--runtime a,b` (each known), or `--all-detected` (runtimes whose folder exists for the scope). */
export function selectRuntimes(options: Pick<InstallPackOptions, "runtimes" | "allDetected" | "scope" | "configDir">, ctx: RootContext): InstallRuntime[] {
  if (options.configDir !== undefined && options.scope !== "global") throw new InstallOptionError("--config-dir sets a runtime's global folder; it cannot be used with --scope local");
  if (options.allDetected) {
    if (options.runtimes && options.runtimes.length > 0) throw new InstallOptionError("pass --runtime or --all-detected, not both");
    if (options.configDir !== undefined) throw new InstallOptionError("--config-dir needs exactly one --runtime");
    const found = detectedRuntimes(listInstallRuntimes(), options.scope, ctx);
    if (found.length === 0) throw new InstallOptionError(`no coding agent's ${options.scope === "global" ? "config folder" : "project folder"} found here; name one with --runtime (bosun installs into: ${listInstallRuntimes().map((runtime) => runtime.id).join(", ")})`);
    return found;
  }
  const ids = (options.runtimes ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter(Boolean);
  if (ids.length === 0) throw new InstallOptionError(`name the runtimes with --runtime (${listInstallRuntimes().map((runtime) => runtime.id).join(", ")}), or pass --all-detected`);
  const runtimes = [...new Set(ids.map((id) => getInstallRuntime(id)))];
  if (options.configDir !== undefined && runtimes.length !== 1) throw new InstallOptionError("--config-dir needs exactly one --runtime");
  return runtimes;
}

/** What install and uninstall pass to the runner alike. */
function runOptions(options: InstallPackOptions): Omit<InstallRequest, "pack" | "records" | "targets" | "helper"> {
  return {
    dryRun: options.dryRun,
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
    ...(options.ask ? { ask: options.ask } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.random ? { random: options.random } : {}),
    lockTimeoutMs: options.lockTimeoutMs,
    fs: options.fs ?? nodeFs,
    bosunVersion: options.bosunVersion,
    contractExists: contractChecker(),
  };
}

function artifactNames(pack: LoadedPack): Set<string> {
  return new Set([...pack.skills, ...pack.commands, ...pack.agents, ...pack.hooks].map((artifact) => artifact.name));
}

function contractChecker(): (row: string) => boolean {
  let rows: Set<string> | undefined;
  return (row) => (rows ??= new Set(collectContractRows().map((entry) => entry.id))).has(row);
}

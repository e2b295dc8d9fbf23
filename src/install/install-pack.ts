import * as nodeFs from "node:fs";
import { join, resolve } from "node:path";
import type { Env } from "../kernel/paths.js";
import { HELPER_RELATIVE_PATH, packagedHelperPath } from "./hook-helper.js";
import { collectHeadlessDefaults } from "../runtimes/headless.js";
import { runtimeConfig, type AgentsConfig } from "../runtimes/collect-status.js";
import { collectContractRows, getInstallRuntime, listInstallRuntimes } from "../runtimes/registry.js";
import { helperCommandFor } from "../runtimes/kit/install-surfaces.js";
import { readCliVersions } from "./cli-version-read.js";
import { chooseEdition, editionSpan } from "../runtimes/kit/cli-version.js";
import { configuredBinary } from "../runtimes/kit/detect/binary.js";
import { isSkip, type CliContract, type InstallScope, type RootContext } from "../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../runtimes/kit/types.js";
import { exists, type InstallFs } from "./apply/install-fs.js";
import { migrationChecksum, type Choice } from "./records/migration-record.js";
import { ENGINE_MIGRATIONS } from "./migrations/index.js";
import type { LoadedPack } from "./pack/load-pack.js";
import type { PackReuse } from "./pack/pack-reuse.js";
import { detectedRuntimes, placementPeers, placementsFor, type Placement } from "./plan/placements.js";
import type { PlannedAction } from "./plan/plan-types.js";
import { InstallOptionError, type InstallRoot } from "./records/root.js";
import { rootResult } from "./records/root-result.js";
import type { RootResult } from "./records/root-result.js";
import type { CliTarget, InstallRequest, InstallResult } from "./run-install.js";
import { checkSettledRoot, emptyRootPlan, samePairs, settledInputs, unchangedPaths, type SettledRecord } from "./plan/settled.js";
import type { BosunCommand, DesiredInstall } from "./plan/desired.js";
import type { PackRecord } from "./records/manifest.js";
import { shellQuote } from "./shell-quote.js";

export { PackReuse } from "./pack/pack-reuse.js";

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
  /** False: plan every root in full even when it is settled (tests compare the two). */
  trustSettled?: boolean;
  /** bosun's cache folder, where the runtimes' CLI versions and pack file digests are kept (absent: not cached). */
  cacheDir?: string;
  /** How long a CLI's `--version` may take (default 300 ms). */
  versionTimeoutMs?: number;
  /** Called with the final plans right before the first write (the CLI shows what the pack will run). */
  beforeApply?: InstallRequest["beforeApply"];
  /** The largest pack file bosun reads (`bosun.json` `install.max_pack_file_bytes`; default 64 MiB). */
  maxPackFileBytes?: number;
  /** Shared by a command's preview and run: the pack loaded and hashed once when it did not change between them. */
  reuse?: PackReuse;
}

/** What `bosun install` / `bosun uninstall` did (or would do). */
export interface InstallOutcome {
  mode: "install" | "uninstall";
  /**
   * `digest` and `parts`: the pack folder's content digest (lock/pack-digest.ts) when the run
   * loaded the pack; a settled run has the `digest` recorded in the manifest only. `succeeds`:
   * the packs it takes the place of (its `succeed-pack` migrations; a settled run: as recorded).
   */
  pack: { name: string; version: string | null; dir: string | null; digest?: string; parts?: Record<string, string>; succeeds?: readonly string[] };
  result: InstallResult;
  notes: string[];
  /** Every root was found settled and unchanged: nothing was loaded or planned (settled.ts). */
  settled: boolean;
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
  const basis = await installBasis(options);
  // A reinstall of a settled pack: nothing to load, nothing to plan.
  if (options.trustSettled !== false) {
    const settled = settledOutcome(basis.fs, basis.placements, basis.inputs, options.scope, basis.packDir, basis.helperTarget, basis.clis);
    if (settled) return settled;
  }
  return loadAndInstall(options, basis);
}

/** What the settled check and a full install both work from, worked out without loading the pack. */
interface InstallBasis {
  packDir: string;
  ctx: RootContext;
  runtimes: InstallRuntime[];
  fs: InstallFs;
  helperTarget: string;
  helperCommand: string;
  /** The helper's command from "$HOME" (null: the helper is not under it). */
  portableHelperCommand: string | null;
  /** What `{bosun}` becomes in an MCP server's command. */
  bosunCommand: BosunCommand;
  agents: ReturnType<typeof collectHeadlessDefaults>;
  placements: Placement[];
  clis: Map<string, CliTarget>;
  /** Each placement's settled inputs (settled.ts). */
  inputs: string[];
}

/** The runtimes and their roots, bosun's hook helper, each runtime's CLI edition, and what each root would be settled from. */
async function installBasis(options: InstallPackOptions): Promise<InstallBasis> {
  const packDir = resolve(options.pack ?? bundledPackDir(options.packageRoot));
  const ctx: RootContext = { env: options.env, home: options.home, cwd: options.cwd };
  const runtimes = selectRuntimes(options, ctx);
  const fs = options.fs ?? nodeFs;
  const helperTarget = join(options.dataDir, HELPER_RELATIVE_PATH);
  const helperCommand = `node ${shellQuote(helperTarget)}`;
  // For a project's config that is usually committed (Gemini's): the helper's path from "$HOME", when it is under it.
  const inHome = helperTarget.startsWith(`${options.home}/`) ? helperTarget.slice(options.home.length + 1) : null;
  const portableHelperCommand = inHome ? `node "$HOME"/${shellQuote(inHome)}` : null;
  const bosunCommand = bosunCommandOf(options.packageRoot);
  const agents = collectHeadlessDefaults(options.agentsConfig);
  const placements = placementsFor(runtimes, options.scope, ctx, options.configDir);
  const engine = ENGINE_MIGRATIONS.map((record) => ({ source: record.source, id: record.id, checksum: migrationChecksum(record) }));
  const clis = await cliTargets(runtimes, options);
  const inputs = placements.map((placement, index) => {
    const cli = clis.get(placement.runtime.id);
    return settledInputs({
      bosunVersion: options.bosunVersion,
      engine,
      runtime: placement.runtime.id,
      scope: options.scope,
      configDir: options.configDir ?? null,
      roots: placement.roots,
      packDir,
      helperTarget,
      helperCommand: runtimeHelperCommand(placement.runtime, options.scope, helperCommand),
      bosunCommand: [bosunCommand.command, ...bosunCommand.args],
      agents,
      peers: placementPeers(placements, index),
      cli: cli ? [cli.choice.edition.since, cli.choice.note] : null,
      home: options.home,
    });
  });
  return { packDir, ctx, runtimes, fs, helperTarget, helperCommand, portableHelperCommand, bosunCommand, agents, placements, clis, inputs };
}

/** A full install: the pack loaded (or the preview's load taken), converted to each runtime's layout, and the installer run. */
async function loadAndInstall(options: InstallPackOptions, basis: InstallBasis): Promise<InstallOutcome> {
  const { packDir, ctx, runtimes, fs, helperTarget, helperCommand, portableHelperCommand, bosunCommand, agents, clis, inputs } = basis;
  // Loaded only past the settled check: the pack loader brings the schema library with it, and
  // the planner, the runner and the converters to each runtime's layout are most of the rest.
  const [{ loadPack }, { LoadCache }, { DigestCache }, { packDigest }, { buildInstallTargets }, { templateVars }, { runInstall }, { packMigrationRecords, succeededBy }] = await Promise.all([
    import("./pack/load-pack.js"),
    import("./pack/load-cache.js"),
    import("./lock/digest-cache.js"),
    import("./lock/pack-digest.js"),
    import("./plan/targets.js"),
    import("./plan/template-vars.js"),
    import("./run-install.js"),
    import("./migrations/pack-records.js"),
  ]);
  // Saved only once the run is done: a dry run, or a run that fails, writes nothing. The load
  // hashes what it reads into the digest cache, so the digest reads only what the load did not.
  // A command's preview and run share both (saved by the run), and the run takes the preview's
  // load when nothing in the pack changed since (pack-reuse.ts).
  const openCaches = (write: boolean) => {
    const digests = DigestCache.open(options.cacheDir, { write });
    return { digests, loads: LoadCache.open(options.cacheDir, { bosunVersion: options.bosunVersion, write, digests }) };
  };
  const { digests: digestCache, loads: loadCache } = options.reuse ? options.reuse.caches(() => openCaches(true)) : openCaches(!options.dryRun);
  const load = () => loadPack(packDir, { ...packOptions(options), cache: loadCache });
  const pack = options.reuse ? options.reuse.pack(packDir, packOptions(options), fs, load) : load();
  const digest = packDigest(pack.dir, digestCache);
  const { targets, notes } = buildInstallTargets({
    pack,
    runtimes,
    scope: options.scope,
    ctx,
    ...(options.configDir === undefined ? {} : { configDir: options.configDir }),
    varsFor: (runtime) =>
      templateVars({ agents, bosunVersion: options.bosunVersion, hookCommand: runtimeHelperCommand(runtime, options.scope, helperCommand), runtime: { id: runtime.id, title: runtime.title }, scope: options.scope, pack: { name: pack.name, version: pack.version } }),
    helperCommand,
    portableHelperCommand,
    bosunCommand,
    fs,
    allRuntimes: listInstallRuntimes(),
    settleInputs: inputs,
    clis,
    ...(options.reuse ? { reuse: options.reuse } : {}),
  });
  // The packs this one takes the place of: its migrations' `succeed-pack` steps.
  const succeeds = [...new Set(pack.migrations.flatMap(({ record }) => succeededBy(record.steps)))];
  const result = await runInstall({
    ...runOptions(options),
    pack: { name: pack.name, version: pack.version, digest: digest.digest, artifacts: artifactNames(pack), succeeds },
    records: [...ENGINE_MIGRATIONS, ...packMigrationRecords(pack.name, pack.migrations)],
    targets,
    helper: { source: packagedHelperPath(options.packageRoot), target: helperTarget },
    settlePack: { name: pack.name, version: pack.version, dir: pack.dir, watch: pack.watch },
  });
  if (!options.dryRun) loadCache.save();
  // Frontmatter keys no runtime knows: one warning line each, naming the file.
  return {
    mode: "install",
    pack: { name: pack.name, version: pack.version, dir: pack.dir, digest: digest.digest, parts: digest.parts, succeeds },
    result: { ...result, warnings: [...pack.warnings, ...result.warnings] },
    notes,
    settled: false,
  };
}

function packOptions(options: InstallPackOptions) {
  return options.maxPackFileBytes === undefined ? {} : { maxFileBytes: options.maxPackFileBytes };
}

/**
 * What `{bosun}` becomes as an MCP server's command: `node` and this package's bin script, as the
 * hook helper is started with `node` from the agent's PATH (the entry keeps working when the node
 * version changes; the script's path changes only when bosun is installed elsewhere, and the next
 * `bosun install` rewrites the entry).
 */
function bosunCommandOf(packageRoot: string): BosunCommand {
  return { command: "node", args: [join(packageRoot, "bin", "bosun.js")] };
}

/** What `{bosun-hook}` becomes for one runtime and scope (its hooks placement says how the helper prints). */
function runtimeHelperCommand(runtime: InstallRuntime, scope: InstallScope, helperCommand: string): string {
  const hooks = runtime.installSurface.layout(scope).hooks;
  return helperCommandFor(helperCommand, isSkip(hooks) ? undefined : hooks.helperOutput);
}

/**
 * The outcome of a reinstall when every root of every runtime is settled and unchanged (settled.ts),
 * the pack and the files outside the roots have their recorded keys, and bosun's hook helper is
 * there if a hook needs it; else null (plan in full). The same outcome a full plan gives.
 */
function settledOutcome(fs: InstallFs, placements: readonly Placement[], inputs: readonly string[], scope: InstallScope, packDir: string, helperTarget: string, clis: ReadonlyMap<string, CliTarget>): InstallOutcome | null {
  const checkedPacks: SettledRecord["pack"][] = [];
  const packUnchanged = (pack: SettledRecord["pack"]) => {
    if (pack.dir !== packDir) return false;
    if (checkedPacks.some((checked) => samePairs(checked.watch, pack.watch) && checked.name === pack.name && checked.version === pack.version)) return true;
    if (checkedPacks.length > 0 || !unchangedPaths(fs, pack.watch, packDir)) return false;
    checkedPacks.push(pack);
    return true;
  };
  const targets: InstallResult["targets"] = [];
  const notes: string[] = [];
  let usesHelper = false;
  for (const [index, placement] of placements.entries()) {
    const found = placement.roots.map((root) => checkSettledRoot(fs, root, inputs[index] as string, (record) => packUnchanged(record.pack) && unchangedPaths(fs, record.watch)));
    const record = found.find((root) => root !== null)?.record;
    if (!record) return null;
    const roots: RootResult[] = [];
    const runRoots: InstallRoot[] = [];
    for (const [rootIndex, root] of placement.roots.entries()) {
      // An extra root the pack puts nothing in, still empty: left out, as a full plan leaves it out.
      if (!found[rootIndex] && found.some((other) => other?.record.idleRoots?.includes(root.dir)) && emptyRootPlan(fs, root, { name: record.pack.name, version: record.pack.version })) continue;
      const plan = found[rootIndex]?.plan ?? (found.some((other) => other?.record.emptyRoots.includes(root.dir)) ? emptyRootPlan(fs, root, { name: record.pack.name, version: record.pack.version }) : null);
      if (!plan) return null;
      roots.push(rootResult(root, plan, "unchanged"));
      runRoots.push(root);
    }
    usesHelper ||= record.usesHelper;
    notes.push(...record.runNotes);
    const desired: DesiredInstall = { runtime: placement.runtime, scope, files: [], hooks: [], settings: [], toml: null, skipped: record.skipped, notes: record.notes, usesHelper: record.usesHelper };
    const cli = clis.get(placement.runtime.id);
    targets.push({ target: { runtime: placement.runtime, scope, roots: runRoots, desired, ...(cli ? { cli } : {}) }, roots });
  }
  if (usesHelper && !exists(fs, helperTarget)) return null;
  const pack = checkedPacks[0];
  if (!pack) return null;
  const recorded = recordedPack(targets, pack.name);
  const digest = recorded?.digest;
  return { mode: "install", pack: { name: pack.name, version: pack.version, dir: pack.dir, ...(digest ? { digest } : {}), succeeds: recorded?.succeeds ?? [] }, result: { targets, helper: null, warnings: [] }, notes, settled: true };
}

/** The pack as the manifests of a settled run recorded it (the pack is unchanged since): its digest, what it succeeds. */
function recordedPack(targets: InstallResult["targets"], pack: string): PackRecord | undefined {
  for (const { roots } of targets) for (const root of roots) if (root.plan.manifest.manifest.packs[pack]?.digest) return root.plan.manifest.manifest.packs[pack];
  return undefined;
}

/**
 * Which version of each runtime's CLI is installed (the one `bosun agents` finds: `bosun.json`
 * `agents.<id>.binary`, else PATH), and the contract edition bosun writes for it.
 */
async function cliTargets(runtimes: readonly InstallRuntime[], options: InstallPackOptions): Promise<Map<string, CliTarget>> {
  const withCli = runtimes.filter((runtime) => runtime.installSurface.cli);
  if (withCli.length === 0) return new Map();
  const requests = withCli.map((runtime) => ({ id: runtime.id, binary: configuredBinary(runtimeConfig(options.agentsConfig, runtime.id), (runtime.installSurface.cli as CliContract).binary, options.home) }));
  const readings = await readCliVersions(requests, {
    env: options.env,
    cwd: options.cwd,
    cacheDir: options.cacheDir ?? null,
    ...(options.versionTimeoutMs === undefined ? {} : { timeoutMs: options.versionTimeoutMs }),
  });
  return new Map(
    withCli.map((runtime) => {
      const cli = runtime.installSurface.cli as CliContract;
      const reading = readings.get(runtime.id) ?? { kind: "absent" };
      const choice = chooseEdition(runtime.title, cli, reading);
      return [runtime.id, { reading, choice, span: editionSpan(cli, choice.edition) }];
    }),
  );
}

/**
 * `bosun uninstall`: removes the pack's files bosun installed and still matches, backs up the
 * ones you edited, keeps every file it does not own, and removes only its own config entries.
 */
export async function uninstallPack(options: InstallPackOptions): Promise<InstallOutcome> {
  const named = options.pack ?? "bosun";
  // A folder with a pack.json names its pack; anything else is a pack name.
  const asFolder = resolve(options.cwd, named);
  const loaded: LoadedPack | null = nodeFs.existsSync(join(asFolder, "pack.json")) ? (await import("./pack/load-pack.js")).loadPack(asFolder, packOptions(options)) : null;
  const name = loaded?.name ?? named;
  const ctx: RootContext = { env: options.env, home: options.home, cwd: options.cwd };
  const runtimes = selectRuntimes(options, ctx);
  const fs = options.fs ?? nodeFs;
  const [{ buildUninstallTargets }, { runInstall }, { withSharedHolds }] = await Promise.all([import("./plan/targets.js"), import("./run-install.js"), import("./plan/shared-holds.js")]);
  const targets = withSharedHolds(buildUninstallTargets(name, runtimes, options.scope, ctx, fs, options.configDir), { pack: name, ctx, fs, allRuntimes: listInstallRuntimes() });
  const result = await runInstall({ ...runOptions(options), pack: { name, version: loaded?.version ?? "", artifacts: new Set() }, records: [], targets, helper: null });
  return { mode: "uninstall", pack: { name, version: loaded?.version ?? null, dir: loaded?.dir ?? null }, result, notes: [], settled: false };
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
    ...(options.beforeApply ? { beforeApply: options.beforeApply } : {}),
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

import type { Stats } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import { installedStatKey, trustworthy } from "./classify.js";
import type { DesiredFile, SkippedArtifact } from "./desired.js";
import { sha256 } from "../apply/file-hash.js";
import { readOrNull, type InstallFs } from "../apply/install-fs.js";
import { emptyInstallState, parseInstallState, type AppliedMigration, type InstallState } from "../records/install-state.js";
import { emptyManifest, isRecord, parseManifest, type Manifest } from "../records/manifest.js";
import { effectiveType } from "./next-state.js";
import type { PlannedAction, RootPlan } from "./plan-types.js";
import { journalState } from "../apply/recovery.js";
import { MANIFEST_FILE, STATE_FILE, statePath, type InstallRoot } from "../records/root.js";
import { normalizeRelPath } from "./safe-path.js";

/**
 * A settled root: the run that last changed it left every file of the pack as the pack has it,
 * asked nothing it would ask again, and recorded what its plan was made from. A reinstall that
 * finds all of that unchanged (the same inputs, every pack path, config file and installed file
 * with the stat key recorded) has nothing to do, without loading the pack or planning: the full
 * planner would make a plan that keeps every file. Kept in `bosun-install-state.json` as
 * `settled`; any difference, or a record that does not read back, means a full plan.
 */
export interface SettledRecord {
  /** The digest of this runtime's inputs that are not files (`settledInputs`). */
  inputs: string;
  /** The pack, and every path of it the load looked at (relative, with its stat key; null: absent). */
  pack: { name: string; version: string; dir: string; watch: [string, string | null][] };
  /** Files outside the pack and the root the plan was made from (other runtimes' manifests). */
  watch: [string, string | null][];
  /** The digest of `appliedMigrations` the record was written with. */
  applied: string;
  /** The root's manifest right after the run. */
  manifest: string;
  /** The config files of the root planning reads (hook candidates, TOML), after the run. */
  config: [string, string | null][];
  /** Folders holding the pack's files, by inode: one swapped for a symlink or another folder shows. */
  dirs: [string, number][];
  /** Each pack file's artifact (an index into `labels`), in the manifest's sorted order. */
  labels: string[];
  artifacts: number[];
  /** What the runtime's install reported besides the files: skipped artifacts and notes. */
  skipped: SkippedArtifact[];
  notes: string[];
  runNotes: string[];
  usesHelper: boolean;
  /** Roots of this runtime bosun has nothing in: still empty means still nothing to do. */
  emptyRoots: string[];
  /**
   * Extra roots the pack puts nothing in, left out of the run (targets.ts usedRoots): while bosun
   * has nothing there (no manifest, no state), a settled run leaves them out too.
   */
  idleRoots?: string[];
}

/** What a settled record is written from: the target's share of the run, and the pack as loaded. */
export type SettleContext = Pick<SettledRecord, "inputs" | "watch" | "runNotes" | "pack" | "skipped" | "notes" | "usesHelper">;

/** The inputs of one runtime's install that are not files, as one digest. */
export function settledInputs(parts: {
  bosunVersion: string;
  engine: readonly { source: string; id: string; checksum: string }[];
  runtime: string;
  scope: string;
  configDir: string | null;
  roots: readonly InstallRoot[];
  packDir: string;
  helperTarget: string;
  /** What `{bosun-hook}` becomes in this runtime's hook commands (it differs by runtime). */
  helperCommand?: string;
  /** What `{bosun}` becomes in an MCP server's command: the program and arguments that start this bosun. */
  bosunCommand?: readonly string[];
  agents: unknown;
  peers: unknown;
  /** The runtime CLI's contract edition and its note (what it writes depends on them). */
  cli: unknown;
  /** The home folder: `{pack-dir}` and `{config-dir}` are written from it in global text (`~/…`). */
  home?: string;
}): string {
  const roots = parts.roots.map((root) => [root.key, root.dir, root.stateDir]);
  return `sha256:${sha256(JSON.stringify({ ...parts, roots, engine: parts.engine.map((record) => [record.source, record.id, record.checksum]) }))}`;
}

export function appliedDigest(applied: readonly AppliedMigration[]): string {
  return `sha256:${sha256(JSON.stringify(applied))}`;
}

/** The effective action types after which a reinstall finds nothing to do for a pack file. */
const SETTLING_TYPES: ReadonlySet<string> = new Set(["write-file", "replace-file", "backup-and-replace", "keep-file", "remove-managed", "backup-and-remove", "forget", "remove-empty-dir", "rewrite-json", "rewrite-toml"]);

/**
 * Whether a committed plan leaves the root settled: no notes to repeat, no action blocked, every
 * pack action one after which the same plan keeps the file (a file kept with your edits, one you
 * deleted, one adopted, or a question answered "keep" would be planned again), and the pack owns
 * exactly its desired files, each with the stat key it has now. Migrations are recorded applied,
 * so whatever they did is not planned again.
 */
export function isSettled(plan: RootPlan, manifest: Manifest | null, desired: readonly DesiredFile[]): boolean {
  if (manifest === null || plan.uninstall || plan.notes.length > 0) return false;
  for (const action of plan.actions) {
    if (action.blocked !== undefined) return false;
    if (action.origin.kind === "migration") continue;
    const type = effectiveType(action);
    if (!SETTLING_TYPES.has(type)) return false;
    if (type === "keep-file" && action.currentHash !== action.originalHash) return false;
  }
  const files = manifest.packs[plan.pack.name]?.files;
  if (!files || files.length !== desired.length) return false;
  const wanted = new Set(desired.map((file) => file.rel));
  return files.every((rel) => wanted.has(rel) && manifest.fileStats[rel]?.installed !== undefined);
}

/**
 * The record for a root the run has just settled: its manifest and config files as they are now
 * (after the run wrote them), the folders above the pack's files, and the report of a reinstall.
 */
export function settledRecord(fs: InstallFs, root: InstallRoot, manifest: Manifest, state: InstallState, context: SettleContext, desired: readonly DesiredFile[], configFiles: readonly string[], emptyRoots: readonly string[], idleRoots: readonly string[] = []): SettledRecord | null {
  const key = (path: string) => {
    const info = fs.lstatSync(path, { throwIfNoEntry: false });
    return info ? installedStatKey(info) : null;
  };
  const manifestKey = key(statePath(root, MANIFEST_FILE));
  if (manifestKey === null) return null;
  const files = [...(manifest.packs[context.pack.name]?.files ?? [])].sort();
  const artifactOf = new Map(desired.map((file) => [file.rel, file.artifact]));
  const labels: string[] = [];
  const labelIndex = new Map<string, number>();
  const artifacts = files.map((rel) => {
    const label = artifactOf.get(rel) ?? "";
    let index = labelIndex.get(label);
    if (index === undefined) labelIndex.set(label, (index = labels.push(label) - 1));
    return index;
  });
  const dirs: [string, number][] = [];
  for (const dir of foldersAbove(files)) {
    const info = fs.lstatSync(join(root.dir, dir), { throwIfNoEntry: false });
    if (!info?.isDirectory()) return null;
    dirs.push([dir, info.ino]);
  }
  return {
    inputs: context.inputs,
    pack: context.pack,
    watch: context.watch,
    applied: appliedDigest(state.appliedMigrations),
    manifest: manifestKey,
    config: [...new Set(configFiles)].sort().map((rel) => [rel, key(join(root.dir, rel))]),
    dirs,
    labels,
    artifacts,
    skipped: context.skipped,
    notes: context.notes,
    runNotes: context.runNotes,
    usesHelper: context.usesHelper,
    emptyRoots: [...emptyRoots],
    ...(idleRoots.length > 0 ? { idleRoots: [...idleRoots] } : {}),
  };
}

/** Reads back a settled record; anything not of the written shape is no record (a full plan). */
export function parseSettled(value: unknown): SettledRecord | null {
  if (!isRecord(value) || !isRecord(value.pack)) return null;
  const pack = value.pack;
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === "string");
  const pairs = (list: unknown): list is [string, string | null][] => Array.isArray(list) && list.every((item) => Array.isArray(item) && item.length === 2 && typeof item[0] === "string" && (item[1] === null || typeof item[1] === "string"));
  const safe = (rel: string) => {
    try {
      return normalizeRelPath(rel, "settled") === rel;
    } catch {
      return false;
    }
  };
  if (typeof value.inputs !== "string" || typeof value.applied !== "string" || typeof value.manifest !== "string" || typeof value.usesHelper !== "boolean") return null;
  if (typeof pack.name !== "string" || typeof pack.version !== "string" || typeof pack.dir !== "string" || !pairs(pack.watch) || !pack.watch.every(([rel]) => safe(rel))) return null;
  // The pack's own pack.json is always looked at; the files outside are other runtimes' manifests.
  if (!pack.watch.some(([rel, key]) => rel === "pack.json" && key !== null)) return null;
  if (!pairs(value.watch) || !value.watch.every(([path]) => isAbsolute(path) && basename(path) === MANIFEST_FILE)) return null;
  if (!pairs(value.config) || !value.config.every(([rel]) => safe(rel))) return null;
  if (!Array.isArray(value.dirs) || !value.dirs.every((item) => Array.isArray(item) && item.length === 2 && typeof item[0] === "string" && safe(item[0]) && Number.isInteger(item[1]))) return null;
  if (!strings(value.labels) || !Array.isArray(value.artifacts) || !value.artifacts.every((index) => Number.isInteger(index) && index >= 0 && index < (value.labels as string[]).length)) return null;
  if (!Array.isArray(value.skipped) || !value.skipped.every((item) => isRecord(item) && typeof item.kind === "string" && typeof item.name === "string" && typeof item.reason === "string")) return null;
  if (!strings(value.notes) || !strings(value.runNotes) || !strings(value.emptyRoots)) return null;
  if (value.idleRoots !== undefined && !strings(value.idleRoots)) return null;
  return value as unknown as SettledRecord;
}

/** A settled root found unchanged: its record and the plan a full planner would make (keep every file). */
export interface SettledRoot {
  record: SettledRecord;
  plan: RootPlan;
}

/**
 * Checks one root against its settled record: no run at work, the same inputs and applied
 * migrations, the pack and the files outside the root unchanged (`unchangedOutside`, which the
 * caller checks once per run), the manifest, config files and folders as the run left them, and
 * every pack file with the stat key bosun recorded. Null: plan in full.
 */
export function checkSettledRoot(fs: InstallFs, root: InstallRoot, inputs: string, unchangedOutside: (record: SettledRecord) => boolean): SettledRoot | null {
  const before = journalState(fs, root);
  if (before.busy) return null;
  const stateText = readOrNull(fs, statePath(root, STATE_FILE));
  if (stateText === null) return null;
  let state: InstallState;
  try {
    state = parseInstallState(statePath(root, STATE_FILE), stateText);
  } catch {
    return null;
  }
  const record = parseSettled(state.settled);
  if (record === null || record.inputs !== inputs || record.applied !== appliedDigest(state.appliedMigrations)) return null;
  // The pack first: after an upgrade of the pack, that is where the difference is.
  if (!unchangedOutside(record)) return null;
  const manifestPath = statePath(root, MANIFEST_FILE);
  if (statKey(fs, manifestPath) !== record.manifest) return null;
  if (!record.config.every(([rel, key]) => statKey(fs, join(root.dir, rel)) === key)) return null;
  for (const [dir, ino] of record.dirs) {
    const info = fs.lstatSync(join(root.dir, dir), { throwIfNoEntry: false });
    if (!info?.isDirectory() || info.ino !== ino) return null;
  }
  const manifestText = readOrNull(fs, manifestPath);
  if (manifestText === null) return null;
  const read = parseManifest(manifestText);
  const packRecord = read.manifest.packs[record.pack.name];
  if (read.problems.length > 0 || read.newer || !packRecord || packRecord.version !== record.pack.version) return null;
  const files = [...packRecord.files].sort();
  if (files.length !== record.artifacts.length) return null;
  const executables = new Set<string>();
  for (const rel of files) {
    const info = fs.lstatSync(join(root.dir, rel), { throwIfNoEntry: false });
    if (!info?.isFile() || read.manifest.fileStats[rel]?.installed !== installedStatKey(info) || !trustworthy(info)) return null;
    if ((info.mode & 0o111) !== 0) executables.add(rel);
  }
  if (journalState(fs, root).signature !== before.signature) return null;

  const origin = { kind: "pack" as const, name: record.pack.name };
  const actions: PlannedAction[] = files.map((rel, index) => {
    const hash = read.manifest.files[rel] as string;
    return { origin, rel, evidence: null, originalHash: hash, currentHash: hash, classification: "managed-pristine", type: "keep-file", reason: `${record.labels[record.artifacts[index] as number]}: unchanged`, index };
  });
  return {
    record,
    plan: {
      root,
      pack: { name: record.pack.name, version: record.pack.version },
      uninstall: false,
      actions,
      pending: [],
      drift: [],
      notes: [],
      manifest: read,
      effective: read.manifest,
      state,
      stateText,
      config: read.manifest.config,
      createdFiles: read.manifest.createdFiles,
      settledExecutables: executables,
    },
  };
}

/**
 * The plan of a root bosun has nothing in and that a settled sibling recorded as empty: still no
 * manifest, no install state and no run at work there; else null.
 */
export function emptyRootPlan(fs: InstallFs, root: InstallRoot, pack: { name: string; version: string }): RootPlan | null {
  if (journalState(fs, root).busy || statKey(fs, statePath(root, MANIFEST_FILE)) !== null || statKey(fs, statePath(root, STATE_FILE)) !== null) return null;
  const manifest = emptyManifest();
  return { root, pack, uninstall: false, actions: [], pending: [], drift: [], notes: [], manifest: { manifest, found: false, text: null, problems: [], newer: false }, effective: manifest, state: emptyInstallState(), stateText: null, config: [], createdFiles: [] };
}

/** The same pairs, in the same order. */
export function samePairs(a: readonly [string, string | null][], b: readonly [string, string | null][]): boolean {
  return a.length === b.length && a.every(([path, key], index) => path === b[index]?.[0] && key === b[index]?.[1]);
}

/** Every path of a watch list (absolute, or under `base`) still has the key recorded. */
export function unchangedPaths(fs: InstallFs, watch: readonly [string, string | null][], base?: string): boolean {
  return watch.every(([path, key]) => statKey(fs, base === undefined ? path : path === "" ? base : `${base}/${path}`) === key);
}

function statKey(fs: InstallFs, path: string): string | null {
  const info: Stats | undefined = fs.lstatSync(path, { throwIfNoEntry: false });
  return info ? installedStatKey(info) : null;
}

/** The folders above a list of paths, parents first. */
function foldersAbove(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of files) for (let slash = rel.indexOf("/"); slash !== -1; slash = rel.indexOf("/", slash + 1)) dirs.add(rel.slice(0, slash));
  return [...dirs].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
}

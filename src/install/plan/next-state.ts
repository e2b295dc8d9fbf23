import type { InstallState } from "../records/install-state.js";
import type { FileStatRecord, Manifest, PackRecord } from "../records/manifest.js";
import { MUTATING_ACTIONS, type PlanActionType, type PlannedAction, type RootPlan } from "./plan-types.js";

export interface ManifestInputs {
  now: string;
  bosunVersion: string;
  /** Each file written in this run: its stat right after writing, and the hash of what was written. */
  written: ReadonlyMap<string, { stat: string; sha256: string }>;
  /** The folders this run created in the root, and those it removed. */
  madeDirs?: ReadonlySet<string>;
  removedDirs?: ReadonlySet<string>;
  /** How many folders this run created to make the root (see `Manifest.createdRoot`). */
  createdRoot?: number;
}

/** The type an action has once its question is answered. */
export function effectiveType(action: PlannedAction): string {
  if (action.resolution === "remove") return action.onRemove ?? "backup-and-remove";
  if (action.resolution === "keep") return "keep";
  return action.type;
}

/**
 * The manifest after this run: the manifest as the migrations leave it, with each file the pack
 * now owns (its hash is what bosun wrote, or your edited copy's old entry when bosun kept it),
 * the pack's record, and the config entries. Null when no pack is left (an uninstall of the
 * last one): the manifest is then removed.
 */
export function nextManifest(plan: RootPlan, inputs: ManifestInputs): Manifest | null {
  const before = plan.effective;
  const { files, stats, owned } = filesAfter(plan, inputs);
  const packs = packsAfter(plan, inputs, files, owned);
  // Files no pack lists any more are not bosun's.
  const listed = new Set<string>();
  for (const name in packs) for (const rel of (packs[name] as PackRecord).files) listed.add(rel);
  for (const rel in files) {
    if (!listed.has(rel)) delete files[rel];
    else if (!stats[rel] && before.fileStats[rel] && files[rel] === before.files[rel]) stats[rel] = before.fileStats[rel] as FileStatRecord;
  }
  if (Object.keys(packs).length === 0 && configAfter(plan).length === 0) return null;
  return {
    schemaVersion: before.schemaVersion,
    bosunVersion: inputs.bosunVersion,
    runtime: plan.root.runtime,
    scope: plan.root.scope,
    updatedAt: inputs.now,
    packs,
    files,
    config: configAfter(plan),
    createdFiles: plan.createdFiles,
    createdDirs: nextCreatedDirs(before.createdDirs, inputs),
    // A root made by an earlier run stays bosun's; this run finds it there.
    createdRoot: before.createdRoot || (inputs.createdRoot ?? 0),
    fileStats: stats,
  };
}

/**
 * Each file's hash and stats after the run's actions, and the files this pack owns then: what
 * bosun wrote takes the hash of what was written, what it kept keeps its entry, what it removed
 * (or you kept as yours) leaves.
 */
function filesAfter(plan: RootPlan, inputs: ManifestInputs): { files: Record<string, string>; stats: Record<string, FileStatRecord>; owned: Set<string> } {
  const before = plan.effective;
  const files: Record<string, string> = { ...before.files };
  const stats: Record<string, FileStatRecord> = {};
  const owned = new Set(before.packs[plan.pack.name]?.files ?? []);
  for (const action of plan.actions) {
    const type = effectiveType(action);
    const desired = action.desired;
    switch (type) {
      case "write-file":
      case "replace-file":
      case "backup-and-replace":
      case "adopt-file":
      {
        if (!desired) break;
        const written = inputs.written.get(action.rel);
        const hash = written?.sha256 ?? desired.sha256;
        if (hash === null) break;
        files[action.rel] = hash;
        owned.add(action.rel);
        const stat: FileStatRecord = {};
        if (written) stat.installed = written.stat;
        if (desired.source.kind === "file") stat.source = desired.source.statKey;
        else if (desired.source.kind === "render") stat.source = desired.source.key;
        stats[action.rel] = stat;
        break;
      }
      case "keep-file":
      case "keep-deleted":
        if (desired) owned.add(action.rel);
        if (desired && files[action.rel] === desired.sha256 && before.fileStats[action.rel]) stats[action.rel] = before.fileStats[action.rel] as FileStatRecord;
        break;
      case "keep":
        // A conflict answered "keep": your file stays and is not bosun's.
        if (desired && action.type === "prompt-user") {
          delete files[action.rel];
          owned.delete(action.rel);
        }
        break;
      case "backup-and-remove":
      case "remove-managed":
      case "forget":
        delete files[action.rel];
        owned.delete(action.rel);
        break;
    }
  }
  return { files, stats, owned };
}

/** Every pack's record after the run: the others' file lists trimmed to what is left, this pack's written anew (or held, or gone). */
function packsAfter(plan: RootPlan, inputs: ManifestInputs, files: Readonly<Record<string, string>>, owned: ReadonlySet<string>): Record<string, PackRecord> {
  const before = plan.effective;
  const packs: Record<string, PackRecord> = {};
  for (const [name, pack] of Object.entries(before.packs)) if (name !== plan.pack.name) packs[name] = { ...pack, files: pack.files.filter((rel) => rel in files) };
  const previous = before.packs[plan.pack.name];
  if (plan.uninstall && plan.held && previous) {
    // Uninstalled, but skill folders other runtimes read here stay, recorded as held for them.
    const list = plan.held.files.filter((rel) => rel in files).sort();
    if (list.length > 0) packs[plan.pack.name] = { ...previous, updatedAt: inputs.now, files: list, heldFor: [...plan.held.for].sort() };
  }
  if (!plan.uninstall) {
    const list = [...owned].filter((rel) => rel in files).sort();
    const digest = plan.pack.digest ?? previous?.digest;
    const unchanged = previous && previous.version === plan.pack.version && previous.digest === digest && sameList(previous.files, list) && !plan.actions.some((action) => writes(action));
    packs[plan.pack.name] = {
      version: plan.pack.version,
      installedAt: previous?.installedAt || inputs.now,
      updatedAt: unchanged ? previous.updatedAt : inputs.now,
      files: list,
      ...(digest === undefined ? {} : { digest }),
      ...(plan.pack.succeeds?.length ? { succeeds: plan.pack.succeeds } : {}),
    };
  }
  return packs;
}

/** The folders bosun created, as recorded before, with the ones this run made and without the ones it removed. */
function nextCreatedDirs(before: readonly string[], inputs: ManifestInputs): string[] {
  if (!inputs.madeDirs?.size && !inputs.removedDirs?.size) return [...before];
  const dirs = new Set([...before, ...(inputs.madeDirs ?? [])]);
  for (const dir of inputs.removedDirs ?? []) dirs.delete(dir);
  return [...dirs].sort();
}

/** The install state after this run: every pending migration recorded (with or without actions), drifted checksums reconciled. */
export function nextState(plan: RootPlan, now: string, journal: string | null): InstallState {
  const applied = plan.state.appliedMigrations.map((entry) => {
    const drift = plan.drift.find((item) => item.id === entry.id && item.source === entry.source);
    return drift ? { ...entry, checksum: drift.current } : entry;
  });
  for (const pending of plan.pending) {
    // The journal is named only for a migration that changed something in this run.
    const changed = plan.actions.some((action) => action.origin.kind === "migration" && action.origin.id === pending.record.id && action.origin.source === pending.record.source && MUTATING_ACTIONS.has(effectiveType(action) as PlanActionType));
    const entry = { id: pending.record.id, source: pending.record.source, checksum: pending.checksum, appliedAt: now, journal: changed ? journal : null };
    // A succession that ran again (its old pack came back) keeps one record: this run's.
    const earlier = applied.findIndex((item) => item.id === entry.id && item.source === entry.source);
    if (earlier === -1) applied.push(entry);
    else applied[earlier] = entry;
  }
  return { schemaVersion: plan.state.schemaVersion, appliedMigrations: applied };
}

/**
 * Whether two manifests mean the same, leaving out what changes on every write (times, bosun's
 * version, the stat cache): the same runtime and scope, packs (version, digest and files, in any order),
 * file hashes, config entries, and the files and folders bosun created. Equal means a run has nothing to record.
 */
export function sameManifestMeaning(a: Manifest | null, b: Manifest | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.runtime !== b.runtime || a.scope !== b.scope) return false;
  if (!sameRecord(a.files, b.files, (x, y) => x === y)) return false;
  if (!sameRecord(a.packs, b.packs, (x, y) => x.version === y.version && x.digest === y.digest && sameList(x.files, y.files) && sameList(x.heldFor ?? [], y.heldFor ?? []) && sameList(x.succeeds ?? [], y.succeeds ?? []))) return false;
  if (!sameList(a.createdFiles, b.createdFiles) || !sameList(a.createdDirs, b.createdDirs) || a.createdRoot !== b.createdRoot) return false;
  return a.config.length === b.config.length && JSON.stringify(a.config) === JSON.stringify(b.config);
}

function sameRecord<T>(a: Record<string, T>, b: Record<string, T>, same: (x: T, y: T) => boolean): boolean {
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(b, key) || !same(a[key] as T, b[key] as T)) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

function writes(action: PlannedAction): boolean {
  const type = effectiveType(action);
  return type !== "keep" && type !== "keep-file" && type !== "keep-deleted" && type !== "record-baseline" && type !== "baseline-preserve-user";
}

/** The same strings, in any order. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.every((value, index) => value === b[index])) return true;
  const left = [...a].sort();
  const right = [...b].sort();
  return left.every((value, index) => value === right[index]);
}

/** The config entries after this run: the plan's, and those of settings conflicts answered "remove". */
export function configAfter(plan: RootPlan): RootPlan["config"] {
  const answered = plan.actions.filter((action) => action.resolution === "remove" && action.settingRecords).flatMap((action) => action.settingRecords ?? []);
  return answered.length === 0 ? plan.config : [...plan.config, ...answered];
}

import type { InstallLayout } from "../../runtimes/kit/install-types.js";
import { classifyInspection, type Classification } from "./classify.js";
import type { DesiredFile, DesiredHook, DesiredInstall } from "./desired.js";
import { hashRegularFile, sha256 } from "../apply/file-hash.js";
import { PackSucceededError } from "../install-errors.js";
import type { InstallFs } from "../apply/install-fs.js";
import { findApplied, type InstallState } from "../records/install-state.js";
import { installedHere, type Manifest, type ReadManifest } from "../records/manifest.js";
import {
  MigrationAuthoringError,
  migrationChecksum,
  recordApplies,
  validateMigrationActions,
  validateMigrationRecord,
  type MigrationContext,
  type MigrationRecord,
} from "../records/migration-record.js";
import { protectedDirs } from "../migrations/surfaces.js";
import { planConfig } from "./plan-config.js";
import { planMigrationAction } from "./plan-migration-action.js";
import type { ActionOrigin, ChecksumDrift, PendingMigration, PlannedAction, RootPlan } from "./plan-types.js";
import { isReservedPath, type InstallRoot } from "../records/root.js";
import { TreeView } from "./tree-view.js";

export interface RootPlanInput {
  root: InstallRoot;
  fs: InstallFs;
  layout: InstallLayout;
  pack: { name: string; version: string; digest?: string; artifacts: ReadonlySet<string>; succeeds?: readonly string[] };
  /** What the pack should look like in this root; null removes the pack (uninstall). */
  desired: (Pick<DesiredInstall, "files" | "hooks" | "toml"> & Partial<Pick<DesiredInstall, "settings">>) | null;
  records: readonly MigrationRecord[];
  manifest: ReadManifest;
  state: InstallState;
  stateText: string | null;
  now: () => string;
  contractExists: (row: string) => boolean;
  /** Pack files already hashed in this run, by path and stat. */
  packHashes?: Map<string, string>;
  /** An uninstall: skill folders (relative paths) to keep, each with the runtimes that read them here (`gemini global`). */
  hold?: ReadonlyMap<string, readonly string[]>;
  /** Where a pack's support files go in this root (null: in another root of the runtime); absent: nowhere. */
  supportDir?: (pack: string) => string | null;
}

/** What the steps of one root's plan share: the tree they plan against, and what they add to. */
interface RootDraft {
  view: TreeView;
  /** The manifest as the plan leaves it (the view edits it as it goes). */
  effective: Manifest;
  actions: PlannedAction[];
  notes: string[];
  /** The paths of the files the pack ships here. */
  desiredPaths: ReadonlySet<string>;
  /** Paths a migration or the pack's own file already plans for: retiring leaves them alone. */
  touched: Set<string>;
  /** Files the plan removes or moves away: their folders may be left empty. */
  removedFiles: string[];
}

/**
 * Plans one root: first the pending migrations (in order, each seeing what the earlier ones will
 * have done), then materializing the pack (or removing it), retiring what the pack no longer
 * ships, the config registrations, and folders that end up empty. Only reads the disk: the same
 * plan is the dry run and what the executor carries out.
 */
export function planRoot(input: RootPlanInput): RootPlan {
  const { root, fs } = input;
  if (input.desired !== null) refuseSucceeded(root, input.pack.name, input.manifest.manifest);
  const effective = cloneManifest(input.manifest.manifest);
  const draft: RootDraft = {
    view: new TreeView(root.dir, fs, effective, input.manifest.manifest),
    effective,
    actions: [],
    notes: input.manifest.problems.map((problem) => `bosun-manifest.json ${problem}`),
    desiredPaths: new Set((input.desired?.files ?? []).map((file) => file.rel)),
    touched: new Set<string>(),
    removedFiles: [],
  };
  const { view, actions, notes } = draft;
  const { drift, pending } = planMigrations(input, draft);

  const packName = input.pack.name;
  const origin: ActionOrigin = { kind: "pack", name: packName };
  materialize(input, draft, origin);
  const held = planRetirements(input, draft, origin);

  // Config: hook registrations and the TOML block.
  const config = planConfig({ view, manifest: effective, packName, hooks: input.desired?.hooks ?? ([] as DesiredHook[]), settings: input.desired?.settings ?? [], toml: input.desired?.toml ?? null, layout: input.layout, origin });
  for (const action of config.actions) add(draft, action);
  notes.push(...config.notes);

  planEmptyDirs(input, draft, origin);

  return {
    root,
    pack: { name: packName, version: input.pack.version, ...(input.pack.digest === undefined ? {} : { digest: input.pack.digest }), ...(input.pack.succeeds?.length ? { succeeds: [...input.pack.succeeds].sort() } : {}) },
    uninstall: input.desired === null,
    actions,
    pending,
    drift,
    notes,
    manifest: input.manifest,
    effective,
    state: input.state,
    stateText: input.stateText,
    ...(held.files.length > 0 ? { held: { files: held.files, for: [...held.for] } } : {}),
    config: config.records,
    createdFiles: config.createdFiles,
  };
}

/** Numbers an action into the plan (each action is a fresh object: it is numbered in place). */
function add(draft: RootDraft, action: Omit<PlannedAction, "index">): void {
  draft.actions.push(Object.assign(action, { index: draft.actions.length }));
}

/**
 * Migrations: every record checked first (a bad one or an id used twice refuses the whole plan),
 * then the pending ones that apply here planned in order; an applied one whose checksum changed
 * is reported as drift.
 */
function planMigrations(input: RootPlanInput, draft: RootDraft): { drift: ChecksumDrift[]; pending: PendingMigration[] } {
  const { root } = input;
  const { view, notes, touched, removedFiles } = draft;
  const drift: ChecksumDrift[] = [];
  const pending: PendingMigration[] = [];
  const ids = new Set<string>();
  for (const [index, record] of input.records.entries()) {
    validateMigrationRecord(record, `record ${index + 1}`, input.contractExists);
    const key = `${record.source}\0${record.id}`;
    if (ids.has(key)) throw new MigrationAuthoringError(`${record.source} ${record.id}`, "the id is used twice");
    ids.add(key);
  }
  for (const record of input.records) {
    if (!recordApplies(record, root.runtime, root.scope)) continue;
    const checksum = migrationChecksum(record);
    const applied = findApplied(input.state, record.source, record.id);
    if (applied && !installedAgain(record, view)) {
      if (applied.checksum !== null && applied.checksum !== checksum) drift.push({ id: record.id, source: record.source, stored: applied.checksum, current: checksum });
      continue;
    }
    const ctx = migrationContext(input, view, draft.desiredPaths);
    const returned = validateMigrationActions(record.plan(ctx), record, root.runtime, input.contractExists);
    const origin: ActionOrigin = { kind: "migration", id: record.id, source: record.source, title: record.title, checksum };
    for (const action of returned) {
      if (action.note) notes.push(action.note);
      // A succession names packs, not paths.
      if (action.type === "succeed-pack") {
        add(draft, planMigrationAction(action, origin, view));
        continue;
      }
      if (isReservedPath(root, action.relPath) || (action.toRelPath && isReservedPath(root, action.toRelPath))) {
        throw new MigrationAuthoringError(`${record.source} ${record.id}`, `${action.relPath} is one of bosun's own files`);
      }
      const planned = planMigrationAction(action, origin, view);
      add(draft, planned);
      touched.add(planned.rel);
      if (planned.toRel) touched.add(planned.toRel);
      if ((planned.type === "remove-managed" || planned.type === "backup-and-remove" || planned.type === "move-managed") && !planned.blocked) removedFiles.push(planned.rel);
    }
    pending.push({ record, checksum, actions: returned.length });
  }
  return { drift, pending };
}

/** A succession that ran here before, with a pack it succeeds installed here (again, for this runtime itself). */
function installedAgain(record: MigrationRecord, view: TreeView): boolean {
  return (record.whileInstalled ?? []).some((name) => installedHere(view.manifest, name) !== null);
}

/** Materialize: each desired file against what is there, in path order. */
function materialize(input: RootPlanInput, draft: RootDraft, origin: ActionOrigin): void {
  const { view } = draft;
  for (const file of [...(input.desired?.files ?? [])].sort((a, b) => (a.rel < b.rel ? -1 : 1))) {
    if (isReservedPath(input.root, file.rel)) throw new MigrationAuthoringError(`pack ${input.pack.name}`, `${file.rel} is one of bosun's own files`);
    add(draft, planFile(file, view, view.ownerOf(file.rel), input.pack.name, origin, input.fs, input.packHashes ?? new Map()));
    draft.touched.add(file.rel);
  }
}

/**
 * Retire: files this pack owned that it no longer ships. An uninstall keeps those in a skill
 * folder another runtime reads here; returns them, with those runtimes.
 */
function planRetirements(input: RootPlanInput, draft: RootDraft, origin: ActionOrigin): { files: string[]; for: Set<string> } {
  const { view, effective } = draft;
  const packName = input.pack.name;
  const held = { files: [] as string[], for: new Set<string>() };
  for (const rel of Object.keys(effective.files).sort()) {
    if (view.ownerOf(rel) !== packName || draft.desiredPaths.has(rel) || draft.touched.has(rel)) continue;
    const holder = input.desired === null ? heldBy(input.hold, rel) : undefined;
    if (holder && view.look(rel).kind !== "absent") {
      held.files.push(rel);
      for (const reader of holder) held.for.add(reader);
      add(draft, { origin, rel, type: "keep-file", classification: classifyInspection(effective.files[rel], view.look(rel)), reason: `kept: ${holder.join(", ")} ${holder.length === 1 ? "reads" : "read"} it here and ${holder.length === 1 ? "has" : "have"} no copy of ${holder.length === 1 ? "its" : "their"} own`, evidence: "listed in bosun-manifest.json for this pack", originalHash: effective.files[rel] ?? null, currentHash: view.look(rel).hash });
      continue;
    }
    const planned = planRetire(rel, view, origin, input.desired === null);
    add(draft, planned);
    if (planned.type !== "forget" && !planned.blocked && !needsAnswer(planned)) draft.removedFiles.push(rel);
  }
  return held;
}

/** Folders left empty by removals and moves (never the runtime's own surface folders), deepest first. */
function planEmptyDirs(input: RootPlanInput, draft: RootDraft, origin: ActionOrigin): void {
  const { root } = input;
  const { removedFiles } = draft;
  const keep = protectedDirs(input.layout, root.key, input.pack.name);
  const stillWanted = removedFiles.length > 0 ? desiredDirs(draft.desiredPaths) : new Set<string>();
  const planned = new Set(draft.actions.filter((action) => action.type === "remove-empty-dir").map((action) => action.rel));
  const dirs = new Set<string>();
  for (const rel of removedFiles) {
    const parts = rel.split("/");
    for (let i = parts.length - 1; i >= 1; i--) {
      const dir = parts.slice(0, i).join("/");
      if (keep.has(dir)) break;
      dirs.add(dir);
    }
  }
  const emptied = [...dirs].filter((dir) => !planned.has(dir) && !stillWanted.has(dir));
  // An uninstall also takes the folders bosun created that it leaves empty (the runtime's own ones too).
  const made = input.desired === null ? createdDirsLeftEmpty(draft.view, root, draft.effective.createdDirs, new Set([...planned, ...emptied])) : new Set<string>();
  for (const dir of [...emptied, ...made].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1))) {
    const evidence = made.has(dir)
      ? { reason: "bosun created it; nothing is left in it", evidence: "bosun-manifest.json records that bosun created this folder; it is removed only if it is empty" }
      : { reason: "held only files bosun removed", evidence: "every file bosun had there was removed or moved in this run; the folder is removed only if it is empty" };
    add(draft, { origin, type: "remove-empty-dir", rel: dir, classification: "managed-pristine", ...evidence, originalHash: null, currentHash: null });
  }
}

/** The runtimes an uninstall keeps a file for: those reading the skill folder it is in. */
function heldBy(hold: ReadonlyMap<string, readonly string[]> | undefined, rel: string): readonly string[] | undefined {
  if (!hold) return undefined;
  for (const [dir, readers] of hold) if (rel.startsWith(`${dir}/`)) return readers;
  return undefined;
}

function migrationContext(input: RootPlanInput, view: TreeView, desiredPaths: ReadonlySet<string>): MigrationContext {
  const classified = new Map<string, Classification>();
  return {
    runtime: input.root.runtime,
    scope: input.root.scope,
    rootKey: input.root.key,
    layout: input.layout,
    pack: { name: input.pack.name, version: input.pack.version, paths: desiredPaths, artifacts: input.pack.artifacts },
    manifest: view.manifest,
    state: input.state,
    now: input.now,
    classify(rel) {
      let known = classified.get(rel);
      if (!known) classified.set(rel, (known = classifyInspection(view.manifest.files[rel], view.look(rel))));
      return known;
    },
    hash: (rel) => {
      const looked = view.look(rel);
      return looked.kind === "file" || looked.kind === "symlink" ? looked.hash : null;
    },
    exists: (rel) => view.look(rel).kind !== "absent",
    readText: (rel) => view.readText(rel),
    readJson: (rel) => view.readJson(rel),
    readToml: (rel) => view.readToml(rel),
    list: (rel) => view.list(rel),
    ownerOf: (rel) => view.ownerOf(rel),
    supportDir: (pack) => input.supportDir?.(pack) ?? null,
  };
}

/** Installing a pack that a pack installed here has taken the place of is refused (succession.ts). */
function refuseSucceeded(root: InstallRoot, pack: string, manifest: Manifest): void {
  for (const [name, record] of Object.entries(manifest.packs)) {
    if (name !== pack && record.succeeds?.includes(pack)) throw new PackSucceededError(root.dir, pack, name, record.version);
  }
}

/**
 * One file of the pack against what is at its path. The pack file's hash is needed only when
 * there is something to compare it with; a new file is hashed while it is written.
 */
function planFile(file: DesiredFile, view: TreeView, owner: string | undefined, packName: string, origin: ActionOrigin, fs: InstallFs, hashes: Map<string, string>): Omit<PlannedAction, "index"> {
  const rel = file.rel;
  const looked = view.look(rel);
  const manifestHash = view.manifest.files[rel];
  const classification = classifyInspection(manifestHash, looked);
  // One object per file (a thousand files are planned on every run); `extra` only when needed.
  const action = (desired: DesiredFile, type: PlannedAction["type"], reason: string, extra?: Partial<PlannedAction>): Omit<PlannedAction, "index"> => {
    const planned: Omit<PlannedAction, "index"> = { origin, rel, evidence: null, originalHash: manifestHash ?? null, currentHash: looked.hash, classification, desired, type, reason };
    return extra ? Object.assign(planned, extra) : planned;
  };
  if (looked.problem) return action(file, "write-file", file.artifact, { blocked: looked.problem });
  if (owner !== undefined && owner !== packName) return action(file, "write-file", file.artifact, { blocked: `${rel} belongs to the pack ${owner}; two packs cannot install the same file` });
  if (looked.kind === "absent") {
    if (manifestHash !== undefined) return action(file, "keep-deleted", `${file.artifact}: you deleted it; it stays deleted (uninstall and install again to get it back)`);
    return action(file, "write-file", file.artifact);
  }
  if (looked.kind === "dir" || looked.kind === "other") {
    return action(file, "write-file", file.artifact, { blocked: `${rel} is a ${looked.kind === "dir" ? "folder" : "special file"} where ${file.artifact} goes; move it away, then run again` });
  }
  const desiredHash = file.sha256 ?? desiredCopyHash(file, view.manifest, fs, hashes);
  const desired = file.sha256 === desiredHash ? file : { ...file, sha256: desiredHash };
  if (looked.kind === "file" && looked.hash === desiredHash) {
    const sameMode = (looked.mode & 0o111 ? 0o755 : 0o644) === file.mode;
    if (manifestHash === desiredHash && sameMode) return action(desired, "keep-file", `${file.artifact}: unchanged`);
    if (manifestHash === desiredHash || !sameMode) {
      return action(desired, "replace-file", `${file.artifact}: file mode changes`, { evidence: manifestHash === desiredHash ? "content matches bosun-manifest.json" : "content is exactly the pack's" });
    }
    return action(desired, "adopt-file", `${file.artifact}: already there with the same content`, { evidence: "content is exactly the pack's" });
  }
  if (manifestHash === undefined) {
    return action(desired, "prompt-user", `${file.artifact}: a ${looked.kind === "symlink" ? "symlink" : "file"} bosun did not install is where it goes`, {
      prompt: `${rel} is not bosun's, and the pack installs ${file.artifact} there. Keep yours (the pack's version is not installed), or back yours up and install the pack's?`,
      choices: ["keep", "remove"],
      onRemove: "backup-and-replace",
    });
  }
  if (looked.kind === "file" && looked.hash === manifestHash) return action(desired, "replace-file", `${file.artifact}: new version`, { evidence: "content matches bosun-manifest.json" });
  if (manifestHash === desiredHash) return action(desired, "keep-file", `${file.artifact}: your edits are kept (the pack did not change it)`);
  return action(desired, "backup-and-replace", `${file.artifact}: new version; your edited copy is backed up first`, { evidence: "listed in bosun-manifest.json; your edits differ from what bosun wrote" });
}

/** A file the pack no longer ships (or all of them, for an uninstall). */
function planRetire(rel: string, view: TreeView, origin: ActionOrigin, uninstall: boolean): Omit<PlannedAction, "index"> {
  const looked = view.look(rel);
  const manifestHash = view.manifest.files[rel] ?? null;
  const base = { origin, rel, originalHash: manifestHash, currentHash: looked.hash, classification: classifyInspection(manifestHash ?? undefined, looked), evidence: "listed in bosun-manifest.json for this pack" };
  const why = uninstall ? "uninstalled" : "no longer in the pack";
  if (looked.problem) return { ...base, type: "remove-managed", reason: why, blocked: looked.problem };
  if (looked.kind === "absent") {
    view.dropEntry(rel);
    return { ...base, type: "forget", reason: `${why} (already gone)` };
  }
  if (looked.kind === "dir" || looked.kind === "other") {
    view.dropEntry(rel);
    return { ...base, type: "forget", reason: `${why}; it is a ${looked.kind === "dir" ? "folder" : "special file"} now, left as it is` };
  }
  const pristine = looked.kind === "file" && looked.hash === manifestHash;
  view.remove(rel);
  return pristine ? { ...base, type: "remove-managed", reason: why } : { ...base, type: "backup-and-remove", requestedType: "remove-managed", reason: `${why}; your edited copy is backed up first` };
}

/**
 * The hash of a copy: the manifest's when the pack file's stat (and, for a rewritten one, what it
 * is rewritten with) is the one recorded at the last install, else the pack file's or the
 * rewritten bytes' (remembered by path and stat for the run, which plans twice).
 */
function desiredCopyHash(file: DesiredFile, manifest: Manifest, fs: InstallFs, hashes: Map<string, string>): string {
  const source = file.source;
  if (source.kind === "bytes") throw new Error("generated files carry their hash");
  const recorded = manifest.fileStats[file.rel]?.source;
  const hash = manifest.files[file.rel];
  const sourceKey = source.kind === "render" ? source.key : source.statKey;
  if (recorded !== undefined && recorded === sourceKey && hash !== undefined) return hash;
  const key = `${source.path}\0${sourceKey}`;
  let known = hashes.get(key);
  if (!known) hashes.set(key, (known = source.kind === "render" ? sha256(source.bytes()) : hashRegularFile(fs, source.path)));
  return known;
}

/**
 * The folders bosun created (recorded in the manifest) that hold nothing once this plan's
 * removals are done: every entry in them is gone, or a folder that is removed too and holds
 * nothing either. A folder with anything of yours in it, at any depth, stays.
 */
function createdDirsLeftEmpty(view: TreeView, root: InstallRoot, created: readonly string[], removing: ReadonlySet<string>): Set<string> {
  const candidates = new Set(created.filter((dir) => !removing.has(dir) && !isReservedPath(root, dir)));
  const known = new Map<string, boolean>();
  const leftEmpty = (dir: string): boolean => {
    let empty = known.get(dir);
    if (empty !== undefined) return empty;
    empty =
      view.look(dir).kind === "dir" &&
      view.list(dir).every((entry) => {
        const rel = `${dir}/${entry.name}`;
        const kind = view.look(rel).kind;
        return kind === "absent" || (kind === "dir" && (removing.has(rel) || candidates.has(rel)) && leftEmpty(rel));
      });
    known.set(dir, empty);
    return empty;
  };
  return new Set([...candidates].filter(leftEmpty));
}

function needsAnswer(action: Omit<PlannedAction, "index">): boolean {
  return action.type === "prompt-user" || action.type === "preserve-user";
}

function desiredDirs(paths: ReadonlySet<string>): Set<string> {
  const dirs = new Set<string>();
  for (const rel of paths) {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return dirs;
}

function cloneManifest(manifest: Manifest): Manifest {
  return {
    ...manifest,
    packs: Object.fromEntries(Object.entries(manifest.packs).map(([name, pack]) => [name, { ...pack, files: [...pack.files] }])),
    files: { ...manifest.files },
    config: manifest.config.map((entry) => ({ ...entry })),
    createdFiles: [...manifest.createdFiles],
    createdDirs: [...manifest.createdDirs],
    fileStats: { ...manifest.fileStats },
  };
}


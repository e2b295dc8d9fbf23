import type { Classification } from "./classify.js";
import type { DesiredFile } from "./desired.js";
import type { InstallState } from "../records/install-state.js";
import type { ConfigRecord, Manifest, ReadManifest, SettingRecord } from "../records/manifest.js";
import { DESTRUCTIVE_TYPES, type Choice, type MigrationActionType, type MigrationRecord } from "../records/migration-record.js";
import type { InstallRoot } from "../records/root.js";

/**
 * Every action a plan can hold: the migration actions, and what materializing the pack adds —
 * `write-file` (new), `replace-file` (bosun's unchanged file gets the new version),
 * `backup-and-replace` (your edited copy is backed up first), `keep-file` (nothing to do),
 * `adopt-file` (an identical file is already there: it becomes bosun's), `keep-deleted` (you
 * deleted a file bosun installed: it stays deleted) and `forget` (the manifest drops a path that
 * is gone).
 */
export type PlanActionType = MigrationActionType | "write-file" | "replace-file" | "backup-and-replace" | "keep-file" | "adopt-file" | "keep-deleted" | "forget";

/** The actions that change the disk: the destructive migration actions, and writing the pack's files. */
export const MUTATING_ACTIONS: ReadonlySet<PlanActionType> = new Set([...(DESTRUCTIVE_TYPES as ReadonlySet<PlanActionType>), "write-file", "replace-file", "backup-and-replace"]);

export type ActionOrigin = { kind: "migration"; id: string; source: string; title: string; checksum: string } | { kind: "pack"; name: string };

/** One planned action, with why bosun may do it. */
export interface PlannedAction {
  index: number;
  origin: ActionOrigin;
  type: PlanActionType;
  /** What the action was before a downgrade (remove-managed on an edited file → backup-and-remove). */
  requestedType?: string;
  /** The path (relative to the root); `succeed-pack`: the pack that leaves, and `toRel` the one taking its place. */
  rel: string;
  toRel?: string;
  classification: Classification;
  reason: string;
  evidence: string | null;
  /** The manifest's hash, and the current one. */
  originalHash: string | null;
  currentHash: string | null;
  /** Writes: the file, and its hash when it was needed to plan (else it is hashed while written). */
  desired?: DesiredFile;
  /** Config rewrites: the next text (null deletes the file) and the contract row. */
  text?: string | null;
  contract?: string;
  /** Needs your choice: the question, the answers, and what "remove" does. */
  prompt?: string;
  choices?: Choice[];
  onRemove?: "backup-and-remove" | "backup-and-replace" | "move-managed" | "backup-and-rewrite";
  /** A settings conflict: the entries bosun records when it is answered "remove" (plan-settings.ts). */
  settingRecords?: SettingRecord[];
  /** Set once answered (default keep). */
  resolution?: Choice;
  /** bosun will not do this and no answer changes that: what you must fix. */
  blocked?: string;
}

/** A migration that will be recorded as applied by this run. */
export interface PendingMigration {
  record: MigrationRecord;
  checksum: string;
  actions: number;
}

export interface ChecksumDrift {
  id: string;
  source: string;
  stored: string;
  current: string;
}

/** The whole plan for one root: the dry run prints it, the executor carries it out. */
export interface RootPlan {
  root: InstallRoot;
  /** `digest`: the pack folder's content digest, recorded in the manifest (absent for an uninstall); `succeeds`: the packs it takes the place of. */
  pack: { name: string; version: string; digest?: string; succeeds?: string[] };
  uninstall: boolean;
  actions: PlannedAction[];
  pending: PendingMigration[];
  drift: ChecksumDrift[];
  notes: string[];
  manifest: ReadManifest;
  /** The manifest as the migrations leave it (files moved, removed). */
  effective: Manifest;
  state: InstallState;
  stateText: string | null;
  /** An uninstall that keeps skill folders other runtimes read here: those files, and who they are kept for (`gemini global`). */
  held?: { files: string[]; for: string[] };
  /** The config entries and created files after this run (for the next manifest). */
  config: ConfigRecord[];
  createdFiles: string[];
  /** A settled root's plan (settled.ts): its pack files that are executable, as its stat walk found them. */
  settledExecutables?: ReadonlySet<string>;
}

export function needsChoice(action: PlannedAction): boolean {
  return action.blocked === undefined && (action.type === "prompt-user" || action.type === "preserve-user");
}

export function isBlocked(action: PlannedAction): boolean {
  return action.blocked !== undefined;
}

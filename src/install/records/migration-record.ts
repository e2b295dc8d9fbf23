import { UserError } from "../../kernel/errors.js";
import type { InstallLayout, InstallScope } from "../../runtimes/kit/install-types.js";
import type { Classification } from "../plan/classify.js";
import { sha256 } from "../apply/file-hash.js";
import type { InstallState } from "./install-state.js";
import type { Manifest } from "./manifest.js";
import { PACK_NAME } from "../pack/pack-names.js";
import { normalizeRelPath, UnsafePathError } from "../plan/safe-path.js";

/** The actions a migration's plan may return. */
export type MigrationActionType =
  | "remove-managed"
  | "backup-and-remove"
  | "remove-empty-dir"
  | "move-managed"
  | "rewrite-json"
  | "rewrite-toml"
  | "preserve-user"
  | "record-baseline"
  | "baseline-preserve-user"
  | "prompt-user"
  | "succeed-pack";

export const MIGRATION_ACTION_TYPES: readonly MigrationActionType[] = [
  "remove-managed",
  "backup-and-remove",
  "remove-empty-dir",
  "move-managed",
  "rewrite-json",
  "rewrite-toml",
  "preserve-user",
  "record-baseline",
  "baseline-preserve-user",
  "prompt-user",
  "succeed-pack",
];

/** Actions that change or remove something: each must say how bosun knows it is its own. */
export const DESTRUCTIVE_TYPES: ReadonlySet<string> = new Set(["remove-managed", "backup-and-remove", "remove-empty-dir", "move-managed", "rewrite-json", "rewrite-toml"]);

/** The answers a blocked action takes: keep yours, or remove (replace) it after a backup. */
export type Choice = "keep" | "remove";

/** One action as a migration's `plan` returns it. */
export interface MigrationAction {
  type: MigrationActionType;
  relPath: string;
  /** `move-managed`: where the file goes. */
  toRelPath?: string;
  reason?: string;
  /** How bosun knows the path is its own (required for destructive types). */
  ownershipEvidence?: string;
  /** A classification the record proves itself (e.g. content matching a shipped file). */
  classification?: Classification;
  /** `rewrite-json` / `rewrite-toml`: the file's next text; null deletes it. */
  text?: string | null;
  /** `rewrite-json` / `rewrite-toml`: the config contract row the edit follows. */
  contract?: string;
  /** `prompt-user`: the question and the answers it takes. */
  prompt?: string;
  choices?: Choice[];
  /** A line for the folder's report (what bosun leaves alone and where, say). */
  note?: string;
}

/** What a migration's `plan` sees. Every reader stays inside the root and never follows a symlink. */
export interface MigrationContext {
  runtime: string;
  scope: InstallScope;
  /** `main`, or the extra root's name (Codex's `agents-home`). */
  rootKey: string;
  /** The runtime's layout for this scope (where each artifact kind goes). */
  layout: InstallLayout;
  /**
   * The pack being installed (or uninstalled): the paths it will write in this root, and its
   * artifact names (a file named like one, that bosun has no record of, looks like a stale copy).
   */
  pack: { name: string; version: string; paths: ReadonlySet<string>; artifacts: ReadonlySet<string> };
  /** The manifest as earlier migrations of this run leave it. */
  manifest: Manifest;
  state: InstallState;
  now(): string;
  classify(relPath: string): Classification;
  /** SHA-256 of a file's bytes (a symlink: of its target text); null when absent or a folder. */
  hash(relPath: string): string | null;
  exists(relPath: string): boolean;
  readText(relPath: string): { exists: boolean; text: string | null; error: string | null };
  readJson(relPath: string): { exists: boolean; text: string | null; value: unknown; error: string | null };
  readToml(relPath: string): { exists: boolean; text: string | null; value: unknown; error: string | null };
  /** A folder's entries (a symlinked folder is listed as `symlink` and never entered). */
  list(relDir: string): { name: string; kind: "file" | "dir" | "symlink" | "other" }[];
  /** The pack that owns a path, per the manifest. */
  ownerOf(relPath: string): string | undefined;
  /** Where a pack's support files (`files/`) go in this root; null when they go to another of the runtime's roots. */
  supportDir(pack: string): string | null;
}

/**
 * A versioned change to an installed layout. `plan` is pure: it returns actions and never
 * touches the disk. Its checksum covers the declared fields and `data`, not compiled code.
 */
export interface MigrationRecord {
  id: string;
  title: string;
  description: string;
  introducedIn: string;
  /** Runtimes it applies to; omitted: all. */
  runtimes?: readonly string[];
  scopes: readonly InstallScope[];
  destructive: boolean;
  /** Config contract rows its rewrites follow (engine records). */
  runtimeContracts?: readonly string[];
  /** The data its plan works from (paths, names, hashes): part of the checksum. */
  data?: unknown;
  /** An explicit checksum, overriding the computed one. */
  checksum?: string;
  /** `engine`, or `pack:<name>` for a pack's migrations. */
  source: string;
  /**
   * Packs whose presence in a folder makes this migration run there again, though it ran there
   * before (a succession: the old pack may come back to a folder its successor has left). It is
   * derived from the record's data, so the checksum covers it.
   */
  whileInstalled?: readonly string[];
  plan(ctx: MigrationContext): MigrationAction[];
}

/** A migration record or action that breaks the authoring rules. */
export class MigrationAuthoringError extends UserError {
  override name = "MigrationAuthoringError";
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`migration ${where}: ${problem}`);
  }
}

/**
 * The authoring guardrails for a record: every required field present and well-typed, scopes
 * always explicit, runtimes either omitted or non-empty, contract rows real.
 */
export function validateMigrationRecord(record: unknown, where: string, contractExists: (row: string) => boolean): asserts record is MigrationRecord {
  if (typeof record !== "object" || record === null) throw new MigrationAuthoringError(where, "is not an object");
  const r = record as Record<string, unknown>;
  for (const field of ["id", "title", "description", "introducedIn", "source"]) {
    if (typeof r[field] !== "string" || (r[field] as string).trim() === "") throw new MigrationAuthoringError(where, `${field} must be a non-empty string`);
  }
  const label = `${where} (${String(r.id)})`;
  if (typeof r.destructive !== "boolean") throw new MigrationAuthoringError(label, "destructive must be true or false");
  if (!Array.isArray(r.scopes) || r.scopes.length === 0 || r.scopes.some((scope) => scope !== "global" && scope !== "local")) {
    throw new MigrationAuthoringError(label, "scopes must list global and/or local explicitly");
  }
  if (r.runtimes !== undefined && (!Array.isArray(r.runtimes) || r.runtimes.length === 0 || r.runtimes.some((id) => typeof id !== "string" || id === ""))) {
    throw new MigrationAuthoringError(label, "runtimes must be a non-empty list of runtime ids, or left out for all runtimes ([] is refused)");
  }
  if (typeof r.plan !== "function") throw new MigrationAuthoringError(label, "plan must be a function");
  if (r.runtimeContracts !== undefined) {
    if (!Array.isArray(r.runtimeContracts) || r.runtimeContracts.length === 0) throw new MigrationAuthoringError(label, "runtimeContracts must be a non-empty list of contract rows");
    for (const row of r.runtimeContracts) if (typeof row !== "string" || !contractExists(row)) throw new MigrationAuthoringError(label, `runtimeContracts names ${JSON.stringify(row)}, which is not a row of the config contract registry`);
  }
  if (r.checksum !== undefined && (typeof r.checksum !== "string" || r.checksum === "")) throw new MigrationAuthoringError(label, "checksum, when given, must be a non-empty string");
  if (r.whileInstalled !== undefined && (!Array.isArray(r.whileInstalled) || r.whileInstalled.some((name) => typeof name !== "string" || name === ""))) {
    throw new MigrationAuthoringError(label, "whileInstalled must be a list of pack names");
  }
}

/**
 * The guardrails for a plan's actions: known types, safe relative paths, ownership evidence on
 * every destructive action, a contract row on every config rewrite, and no destructive action
 * from a record that says it is not destructive.
 */
export function validateMigrationActions(actions: unknown, record: MigrationRecord, runtime: string, contractExists: (row: string) => boolean): MigrationAction[] {
  const where = `${record.source} ${record.id}`;
  if (!Array.isArray(actions)) throw new MigrationAuthoringError(where, "plan must return an array of actions");
  return actions.map((action, index) => {
    const at = `${where} action ${index}`;
    if (typeof action !== "object" || action === null) throw new MigrationAuthoringError(at, "is not an object");
    const a = action as Record<string, unknown>;
    if (typeof a.type !== "string" || !(MIGRATION_ACTION_TYPES as readonly string[]).includes(a.type)) throw new MigrationAuthoringError(at, `unsupported migration action type: ${String(a.type)}`);
    const type = a.type as MigrationActionType;
    const relPath = safePath(a.relPath, at);
    const checked: MigrationAction = { ...(a as object), type, relPath } as MigrationAction;
    if (DESTRUCTIVE_TYPES.has(type)) {
      if (typeof a.ownershipEvidence !== "string" || a.ownershipEvidence.trim() === "") throw new MigrationAuthoringError(at, `${type} needs ownershipEvidence: how bosun knows ${relPath} is its own`);
      if (!record.destructive) throw new MigrationAuthoringError(at, `the record says destructive: false but plans ${type}`);
    }
    if (type === "move-managed") checked.toRelPath = safePath(a.toRelPath, `${at} toRelPath`);
    if (type === "succeed-pack") {
      // Not a path: the pack that leaves (relPath) and the one that takes its place (toRelPath).
      if (!PACK_NAME.test(relPath) || typeof a.toRelPath !== "string" || !PACK_NAME.test(a.toRelPath) || a.toRelPath === relPath) throw new MigrationAuthoringError(at, "succeed-pack names the pack that leaves (relPath) and another that takes its place (toRelPath)");
      if (typeof a.ownershipEvidence !== "string" || a.ownershipEvidence.trim() === "") throw new MigrationAuthoringError(at, `succeed-pack needs ownershipEvidence: how bosun knows pack ${relPath} is installed here`);
    }
    if (a.note !== undefined && (typeof a.note !== "string" || a.note.trim() === "")) throw new MigrationAuthoringError(at, "note, when given, must be a non-empty line");
    if (type === "rewrite-json" || type === "rewrite-toml") {
      if (a.text !== null && typeof a.text !== "string") throw new MigrationAuthoringError(at, `${type} needs text: the file's next content (null deletes it)`);
      if (typeof a.contract !== "string" || !contractExists(a.contract)) throw new MigrationAuthoringError(at, `${type} must name its row of the config contract registry (contract), e.g. "${runtime}.hooks"`);
      if (!a.contract.startsWith(`${runtime}.`)) throw new MigrationAuthoringError(at, `contract ${a.contract} is not a row of ${runtime}`);
      if (record.runtimeContracts && !record.runtimeContracts.includes(a.contract)) throw new MigrationAuthoringError(at, `contract ${a.contract} is not in the record's runtimeContracts`);
    }
    if (type === "prompt-user") {
      if (!Array.isArray(a.choices) || a.choices.length === 0 || a.choices.some((choice) => choice !== "keep" && choice !== "remove") || !a.choices.includes("keep")) {
        throw new MigrationAuthoringError(at, "prompt-user needs choices: keep (the default) and optionally remove");
      }
    }
    return checked;
  });
}

function safePath(value: unknown, where: string): string {
  try {
    return normalizeRelPath(value, where);
  } catch (error) {
    if (error instanceof UnsafePathError) throw new MigrationAuthoringError(where, `${error.problem} (${JSON.stringify(String(value).slice(0, 80))})`);
    throw error;
  }
}

/**
 * `sha256:<hex>` over the record's declared fields and data (keys sorted), never over code: a
 * rebuild or a refactor of `plan` does not change it, editing what a shipped record does does.
 */
export function migrationChecksum(record: MigrationRecord): string {
  if (record.checksum) return record.checksum;
  const declared = {
    id: record.id,
    title: record.title,
    description: record.description,
    introducedIn: record.introducedIn,
    runtimes: record.runtimes ?? null,
    scopes: record.scopes,
    destructive: record.destructive,
    runtimeContracts: record.runtimeContracts ?? null,
    data: record.data ?? null,
  };
  return `sha256:${sha256(canonicalJson(declared))}`;
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Does a record apply to this runtime and scope? */
export function recordApplies(record: MigrationRecord, runtime: string, scope: InstallScope): boolean {
  return (record.runtimes === undefined || record.runtimes.includes(runtime)) && record.scopes.includes(scope);
}

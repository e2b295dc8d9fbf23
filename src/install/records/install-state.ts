import { UserError } from "../../kernel/errors.js";
import { NotRegularFileError } from "../../kernel/fs/regular-file.js";
import { errorCode, readFileText, type InstallFs } from "../apply/install-fs.js";
import { isRecord } from "./manifest.js";

export const STATE_SCHEMA_VERSION = 1;

/** One migration applied in this root. `source` is `engine` or `pack:<name>`. */
export interface AppliedMigration {
  id: string;
  source: string;
  /** `sha256:<hex>` over the record's declared data. */
  checksum: string | null;
  appliedAt: string;
  /** The run's journal (relative to the root), or null when the migration changed nothing. */
  journal: string | null;
}

/** `bosun-install-state.json`: the installer migrations applied in this root. */
export interface InstallState {
  schemaVersion: number;
  appliedMigrations: AppliedMigration[];
  /** What the last run that changed the root recorded for a reinstall (settled.ts reads it; anything else ignores it). */
  settled?: unknown;
}

/** The install state cannot be trusted: bosun stops rather than re-run or skip migrations blindly. */
export class InstallStateError extends UserError {
  override name = "InstallStateError";
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}; fix the file or move it away (bosun then treats the folder as a first install and keeps every file it does not own)`);
  }
}

export function emptyInstallState(): InstallState {
  return { schemaVersion: STATE_SCHEMA_VERSION, appliedMigrations: [] };
}

/**
 * Reads the install state strictly: a missing file is an empty state; anything present that is
 * not exactly the documented shape is an error naming the file (install fails closed). A newer
 * schema is refused: its meaning is unknown to this bosun.
 */
export function readInstallState(fs: InstallFs, path: string): { state: InstallState; text: string | null } {
  let text: string | null;
  try {
    text = readFileText(fs, path);
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new InstallStateError(path, `is a ${error.kind}, not a regular file`);
    throw new InstallStateError(path, `cannot be read (${errorCode(error) ?? String(error)})`);
  }
  return text === null ? { state: emptyInstallState(), text: null } : { state: parseInstallState(path, text), text };
}

export function parseInstallState(path: string, text: string): InstallState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InstallStateError(path, `invalid installer migration state JSON (${(error as Error).message})`);
  }
  if (!isRecord(raw)) throw new InstallStateError(path, "is not a JSON object");
  const version = raw.schemaVersion;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) throw new InstallStateError(path, "schemaVersion must be a positive integer");
  if (version > STATE_SCHEMA_VERSION) throw new InstallStateError(path, `was written by a newer bosun (schema ${version}); upgrade bosun to install here`);
  if (!Array.isArray(raw.appliedMigrations)) throw new InstallStateError(path, "appliedMigrations must be an array");
  const applied: AppliedMigration[] = raw.appliedMigrations.map((entry, index) => {
    const where = `appliedMigrations[${index}]`;
    if (!isRecord(entry)) throw new InstallStateError(path, `${where} is not an object`);
    if (typeof entry.id !== "string" || entry.id === "") throw new InstallStateError(path, `${where}.id must be a non-empty string`);
    if (typeof entry.source !== "string" || entry.source === "") throw new InstallStateError(path, `${where}.source must be a non-empty string`);
    if (entry.checksum !== null && typeof entry.checksum !== "string") throw new InstallStateError(path, `${where}.checksum must be a string or null`);
    if (typeof entry.appliedAt !== "string") throw new InstallStateError(path, `${where}.appliedAt must be a string`);
    if (entry.journal !== null && typeof entry.journal !== "string") throw new InstallStateError(path, `${where}.journal must be a string or null`);
    return { id: entry.id, source: entry.source, checksum: entry.checksum as string | null, appliedAt: entry.appliedAt, journal: entry.journal as string | null };
  });
  return { schemaVersion: version, appliedMigrations: applied, ...(raw.settled === undefined ? {} : { settled: raw.settled }) };
}

export function serializeInstallState(state: InstallState): string {
  const text = JSON.stringify({ schemaVersion: STATE_SCHEMA_VERSION, appliedMigrations: state.appliedMigrations }, null, 2);
  // The settled record (thousands of stat keys) goes on one line.
  return (state.settled === undefined ? text : `${text.slice(0, -2)},\n  "settled": ${JSON.stringify(state.settled)}\n}`) + "\n";
}

/** The applied entry for a record (the first one wins when an id appears twice). */
export function findApplied(state: InstallState, source: string, id: string): AppliedMigration | undefined {
  return state.appliedMigrations.find((entry) => entry.source === source && entry.id === id);
}

import { NotRegularFileError } from "../../kernel/fs/regular-file.js";
import { errorCode, readFileText, type InstallFs } from "../apply/install-fs.js";
import { ARTIFACT_NAME, PACK_NAME, SEMVER } from "../pack/pack-names.js";
import { normalizeRelPath } from "../plan/safe-path.js";

export const MANIFEST_SCHEMA_VERSION = 1;
const PACK_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** One pack installed in a root. */
export interface PackRecord {
  version: string;
  installedAt: string;
  updatedAt: string;
  /** The files this pack owns (keys of `files`). */
  files: string[];
  /** The content digest of the pack folder it was installed from (`sha256:…`, see lock/pack-digest.ts); absent before bosun recorded it. */
  digest?: string;
  /**
   * The pack was uninstalled from this root, but these skill folders stay: the runtimes named
   * (`gemini global`…) read them here and have no copy of their own (shared-folders.ts).
   */
  heldFor?: string[];
  /**
   * The packs this one takes the place of (its `succeed-pack` migrations): while it is installed
   * here, installing one of them is refused (migrations/succeed-pack.ts).
   */
  succeeds?: string[];
}

/** An entry bosun added to a runtime's config file, recorded so it can remove exactly that. */
export interface HookEntryRecord {
  kind: "hook";
  pack: string;
  hook: string;
  file: string;
  event: string;
  command: string;
  /** How many parts of the event's path bosun created (removed again when left empty). */
  created?: number;
  /** What the container bosun added to held between its brackets while empty (`{⏎}`), put back on removal. */
  emptyInner?: string;
}

/** bosun's marked block in a TOML config (shared by every pack in the root). */
export interface TomlBlockRecord {
  kind: "toml-block";
  file: string;
}

/**
 * A settings edit bosun made for a pack's `settings`: an entry it added to a list, or a value it
 * set, exactly as written (uninstall removes that and nothing else).
 */
export interface SettingRecord {
  kind: "setting";
  pack: string;
  file: string;
  /** The key's path in the file (`["permissions", "allow"]`, `["statusLine"]`, `["env", "NAME"]`). */
  path: string[];
  mode: "entry" | "value";
  value: unknown;
  /** How many containers bosun created for it (removed again when left empty). */
  created?: number;
}

export type ConfigRecord = HookEntryRecord | TomlBlockRecord | SettingRecord;

/**
 * What bosun knows about a file it wrote, to skip re-hashing when nothing changed:
 * `installed` is the file's stat (size, ctime, mtime, inode) right after bosun wrote it, and
 * `source` the stat of the pack file it was copied from (verbatim copies only).
 */
export interface FileStatRecord {
  installed?: string;
  source?: string;
}

/**
 * `bosun-manifest.json`: which files in this root bosun owns (relative path → SHA-256 of the
 * bytes it wrote), per pack, and which config entries it added.
 */
export interface Manifest {
  schemaVersion: number;
  bosunVersion: string | null;
  runtime: string | null;
  scope: string | null;
  updatedAt: string | null;
  packs: Record<string, PackRecord>;
  files: Record<string, string>;
  config: ConfigRecord[];
  /** Config files bosun created; deleted again when nothing but bosun's entries was ever in them. */
  createdFiles: string[];
  /** Folders in the root bosun created (none of them was there before); an uninstall removes those it leaves empty. */
  createdDirs: string[];
  /**
   * How many folders bosun created to make the root: 0 none (it was there), 1 the root itself,
   * 2 the root and its parent… The last uninstall removes them once empty.
   */
  createdRoot: number;
  fileStats: Record<string, FileStatRecord>;
}

/** A manifest as read, with what was wrong with it (read leniently: a bad manifest owns nothing). */
export interface ReadManifest {
  manifest: Manifest;
  found: boolean;
  /** The exact bytes read (null when absent): a no-op run compares against them. */
  text: string | null;
  problems: string[];
  /** Written by a newer bosun: reported, read as far as understood. */
  newer: boolean;
  /** What is where the manifest goes instead (a folder, a FIFO…): bosun can neither read nor replace it. */
  notAFile?: string;
}

/** The record of pack `name` when it is installed in this folder for its own runtime (not only held here for others). */
export function installedHere(manifest: Manifest, name: string): PackRecord | null {
  const record = manifest.packs[name];
  return record && !record.heldFor ? record : null;
}

export function emptyManifest(): Manifest {
  return { schemaVersion: MANIFEST_SCHEMA_VERSION, bosunVersion: null, runtime: null, scope: null, updatedAt: null, packs: {}, files: {}, config: [], createdFiles: [], createdDirs: [], createdRoot: 0, fileStats: {} };
}

const HEX64 = /^[0-9a-f]{64}$/;
/** A runtime's id, and the name it gives a hook event (`SessionStart`, `pre_user_prompt`…). */
const RUNTIME_ID = /^[a-z][a-z0-9-]{0,31}$/;
const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** A runtime and scope a held pack is kept for (`gemini global`). */
const HELD_FOR = /^[a-z][a-z0-9-]{0,31} (global|local)$/;
/** More folders than any runtime's root is deep below the home folder: a larger number is not bosun's. */
const MAX_CREATED_ROOT = 8;

/**
 * Reads a manifest leniently: missing, unparsable or non-object means "bosun owns nothing here"
 * (every file classifies as unknown, so nothing is removed); entries that are not well-formed,
 * whose path is unsafe, or whose names break the pack rules (they are printed: a name or version
 * with a newline or a terminal escape is not one bosun wrote), are dropped and reported. An older schema is read as is; a newer one
 * is reported, not rejected.
 */
export function readManifest(fs: InstallFs, path: string): ReadManifest {
  let text: string | null;
  try {
    text = readFileText(fs, path);
  } catch (error) {
    const unread = { manifest: emptyManifest(), found: true, text: null, newer: false };
    if (error instanceof NotRegularFileError) return { ...unread, problems: [`is a ${error.kind}, not a file; treated as owning nothing`], notAFile: error.kind };
    return { ...unread, problems: [`cannot be read (${errorCode(error) ?? "error"}); treated as owning nothing`] };
  }
  return text === null ? { manifest: emptyManifest(), found: false, text: null, problems: [], newer: false } : parseManifest(text);
}

export function parseManifest(text: string): ReadManifest {
  const problems: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { manifest: emptyManifest(), found: true, text, problems: ["is not valid JSON; treated as owning nothing"], newer: false };
  }
  if (!isRecord(raw)) return { manifest: emptyManifest(), found: true, text, problems: ["is not a JSON object; treated as owning nothing"], newer: false };
  const manifest = emptyManifest();
  const version = raw.schemaVersion;
  manifest.schemaVersion = typeof version === "number" && Number.isInteger(version) && version >= 1 ? version : 1;
  const newer = manifest.schemaVersion > MANIFEST_SCHEMA_VERSION;
  if (newer) problems.push(`was written by a newer bosun (schema ${manifest.schemaVersion}); read as far as this version understands it`);
  manifest.bosunVersion = shortString(raw.bosunVersion);
  manifest.runtime = typeof raw.runtime === "string" && RUNTIME_ID.test(raw.runtime) ? raw.runtime : null;
  manifest.scope = shortString(raw.scope);
  manifest.updatedAt = shortString(raw.updatedAt);

  if (isRecord(raw.files)) {
    const files = raw.files;
    for (const key in files) {
      const hash = files[key];
      const rel = safeRel(key);
      if (rel === null || typeof hash !== "string" || !HEX64.test(hash)) {
        problems.push(`entry ${JSON.stringify(key.slice(0, 80))} is not valid; ignored`);
        continue;
      }
      manifest.files[rel] = hash;
    }
  }
  if (isRecord(raw.packs)) {
    for (const [name, value] of Object.entries(raw.packs)) {
      if (!PACK_NAME.test(name) || !isRecord(value) || typeof value.version !== "string" || !SEMVER.test(value.version)) {
        problems.push(`pack ${JSON.stringify(name.slice(0, 60))} is not valid; ignored`);
        continue;
      }
      const files = Array.isArray(value.files) ? value.files.map((rel: unknown) => ownedRel(manifest.files, rel)).filter((rel): rel is string => rel !== null) : [];
      const heldFor = Array.isArray(value.heldFor) ? value.heldFor.filter((entry: unknown): entry is string => typeof entry === "string" && HELD_FOR.test(entry)) : [];
      const digest = typeof value.digest === "string" && PACK_DIGEST.test(value.digest) ? { digest: value.digest } : {};
      const succeeds = Array.isArray(value.succeeds) ? [...new Set(value.succeeds.filter((entry: unknown): entry is string => typeof entry === "string" && PACK_NAME.test(entry) && entry !== name))].sort() : [];
      manifest.packs[name] = { version: value.version, installedAt: shortString(value.installedAt) ?? "", updatedAt: shortString(value.updatedAt) ?? "", files, ...digest, ...(heldFor.length > 0 ? { heldFor } : {}), ...(succeeds.length > 0 ? { succeeds } : {}) };
    }
  }
  if (Array.isArray(raw.config)) {
    for (const entry of raw.config) {
      const record = configRecord(entry);
      if (record) manifest.config.push(record);
      else problems.push("a config entry is not valid; ignored");
    }
  }
  if (Array.isArray(raw.createdFiles)) manifest.createdFiles = raw.createdFiles.map(safeRel).filter((rel): rel is string => rel !== null);
  // An older manifest has neither: bosun then knows of no folder it made, and removes none.
  if (Array.isArray(raw.createdDirs)) manifest.createdDirs = [...new Set(raw.createdDirs.map(safeRel).filter((rel): rel is string => rel !== null))];
  if (Number.isInteger(raw.createdRoot) && (raw.createdRoot as number) > 0) manifest.createdRoot = Math.min(raw.createdRoot as number, MAX_CREATED_ROOT);
  if (isRecord(raw.fileStats)) {
    const stats = raw.fileStats;
    for (const key in stats) {
      const value = stats[key];
      const rel = ownedRel(manifest.files, key);
      if (rel === null || !isRecord(value)) continue;
      const stat: FileStatRecord = {};
      if (typeof value.installed === "string") stat.installed = value.installed;
      if (typeof value.source === "string") stat.source = value.source;
      manifest.fileStats[rel] = stat;
    }
  }
  return { manifest, found: true, text, problems, newer };
}

/** A path `files` lists (each of its keys is already a safe path), else null. */
function ownedRel(files: Record<string, string>, value: unknown): string | null {
  if (typeof value === "string" && Object.hasOwn(files, value)) return value;
  const rel = safeRel(value);
  return rel !== null && Object.hasOwn(files, rel) ? rel : null;
}

/** The manifest as bosun writes it: stable key order, two-space JSON, a final newline. */
export function serializeManifest(manifest: Manifest): string {
  const sortedKeys = <T>(record: Record<string, T>): Record<string, T> => {
    const keys = Object.keys(record);
    // Usually already in order (a run adds files in path order): then there is nothing to sort.
    return isSorted(keys) ? record : Object.fromEntries(keys.sort().map((key) => [key, record[key] as T]));
  };
  const packs = Object.fromEntries(
    Object.keys(manifest.packs)
      .sort()
      .map((name) => {
        const pack = manifest.packs[name] as PackRecord;
        return [name, { ...pack, files: [...pack.files].sort() }];
      }),
  );
  const body = {
    schemaVersion: MANIFEST_SCHEMA_VERSION,
    bosunVersion: manifest.bosunVersion,
    runtime: manifest.runtime,
    scope: manifest.scope,
    updatedAt: manifest.updatedAt,
    packs,
    files: sortedKeys(manifest.files),
    config: manifest.config,
    createdFiles: [...manifest.createdFiles].sort(),
    createdDirs: [...manifest.createdDirs].sort(),
    createdRoot: manifest.createdRoot,
    fileStats: sortedKeys(manifest.fileStats),
  };
  return JSON.stringify(body, null, 2) + "\n";
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

function configRecord(value: unknown): ConfigRecord | null {
  if (!isRecord(value) || typeof value.file !== "string" || safeRel(value.file) === null) return null;
  if (value.kind === "toml-block") return { kind: "toml-block", file: value.file };
  if (value.kind === "setting") return settingRecord(value, value.file);
  if (value.kind === "hook" && isName(value.pack, PACK_NAME) && isName(value.hook, ARTIFACT_NAME) && isName(value.event, EVENT_NAME) && typeof value.command === "string") {
    const created = typeof value.created === "number" && Number.isInteger(value.created) && value.created >= 0 ? { created: value.created } : {};
    const emptyInner = typeof value.emptyInner === "string" && value.emptyInner.trim() === "" ? { emptyInner: value.emptyInner } : {};
    return { kind: "hook", pack: value.pack, hook: value.hook, file: value.file, event: value.event, command: value.command, ...created, ...emptyInner };
  }
  return null;
}

/** A setting record as written: a path of 1-4 keys, an entry or a value, no more than bosun writes. */
function settingRecord(value: Record<string, unknown>, file: string): SettingRecord | null {
  const path = value.path;
  if (!isName(value.pack, PACK_NAME) || !Array.isArray(path) || path.length === 0 || path.length > 4 || !path.every((key) => typeof key === "string" && key.length > 0 && key.length <= 128)) return null;
  if ((value.mode !== "entry" && value.mode !== "value") || value.value === undefined || JSON.stringify(value.value).length > 8192) return null;
  const created = typeof value.created === "number" && Number.isInteger(value.created) && value.created >= 0 && value.created <= path.length ? { created: value.created } : {};
  return { kind: "setting", pack: value.pack, file, path: path as string[], mode: value.mode, value: value.value, ...created };
}

function safeRel(value: unknown): string | null {
  try {
    return normalizeRelPath(value, "manifest");
  } catch {
    return null;
  }
}

function isName(value: unknown, rule: RegExp): value is string {
  return typeof value === "string" && rule.test(value);
}

function shortString(value: unknown): string | null {
  return typeof value === "string" ? value.slice(0, 200) : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

import { INSTALL_SCOPES, type InstallScope } from "../../runtimes/kit/install-types.js";
import { PACK_NAME, SEMVER } from "../pack/pack-names.js";
import { byBytes } from "./pack-digest.js";
import { LockFileError } from "./lock-errors.js";

/** The lock's file name, at the project's root. */
export const LOCK_FILE_NAME = "bosun.lock";
/** The newest lock format this bosun reads and the one it writes. */
export const LOCK_VERSION = 1;

/** A pack the lock pins: its version and the digest of its files. */
export interface LockedPack {
  name: string;
  version: string;
  digest: string;
  /** Digest per top-level entry of the pack (12 hex digits), to say where a pack changed. */
  parts: Record<string, string>;
}

/** One pack installed into one runtime and scope. */
export interface LockedInstall {
  runtime: string;
  scope: InstallScope;
  pack: string;
}

/** `bosun.lock`: the packs and where each is installed. */
export interface Lock {
  packs: LockedPack[];
  installs: LockedInstall[];
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const PART_DIGEST = /^[0-9a-f]{12}$/;
const RUNTIME_ID = /^[a-z][a-z0-9-]{0,31}$/;
const MAX_LINES = 10_000;

/**
 * The lock as bosun writes it: one JSON object per line, so that two branches that add different
 * packs or installs change different lines (and `merge=union` takes both): the format line, then
 * the packs by name, then the installs by runtime, scope and pack; a final newline. The same lock
 * always gives the same bytes.
 */
export function serializeLock(lock: Lock): string {
  const lines = [JSON.stringify({ lockVersion: LOCK_VERSION })];
  for (const pack of [...lock.packs].sort((a, b) => byBytes(a.name, b.name))) {
    const parts = Object.fromEntries(Object.keys(pack.parts).sort(byBytes).map((key) => [key, pack.parts[key]]));
    lines.push(JSON.stringify({ pack: pack.name, version: pack.version, digest: pack.digest, parts }));
  }
  for (const install of [...lock.installs].sort(compareInstalls)) lines.push(JSON.stringify({ install: install.runtime, scope: install.scope, pack: install.pack }));
  return `${lines.join("\n")}\n`;
}

function compareInstalls(a: LockedInstall, b: LockedInstall): number {
  return byBytes(a.runtime, b.runtime) || byBytes(a.scope, b.scope) || byBytes(a.pack, b.pack);
}

/**
 * Reads a lock strictly: any line that is not one of the three record kinds, a field of the
 * wrong type, a `lockVersion` newer than this bosun's, a pack or install listed twice (what a
 * `merge=union` of two branches that changed the same pack leaves), or an install of a pack the
 * lock does not pin is a `LockFileError` naming the file, line and field.
 */
export function parseLock(text: string, file: string): Lock {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length > MAX_LINES) throw new LockFileError(file, null, null, `has ${lines.length} lines, more than a lock ever holds (${MAX_LINES})`);
  failIfNewer(lines, file);
  let version: number | null = null;
  const packs = new Map<string, { pack: LockedPack; line: number }>();
  const installs = new Map<string, { install: LockedInstall; line: number }>();
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const record = parseLine(raw.replace(/\r$/, ""), file, line);
    if (record === null) continue;
    if ("lockVersion" in record) {
      const value = record.lockVersion;
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new LockFileError(file, line, "lockVersion", "must be a whole number from 1");
      if (version !== null) throw new LockFileError(file, line, "lockVersion", "is given twice (a merge kept both sides?); keep one line");
      version = value;
    } else if ("pack" in record && !("install" in record)) {
      const pack = lockedPack(record, file, line);
      const earlier = packs.get(pack.name);
      if (earlier) throw new LockFileError(file, line, "pack", `${pack.name} is listed twice (also line ${earlier.line}; a merge kept both sides); keep the one you want, or run bosun install again to write it`);
      packs.set(pack.name, { pack, line });
    } else if ("install" in record) {
      const install = lockedInstall(record, file, line);
      const key = `${install.runtime} ${install.scope} ${install.pack}`;
      if (installs.has(key)) throw new LockFileError(file, line, "install", `${key} is listed twice (also line ${installs.get(key)?.line}); delete one`);
      installs.set(key, { install, line });
    } else throw new LockFileError(file, line, null, `is not a record bosun writes (expected "lockVersion", "pack" or "install")`);
  }
  if (version === null) throw new LockFileError(file, null, "lockVersion", "is missing (no {\"lockVersion\": 1} line), so this is not a lock bosun wrote; restore it from git, or delete it and run bosun install to write it again");
  for (const { install, line } of installs.values()) {
    if (!packs.has(install.pack)) throw new LockFileError(file, line, "pack", `${install.pack} has no pack line in the lock; run bosun install again to write it`);
  }
  return { packs: [...packs.values()].map(({ pack }) => pack), installs: [...installs.values()].map(({ install }) => install) };
}

/** A lock from a newer bosun is named as that before any of its lines is judged (they may be new kinds). */
function failIfNewer(lines: readonly string[], file: string): void {
  for (const [index, text] of lines.entries()) {
    if (!text.includes("lockVersion")) continue;
    try {
      const value = (JSON.parse(text) as { lockVersion?: unknown }).lockVersion;
      if (typeof value === "number" && value > LOCK_VERSION) throw new LockFileError(file, index + 1, "lockVersion", `is ${value}, from a newer bosun (this one reads lockVersion ${LOCK_VERSION}); upgrade bosun`);
    } catch (error) {
      if (error instanceof LockFileError) throw error;
    }
  }
}

function parseLine(text: string, file: string, line: number): Record<string, unknown> | null {
  if (text.trim() === "") return null;
  if (/^(<<<<<<<|=======|>>>>>>>)/.test(text)) throw new LockFileError(file, line, null, "has a git merge conflict marker; bosun.lock merges line by line: keep the lines of both sides (duplicates of one pack: the one you want), or add `bosun.lock merge=union` to .gitattributes");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LockFileError(file, line, null, "is not a JSON object on one line; restore the file from git, or delete it and run bosun install to write it again");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new LockFileError(file, line, null, "is not a JSON object");
  return value as Record<string, unknown>;
}

function lockedPack(record: Record<string, unknown>, file: string, line: number): LockedPack {
  onlyKeys(record, ["pack", "version", "digest", "parts"], file, line);
  const name = field(record, "pack", file, line, (value) => PACK_NAME.test(value), "a pack name");
  const version = field(record, "version", file, line, (value) => SEMVER.test(value), "a semantic version");
  const digest = field(record, "digest", file, line, (value) => DIGEST.test(value), "sha256: and 64 hex digits");
  const parts = record.parts;
  if (typeof parts !== "object" || parts === null || Array.isArray(parts)) throw new LockFileError(file, line, "parts", "must be an object");
  for (const [key, value] of Object.entries(parts)) {
    if (typeof value !== "string" || !PART_DIGEST.test(value) || key === "" || key.includes("/")) throw new LockFileError(file, line, `parts.${key.slice(0, 40)}`, "must be 12 hex digits, under a top-level name of the pack");
  }
  return { name, version, digest, parts: parts as Record<string, string> };
}

function lockedInstall(record: Record<string, unknown>, file: string, line: number): LockedInstall {
  onlyKeys(record, ["install", "scope", "pack"], file, line);
  const runtime = field(record, "install", file, line, (value) => RUNTIME_ID.test(value), "a runtime id");
  const scope = field(record, "scope", file, line, (value) => (INSTALL_SCOPES as readonly string[]).includes(value), "global or local") as InstallScope;
  const pack = field(record, "pack", file, line, (value) => PACK_NAME.test(value), "a pack name");
  return { runtime, scope, pack };
}

function field(record: Record<string, unknown>, key: string, file: string, line: number, valid: (value: string) => boolean, what: string): string {
  const value = record[key];
  if (typeof value !== "string") throw new LockFileError(file, line, key, `must be a string (${what})${value === undefined ? ", and is missing" : ""}`);
  if (!valid(value)) throw new LockFileError(file, line, key, `must be ${what}, not ${JSON.stringify(value.slice(0, 60))}`);
  return value;
}

function onlyKeys(record: Record<string, unknown>, keys: readonly string[], file: string, line: number): void {
  const unknown = Object.keys(record).find((key) => !keys.includes(key));
  if (unknown !== undefined) throw new LockFileError(file, line, unknown.slice(0, 40), `is not a field of this record (it has ${keys.join(", ")})`);
}

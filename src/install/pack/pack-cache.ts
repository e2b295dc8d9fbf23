import * as nodeFs from "node:fs";
import { join } from "node:path";
import { sha256 } from "../file-hash.js";
import { isRecord } from "../manifest.js";

/** Where the caches of parsed packs live, under bosun's cache folder: one file per pack folder. */
export const PACK_CACHE_DIR = "pack-artifacts";
export const PACK_CACHE_FORMAT = "bosun-pack-cache";
/** Raised when the shape of a cached value changes: an older cache is then rebuilt. */
export const PACK_CACHE_VERSION = 1;
/** A cache larger than this is not read (it is rebuilt). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The parsed artifacts of one pack folder (checked frontmatter, compiled templates), each kept
 * under the stat key (`size:ctime:mtime:inode`) its file had when it was read, so a reinstall after
 * one file of the pack changed parses and checks only that file. A value is used only when the
 * cache file is bosun's format and version, was written by this version of bosun for this pack
 * folder, its digest matches its entries (a truncated or edited cache is no cache), and the
 * entry's kind and stat key are the ones asked for; anything else is parsed again.
 */
export interface PackCache {
  /** The value cached for `rel` under this kind and stat key, else `parse()` (kept for next time). */
  get<T>(rel: string, kind: string, key: string, parse: () => T): T;
  /** Writes the cache back when this load changed it: only the entries this load used. */
  save(): void;
  /** What this load found: a cached value used, or parsed. */
  readonly counts: { hits: number; misses: number };
}

interface Entry {
  kind: string;
  key: string;
  value: unknown;
}

type CacheFs = Pick<typeof nodeFs, "readFileSync" | "writeFileSync" | "renameSync" | "mkdirSync" | "unlinkSync" | "lstatSync">;

/** The cache file of one pack folder (by a digest of its absolute path). */
export function packCachePath(cacheDir: string, packDir: string): string {
  return join(cacheDir, PACK_CACHE_DIR, `${sha256(packDir).slice(0, 32)}.json`);
}

/** Opens the cache of `packDir` in bosun's cache folder; a missing, corrupt or foreign cache starts empty. */
export function openPackCache(cacheDir: string, packDir: string, bosunVersion: string, fs: CacheFs = nodeFs): PackCache {
  const file = packCachePath(cacheDir, packDir);
  const stored = readEntries(fs, file, packDir, bosunVersion);
  const used = new Map<string, Entry>();
  const counts = { hits: 0, misses: 0 };
  let changed = false;
  return {
    counts,
    get<T>(rel: string, kind: string, key: string, parse: () => T): T {
      const entry = stored.get(rel);
      if (entry && entry.kind === kind && entry.key === key) {
        counts.hits++;
        used.set(rel, entry);
        // A copy: what the caller does with the value never reaches the file written back.
        return structuredClone(entry.value) as T;
      }
      counts.misses++;
      const value = parse();
      changed = true;
      // An edit within the same whole second as this read would keep the key: not a proof yet.
      if (keyIsProof(key)) used.set(rel, { kind, key, value: structuredClone(value) });
      return value;
    },
    save() {
      if (!changed && used.size === stored.size) return;
      writeEntries(fs, file, packDir, bosunVersion, used);
    },
  };
}

/** The entries of a cache file, when it is one this bosun wrote for this pack; else none. */
function readEntries(fs: CacheFs, file: string, packDir: string, bosunVersion: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let value: unknown;
  try {
    const info = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!info?.isFile() || info.size > MAX_CACHE_BYTES) return entries;
    value = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return entries;
  }
  if (!isRecord(value) || value.format !== PACK_CACHE_FORMAT || value.version !== PACK_CACHE_VERSION || value.bosun !== bosunVersion || value.pack !== packDir) return entries;
  if (!isRecord(value.entries) || typeof value.digest !== "string" || value.digest !== digestOf(value.entries)) return entries;
  for (const [rel, entry] of Object.entries(value.entries)) {
    if (!isRecord(entry) || typeof entry.kind !== "string" || typeof entry.key !== "string" || !("value" in entry)) return new Map();
    entries.set(rel, { kind: entry.kind, key: entry.key, value: entry.value });
  }
  return entries;
}

/** Writes the cache whole (a temp file renamed over it); failing to write only costs a parse next time. */
function writeEntries(fs: CacheFs, file: string, packDir: string, bosunVersion: string, used: Map<string, Entry>): void {
  const entries = Object.fromEntries([...used].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temp, JSON.stringify({ format: PACK_CACHE_FORMAT, version: PACK_CACHE_VERSION, bosun: bosunVersion, pack: packDir, digest: digestOf(entries), entries }) + "\n", { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    try {
      fs.unlinkSync(temp);
    } catch {
      // nothing was written
    }
  }
}

function digestOf(entries: Record<string, unknown>): string {
  return `sha256:${sha256(JSON.stringify(entries))}`;
}

/**
 * Whether a stat key (`size:ctime:mtime:inode`, classify.ts `installedStatKey`) proves the bytes:
 * a sub-second ctime, or one old enough that an edit would show in a later second.
 */
function keyIsProof(key: string): boolean {
  const ctime = Number(key.split(":")[1]);
  return Number.isFinite(ctime) && (ctime % 1000 !== 0 || Date.now() - ctime > 2_000);
}

import * as nodeFs from "node:fs";
import type { Stats } from "node:fs";
import { join } from "node:path";
import { saveCacheFile } from "../../kernel/fs/cache-file.js";

/** The cache file, in bosun's cache folder. */
export const DIGEST_CACHE_FILE = "pack-digests.json";
const FORMAT = 1;
const MAX_BYTES = 8 * 1024 * 1024;
/** Pack folders kept (the last used); others are hashed again when next used. */
const MAX_PACKS = 8;
/**
 * A file changed within this long of being hashed may change again with the same size and
 * times (whole-second file systems): its hash is not kept.
 */
const SETTLE_MS = 2_000;

/**
 * The SHA-256 of each file of a pack folder, keyed by its stat (size, modification and change
 * time, inode), so that a digest hashes only the files that changed since the last one. Read
 * leniently (a damaged cache is an empty one) and written whole, atomically; failing to write
 * it only costs hashing again.
 */
export class DigestCache {
  private packs: Map<string, Record<string, string>>;
  private changed = false;
  /**
   * The stat each file was asked about with in this run (the pack load's), and the hash known for
   * it: the digest takes both rather than another lstat and lookup.
   */
  private readonly looked = new Map<string, { info: Stats; hash: string | undefined }>();
  /** The names the pack load listed in each folder of a pack, for the digest to take rather than list again. */
  private readonly listings = new Map<string, readonly string[]>();

  private constructor(
    private readonly file: string | null,
    packs: Map<string, Record<string, string>>,
    private readonly write: boolean,
    private readonly now: () => number,
  ) {
    this.packs = packs;
  }

  /**
   * The cache in `cacheDir`; none (hash everything) when it is null. `write: false` only reads it
   * (`bosun install --check` and `bosun doctor` write nothing).
   */
  static open(cacheDir: string | null | undefined, options: { write: boolean; now?: () => number } = { write: true }): DigestCache {
    const now = options.now ?? Date.now;
    if (!cacheDir) return new DigestCache(null, new Map(), false, now);
    const file = join(cacheDir, DIGEST_CACHE_FILE);
    return new DigestCache(file, readPacks(file), options.write, now);
  }

  /** The hash recorded for the file at `rel` of pack folder `dir`, when its stat is unchanged. */
  get(dir: string, rel: string, info: Stats): string | undefined {
    const id = `${dir}\0${rel}`;
    const seen = this.looked.get(id);
    if (seen?.info === info) return seen.hash;
    const entry = this.packs.get(dir)?.[rel];
    const key = statKey(info);
    const hash = entry?.startsWith(`${key} `) ? entry.slice(key.length + 1) : undefined;
    this.looked.set(id, { info, hash });
    return hash;
  }

  /** Notes the names the pack load found in folder `rel` of pack folder `dir`. */
  noteListing(dir: string, rel: string, names: readonly string[]): void {
    this.listings.set(`${dir}\0${rel}`, names);
  }

  /** The names the pack load found in folder `rel`, when it listed it this run. */
  listingOf(dir: string, rel: string): readonly string[] | undefined {
    return this.listings.get(`${dir}\0${rel}`);
  }

  /** Notes the stat the pack load took of a folder (a file's stat is noted when its hash is asked for). */
  noteFolder(dir: string, rel: string, info: Stats): void {
    this.looked.set(`${dir}\0${rel}`, { info, hash: undefined });
  }

  /** The stat of a pack file or folder this run already took (one the pack load looked at), else undefined. */
  statOf(dir: string, rel: string): Stats | undefined {
    return this.looked.get(`${dir}\0${rel}`)?.info;
  }

  /**
   * Records a file's hash: for this run by that very stat, and in the cache unless it changed too
   * recently to trust its stat.
   */
  set(dir: string, rel: string, info: Stats, hash: string): void {
    this.looked.set(`${dir}\0${rel}`, { info, hash });
    if (this.now() - Math.max(info.mtimeMs, info.ctimeMs) < SETTLE_MS) return;
    let entries = this.packs.get(dir);
    if (!entries) this.packs.set(dir, (entries = {}));
    entries[rel] = `${statKey(info)} ${hash}`;
    this.changed = true;
  }

  /** Keeps only the files a digest just saw for `dir`, and makes it the most recently used. */
  keepOnly(dir: string, rels: ReadonlySet<string>): void {
    const entries = this.packs.get(dir);
    if (!entries) return;
    for (const rel of Object.keys(entries)) {
      if (rels.has(rel)) continue;
      delete entries[rel];
      this.changed = true;
    }
    this.packs.delete(dir);
    this.packs.set(dir, entries);
  }

  /** Writes the cache when anything changed. */
  save(): void {
    if (!this.file || !this.changed || !this.write) return;
    const kept = Object.fromEntries([...this.packs].slice(-MAX_PACKS));
    saveCacheFile(this.file, `${JSON.stringify({ format: FORMAT, packs: kept })}\n`);
  }
}

function statKey(info: Stats): string {
  return `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
}

function readPacks(file: string): Map<string, Record<string, string>> {
  const packs = new Map<string, Record<string, string>>();
  try {
    const info = nodeFs.lstatSync(file);
    if (!info.isFile() || info.size > MAX_BYTES) return packs;
    const value = JSON.parse(nodeFs.readFileSync(file, "utf8")) as { format?: unknown; packs?: unknown };
    if (value.format !== FORMAT || typeof value.packs !== "object" || value.packs === null) return packs;
    for (const [dir, entries] of Object.entries(value.packs as Record<string, unknown>)) {
      if (typeof entries !== "object" || entries === null) continue;
      const valid = Object.entries(entries as Record<string, unknown>).filter((pair): pair is [string, string] => typeof pair[1] === "string" && /^\d+:[\d.]+:[\d.]+:\d+ [0-9a-f]{64}$/.test(pair[1]));
      packs.set(dir, Object.fromEntries(valid));
    }
  } catch {
    // no cache, or a damaged one: hash everything
  }
  return packs;
}

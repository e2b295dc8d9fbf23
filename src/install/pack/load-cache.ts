import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import type { Stats } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { DigestCache } from "../lock/digest-cache.js";
import { saveCacheFile } from "../../kernel/fs/cache-file.js";

/** The cache file, in bosun's cache folder. */
export const LOAD_CACHE_FILE = "pack-loads.json";
/** The shape of what is cached; another one (or another bosun version) is not read. */
const FORMAT = 1;
const MAX_BYTES = 16 * 1024 * 1024;
/** Pack folders kept (the last loaded); others are parsed again when next loaded. */
const MAX_PACKS = 8;

/** What the loader parsed from one pack file: `file` (a copied file's template and path variables), `skill` (SKILL.md), `markdown` (a command or agent). */
export type LoadKind = "file" | "skill" | "markdown";

/**
 * What the pack loader parsed from each pack file, by the SHA-256 of the file's bytes: a file
 * whose bytes are the same parses to the same thing, so a re-load parses only the files that
 * changed. Which bytes a file holds is known without reading it from its stat, through the
 * digest cache (lock/digest-cache.ts: the same stat-to-hash table `bosun.lock`'s digests use,
 * with its rule against a stat that may not prove the bytes yet); a file read anyway is hashed.
 * Keyed by bosun's version, read leniently (a damaged, other-version or oversized cache is an
 * empty one) and written whole, atomically; failing to write it only costs parsing again. What
 * it hands out is its own copy (the loaded pack shares it): nothing may change it.
 */
export class LoadCache {
  /** What this process parsed (not found in the cache), as `<kind> <rel>`: for tests and benchmarks. */
  readonly parsed: string[] = [];
  private changed = false;
  private readonly seen = new Map<string, Set<string>>();

  private constructor(
    private readonly file: string | null,
    private readonly version: string,
    private readonly packs: Map<string, Map<string, [string, unknown]>>,
    private readonly write: boolean,
    /** The stat-to-hash table (shared with the pack digest, which then reads nothing the load read). */
    readonly digests: DigestCache,
  ) {}

  /**
   * The cache in `cacheDir` for this bosun version; none (parse everything) when it is null.
   * `write: false` only reads it.
   */
  static open(cacheDir: string | null | undefined, options: { bosunVersion: string; write: boolean; digests?: DigestCache }): LoadCache {
    const digests = options.digests ?? DigestCache.open(cacheDir, { write: options.write });
    if (!cacheDir) return new LoadCache(null, options.bosunVersion, new Map(), false, digests);
    const file = join(cacheDir, LOAD_CACHE_FILE);
    return new LoadCache(file, options.bosunVersion, readPacks(file, options.bosunVersion), options.write, digests);
  }

  /** The parsed result of pack file `rel` when its stat says its bytes are the ones parsed (nothing read). */
  byStat<T>(dir: string, kind: LoadKind, rel: string, info: Stats): T | undefined {
    const hash = this.digests.get(dir, rel, info);
    return hash === undefined ? undefined : this.lookup<T>(dir, kind, rel, hash);
  }

  /** The parsed result of pack file `rel` for bytes already read, and their hash (recorded by stat for the next load). */
  byBytes<T>(dir: string, kind: LoadKind, rel: string, info: Stats, bytes: Uint8Array): { hash: string; value: T | undefined } {
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (this.digests.get(dir, rel, info) !== hash) this.digests.set(dir, rel, info, hash);
    return { hash, value: this.lookup<T>(dir, kind, rel, hash) };
  }

  /** Records a parse; a value JSON would not give back as it is (an undefined, an infinity) is not kept. */
  put(dir: string, kind: LoadKind, rel: string, hash: string, value: unknown): void {
    this.parsed.push(`${kind} ${rel}`);
    this.mark(dir, kind, rel);
    const text = JSON.stringify(value);
    if (text === undefined || !isDeepStrictEqual(JSON.parse(text), value)) return;
    let entries = this.packs.get(dir);
    if (!entries) this.packs.set(dir, (entries = new Map()));
    entries.set(`${kind} ${rel}`, [hash, JSON.parse(text)]);
    this.changed = true;
  }

  /** Writes the cache: for `dir`, only what this load looked up (most recently used last). */
  save(): void {
    if (!this.file || !this.write) return;
    for (const [dir, keys] of this.seen) {
      const entries = this.packs.get(dir);
      if (!entries) continue;
      for (const key of entries.keys()) {
        if (keys.has(key)) continue;
        entries.delete(key);
        this.changed = true;
      }
      this.packs.delete(dir);
      this.packs.set(dir, entries);
    }
    this.digests.save();
    if (!this.changed) return;
    let kept = [...this.packs].slice(-MAX_PACKS);
    let text = serialize(this.version, kept);
    // Too big: the packs just loaded only, else nothing (the next load parses again).
    if (text.length > MAX_BYTES) text = serialize(this.version, (kept = kept.filter(([dir]) => this.seen.has(dir))));
    if (text.length > MAX_BYTES) return;
    saveCacheFile(this.file, text);
  }

  private lookup<T>(dir: string, kind: LoadKind, rel: string, hash: string): T | undefined {
    this.mark(dir, kind, rel);
    const entry = this.packs.get(dir)?.get(`${kind} ${rel}`);
    return entry && entry[0] === hash ? (entry[1] as T) : undefined;
  }

  private mark(dir: string, kind: LoadKind, rel: string): void {
    let keys = this.seen.get(dir);
    if (!keys) this.seen.set(dir, (keys = new Set()));
    keys.add(`${kind} ${rel}`);
  }
}

function serialize(version: string, packs: [string, Map<string, [string, unknown]>][]): string {
  return `${JSON.stringify({ format: FORMAT, bosun: version, packs: Object.fromEntries(packs.map(([dir, entries]) => [dir, Object.fromEntries(entries)])) })}\n`;
}

function readPacks(file: string, version: string): Map<string, Map<string, [string, unknown]>> {
  const packs = new Map<string, Map<string, [string, unknown]>>();
  try {
    const info = nodeFs.lstatSync(file);
    if (!info.isFile() || info.size > MAX_BYTES) return packs;
    const value = JSON.parse(nodeFs.readFileSync(file, "utf8")) as { format?: unknown; bosun?: unknown; packs?: unknown };
    if (value.format !== FORMAT || value.bosun !== version || typeof value.packs !== "object" || value.packs === null) return packs;
    for (const [dir, entries] of Object.entries(value.packs as Record<string, unknown>)) {
      if (typeof entries !== "object" || entries === null) continue;
      const valid = Object.entries(entries as Record<string, unknown>).filter((pair): pair is [string, [string, unknown]] => Array.isArray(pair[1]) && pair[1].length === 2 && typeof pair[1][0] === "string" && /^[0-9a-f]{64}$/.test(pair[1][0]));
      packs.set(dir, new Map(valid));
    }
  } catch {
    // no cache, or a damaged one: parse everything
  }
  return packs;
}

import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { PackError } from "../pack/pack-error.js";
import { DigestCache } from "./digest-cache.js";

/** What a pack's files are, as the lock records them. */
export interface PackDigest {
  /** `sha256:<hex>` over every file of the pack (see `packDigest`). */
  digest: string;
  /**
   * The same digest per top-level entry of the pack (`pack.json`, `skills`, `files`…), cut to 12
   * hex digits: enough to say where a pack changed, small enough for one lock line.
   */
  parts: Record<string, string>;
}

/**
 * What a pack is made of: `pack.json` and the folders the pack format knows. Other files next to
 * them (a README, a LICENSE) are not installed, and not part of the digest.
 */
export const PACK_ENTRIES = ["pack.json", "agents", "commands", "files", "hooks", "migrations", "skills"] as const;

/**
 * The content digest of a pack folder: `pack.json` and every file under the pack's folders
 * (`PACK_ENTRIES`; dot-files and dot-folders skipped where the pack loader skips them, that is
 * everywhere but under `files/`, whose dot-files are installed), in byte
 * order of their relative POSIX paths; each adds its path, its kind and the SHA-256 of its bytes
 * (a symlink: of its target text, never followed). Modes and times are not part of it: the same
 * files in another checkout give the same digest. A file whose stat `cache` knows is not read
 * again, nor looked at again when the pack load just did; saving the cache is the caller's (once
 * its run has succeeded).
 */
export function packDigest(dir: string, cache: DigestCache = DigestCache.open(null)): PackDigest {
  const present = new Set(readNames(dir, "", cache));
  const entries: DigestEntry[] = [];
  for (const name of PACK_ENTRIES) if (present.has(name)) entry(dir, name, cache, entries);
  // One sort of every path (no name of PACK_ENTRIES begins another, so each part's paths stay together).
  entries.sort((a, b) => byBytes(a.rel, b.rel));
  cache.keepOnly(dir, new Set(entries.map(({ rel }) => rel)));
  const whole = createHash("sha256");
  const byPart = new Map<string, ReturnType<typeof createHash>>();
  for (const { rel, line } of entries) {
    whole.update(line);
    const top = rel.split("/")[0] as string;
    let part = byPart.get(top);
    if (!part) byPart.set(top, (part = createHash("sha256")));
    part.update(line);
  }
  const parts: Record<string, string> = {};
  for (const top of [...byPart.keys()].sort(byBytes)) parts[top] = (byPart.get(top) as ReturnType<typeof createHash>).digest("hex").slice(0, 12);
  return { digest: `sha256:${whole.digest("hex")}`, parts };
}

/** The top-level entries whose part digest differs between two digests (added and removed too), sorted. */
export function changedParts(locked: Record<string, string>, now: Record<string, string>): string[] {
  const names = new Set([...Object.keys(locked), ...Object.keys(now)]);
  return [...names].filter((name) => locked[name] !== now[name]).sort(byBytes);
}

function readNames(dir: string, rel: string, cache: DigestCache): readonly string[] {
  try {
    const names = cache.listingOf(dir, rel) ?? readdirSync(join(dir, rel));
    return rel === "files" || rel.startsWith("files/") ? names : names.filter((name) => !name.startsWith("."));
  } catch (error) {
    throw new PackError(join(dir, rel), `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** A path of the pack and the line it adds to the digest. */
interface DigestEntry {
  rel: string;
  line: string;
}

/** One path of the pack with everything under it, added to `out` (a file's hash from the cache when its stat is unchanged). */
function entry(dir: string, rel: string, cache: DigestCache, out: DigestEntry[]): void {
  const path = join(dir, rel);
  // A file the pack load looked at: its stat then (the digest is of the bytes that were loaded).
  const info = cache.statOf(dir, rel) ?? lstatSync(path);
  if (info.isSymbolicLink()) return void out.push({ rel, line: `${rel}\0link\0${sha256(readlinkSync(path))}\n` });
  if (info.isFile()) {
    let hash = cache.get(dir, rel, info);
    if (hash === undefined) cache.set(dir, rel, info, (hash = sha256(readFileSync(path))));
    return void out.push({ rel, line: `${rel}\0file\0${hash}\n` });
  }
  if (!info.isDirectory()) throw new PackError(path, "is not a file, folder or symlink; a pack holds only those");
  for (const name of readNames(dir, rel, cache)) entry(dir, `${rel}/${name}`, cache, out);
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Byte order of the UTF-8 strings (the same on every machine and locale). */
export function byBytes(a: string, b: string): number {
  // UTF-16 order is UTF-8 order up to the first difference unless it is at a surrogate (a character
  // beyond U+FFFF sorts after U+E000–U+FFFF in UTF-8): only then are the bytes compared. Sorting a
  // thousand paths compares them ten thousand times.
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if ((x & 0xf800) === 0xd800 || (y & 0xf800) === 0xd800) return Buffer.compare(Buffer.from(a), Buffer.from(b));
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadPack } from "../pack/load-pack.js";
import { PACK_NAME, SEMVER } from "../pack/pack-names.js";
import type { PackSource } from "./lock-check.js";
import { DigestCache } from "./digest-cache.js";
import { packDigest } from "./pack-digest.js";

/**
 * A pack folder's name, version and digest (files hashed unless `cache` knows them), to compare with the lock. A folder whose `pack.json`
 * does not give both is loaded in full, so the error is the pack loader's own (file, line, field).
 */
export function readPackSource(dir: string, cache: DigestCache = DigestCache.open(null)): PackSource {
  const root = resolve(dir);
  const named = nameAndVersion(root) ?? loadPack(root);
  return { name: named.name, version: named.version, dir: root, digest: packDigest(root, cache) };
}

function nameAndVersion(root: string): { name: string; version: string } | null {
  try {
    const json = JSON.parse(readFileSync(join(root, "pack.json"), "utf8")) as { name?: unknown; version?: unknown };
    if (typeof json.name === "string" && PACK_NAME.test(json.name) && typeof json.version === "string" && SEMVER.test(json.version)) return { name: json.name, version: json.version };
  } catch {
    // the pack loader says what is wrong
  }
  return null;
}

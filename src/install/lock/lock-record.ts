import type { InstallOutcome } from "../install-pack.js";
import type { Lock, LockedPack } from "./lock-file.js";
import { writeLock, type LockPlace, type LockWrite } from "./lock-io.js";
import { lockAfterInstall, lockAfterUninstall } from "./lock-update.js";
import { DigestCache } from "./digest-cache.js";
import { packDigest } from "./pack-digest.js";

/** What an install or uninstall did to the project's lock. */
export interface LockReport {
  file: string;
  write: LockWrite;
  /** `bosun.lock merge=union` was added to the project's `.gitattributes` (with a new lock). */
  attributes: boolean;
}

/**
 * Records a finished `bosun install` or `bosun uninstall` in the project's lock: an install pins
 * the pack (version, digest) and lists each runtime in the scope; an uninstall takes those lines
 * out (and the pack's, with its last install). A lock is created by a local-scope install only
 * (a global install from a project's root is recorded once the project has a lock). The lock is written only when its bytes change; an
 * uninstall with no lock writes none. The lock is read before the run (`before`), so a lock bosun
 * cannot read has already stopped it.
 */
export function recordInLock(place: LockPlace, before: { lock: Lock; text: string } | null, outcome: InstallOutcome, cacheDir: string | null = null): LockReport {
  const runtimes = outcome.result.targets.map(({ target }) => target.runtime.id);
  const scope = outcome.result.targets[0]?.target.scope;
  const unchanged = { file: place.file, write: "unchanged" as const, attributes: false };
  if (scope === undefined) return unchanged;
  let next: Lock;
  if (outcome.mode === "uninstall") {
    if (!before) return unchanged;
    next = lockAfterUninstall(before.lock, outcome.pack.name, { runtimes, scope });
  } else {
    // Only a project install (local scope) starts a lock; a global one is recorded in a lock that exists.
    if (!before && scope === "global") return unchanged;
    const pinned = pinnedPack(outcome, before?.lock ?? null, cacheDir);
    if (!pinned) return unchanged;
    next = lockAfterInstall(before?.lock ?? null, pinned, { runtimes, scope }, outcome.pack.succeeds);
  }
  return { file: place.file, ...writeLock(place, before?.text ?? null, next) };
}

/**
 * The pack as this run installed it. A settled run did not read the pack: its digest is the one
 * the manifests recorded, and the lock's per-folder digests are kept when the lock pins that
 * digest already; otherwise the pack folder is hashed (with bosun's digest cache).
 */
function pinnedPack(outcome: InstallOutcome, lock: Lock | null, cacheDir: string | null): LockedPack | null {
  const { name, version, dir, digest, parts } = outcome.pack;
  if (version === null || dir === null) return null;
  if (digest && parts) return { name, version, digest, parts };
  const locked = lock?.packs.find((pack) => pack.name === name);
  if (digest && locked && locked.version === version && locked.digest === digest) return locked;
  const cache = DigestCache.open(cacheDir);
  const computed = packDigest(dir, cache);
  cache.save();
  return { name, version, digest: computed.digest, parts: computed.parts };
}


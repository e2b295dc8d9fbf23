import type { InstallScope } from "../../runtimes/kit/install-types.js";
import type { Lock, LockedInstall, LockedPack } from "./lock-file.js";

/** Where a run installed (or removed) a pack: each runtime and the scope. */
export interface LockTargets {
  runtimes: readonly string[];
  scope: InstallScope;
}

/**
 * The lock after installing `pack` into `targets`: the pack pinned at what was installed, one
 * install line per runtime. The packs it `succeeds` (a renamed pack) left those runtimes in that
 * scope: their lines go, and a pack's line with its last install.
 */
export function lockAfterInstall(lock: Lock | null, pack: LockedPack, targets: LockTargets, succeeds: readonly string[] = []): Lock {
  const replaced = (entry: LockedInstall) => succeeds.includes(entry.pack) && entry.scope === targets.scope && targets.runtimes.includes(entry.runtime);
  const installs = (lock?.installs ?? []).filter((entry) => !replaced(entry));
  const packs = [...(lock?.packs ?? []).filter((entry) => entry.name !== pack.name && (!succeeds.includes(entry.name) || installs.some((install) => install.pack === entry.name))), pack];
  for (const runtime of targets.runtimes) {
    if (!installs.some((entry) => sameInstall(entry, { runtime, scope: targets.scope, pack: pack.name }))) installs.push({ runtime, scope: targets.scope, pack: pack.name });
  }
  return { packs, installs };
}

/** The lock after removing `pack` from `targets`: their install lines go, and the pack's line with its last install. */
export function lockAfterUninstall(lock: Lock, pack: string, targets: LockTargets): Lock {
  const installs = lock.installs.filter((entry) => !(entry.pack === pack && entry.scope === targets.scope && targets.runtimes.includes(entry.runtime)));
  const packs = lock.packs.filter((entry) => entry.name !== pack || installs.some((install) => install.pack === pack));
  return { packs, installs };
}

function sameInstall(a: LockedInstall, b: LockedInstall): boolean {
  return a.runtime === b.runtime && a.scope === b.scope && a.pack === b.pack;
}

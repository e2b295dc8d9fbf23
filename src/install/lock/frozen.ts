import type { InstallScope } from "../../runtimes/kit/install-types.js";
import { FrozenMismatchError } from "./lock-errors.js";
import type { Lock } from "./lock-file.js";
import type { PackSource } from "./lock-check.js";
import { sourceDrift } from "./lock-check.js";

/** One `bosun install` run of a frozen install: a scope and the runtimes the lock lists for it. */
export interface FrozenGroup {
  scope: InstallScope;
  runtimes: string[];
}

export interface FrozenRequest {
  lock: Lock;
  file: string;
  source: PackSource;
  /** `--runtime`: only these (each must be in the lock for the pack). */
  runtimes?: readonly string[];
  /** `--scope`: only this one (it must be in the lock for the pack). */
  scope?: InstallScope;
}

const UPDATE = "Run bosun install without --frozen to install this pack and update the lock, or check out the pack the lock was written for";

/**
 * What `bosun install --frozen` installs: the pack must be in the lock at this version and
 * digest, and every runtime and scope asked for must be listed for it; then the lock's installs
 * of the pack (narrowed by `--runtime` and `--scope`), one group per scope. Anything else is a
 * `FrozenMismatchError` naming what differs, before anything is written.
 */
export function frozenGroups(request: FrozenRequest): FrozenGroup[] {
  const { lock, file, source } = request;
  const pinned = lock.packs.find((pack) => pack.name === source.name);
  if (!pinned) throw new FrozenMismatchError(file, `pack ${source.name} is not in the lock (it pins ${lock.packs.map((pack) => `${pack.name} ${pack.version}`).join(", ") || "no pack"})`, UPDATE);
  const differs = sourceDrift(pinned, source);
  if (differs) throw new FrozenMismatchError(file, differs, UPDATE);
  const listed = lock.installs.filter((install) => install.pack === source.name);
  const names = listed.map((install) => `${install.runtime} ${install.scope}`).join(", ") || "none";
  if (request.scope !== undefined && !listed.some((install) => install.scope === request.scope)) {
    throw new FrozenMismatchError(file, `the lock has no ${request.scope} install of pack ${source.name} (it lists: ${names})`, "Leave out --scope to install what the lock lists");
  }
  const scoped = listed.filter((install) => request.scope === undefined || install.scope === request.scope);
  for (const runtime of request.runtimes ?? []) {
    if (!scoped.some((install) => install.runtime === runtime)) throw new FrozenMismatchError(file, `the lock has no ${runtime}${request.scope ? ` ${request.scope}` : ""} install of pack ${source.name} (it lists: ${names})`, "Leave out --runtime, or name runtimes the lock lists");
  }
  const chosen = scoped.filter((install) => request.runtimes === undefined || request.runtimes.includes(install.runtime));
  if (chosen.length === 0) throw new FrozenMismatchError(file, `the lock lists no install of pack ${source.name}`, UPDATE);
  const groups: FrozenGroup[] = [];
  for (const scope of ["global", "local"] as const) {
    const runtimes = chosen.filter((install) => install.scope === scope).map((install) => install.runtime);
    if (runtimes.length > 0) groups.push({ scope, runtimes });
  }
  return groups;
}

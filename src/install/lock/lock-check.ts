import { collectInstallStatus, type RootStatus } from "../records/install-status.js";
import type { InstallFs } from "../apply/install-fs.js";
import { readManifest, type Manifest } from "../records/manifest.js";
import { MANIFEST_FILE, rootsFor, statePath } from "../records/root.js";
import { getInstallRuntime, listInstallRuntimes } from "../../runtimes/registry.js";
import type { InstallScope, RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { changedParts, type PackDigest } from "./pack-digest.js";
import type { Lock, LockedInstall, LockedPack } from "./lock-file.js";

/** One way the installs (or a pack's source) differ from the lock. */
export interface LockDrift {
  /**
   * `source`: a pack folder no longer matches its pinned version or digest; `unlocked-pack`: a
   * pack checked is not in the lock; `missing`: a locked install is not there; `version` /
   * `digest`: it is there at another version or from other files; `edited` / `deleted`: a file
   * bosun installed for it changed; `entry`: a config entry bosun added for it is gone;
   * `interrupted`: a run was killed part way there; `unreadable`: bosun's records there cannot be
   * read; `not-locked`: a project install the lock does not list.
   */
  kind: "source" | "unlocked-pack" | "missing" | "version" | "digest" | "edited" | "deleted" | "entry" | "interrupted" | "unreadable" | "not-locked";
  pack: string;
  runtime?: string;
  scope?: InstallScope;
  /** The file (relative to the runtime's folder) or config entry, for `edited`, `deleted`, `entry`. */
  path?: string;
  /** The line that reports it. */
  text: string;
}

export interface LockCheck {
  file: string;
  ok: boolean;
  /** What was compared: the packs and locked installs, after `--runtime`, `--scope` and `PACK` narrowed them. */
  checked: { packs: string[]; installs: LockedInstall[] };
  drift: LockDrift[];
}

/** A pack folder to compare with the lock: what its `pack.json` says, and its digest. */
export interface PackSource {
  name: string;
  version: string;
  dir: string;
  digest: PackDigest;
}

export interface LockCheckInput {
  lock: Lock;
  file: string;
  /** The project root as the working folder: local installs are looked for there. */
  ctx: RootContext;
  fs: InstallFs;
  /** Pack folders whose files are compared with the lock (bosun's own pack, and `PACK` when given). */
  sources: readonly PackSource[];
  /** Only this pack (`bosun install --check PACK`). */
  pack?: string;
  runtimes?: readonly string[];
  scope?: InstallScope;
}

/**
 * Compares the lock with what is installed, reading only: each pack source given against its
 * pinned version and digest; each locked install against the runtime folder's manifest (there,
 * at that version and digest, its files and entries unchanged, no run interrupted); and, in the
 * project's own folders (local scope), every pack installed that the lock does not list. A
 * runtime's global folder may hold packs of the user's own: only the locked ones are looked at.
 */
export function checkLock(input: LockCheckInput): LockCheck {
  const drift: LockDrift[] = [];
  const packs = input.lock.packs.filter((pack) => input.pack === undefined || pack.name === input.pack);
  const installs = input.lock.installs.filter((install) => packs.some((pack) => pack.name === install.pack) && (input.scope === undefined || install.scope === input.scope) && (input.runtimes === undefined || input.runtimes.includes(install.runtime)));
  for (const source of input.sources) {
    if (input.pack !== undefined && source.name !== input.pack) continue;
    const pinned = input.lock.packs.find((pack) => pack.name === source.name);
    if (!pinned) {
      if (input.pack !== undefined) drift.push({ kind: "unlocked-pack", pack: source.name, text: `pack ${source.name} (${source.dir}) is not in the lock; bosun install it from the project's root to add it` });
      continue;
    }
    const problem = sourceDrift(pinned, source);
    if (problem) drift.push({ kind: "source", pack: source.name, text: problem });
  }
  const places = new Places(input);
  for (const install of installs) drift.push(...installDrift(install, packs.find((pack) => pack.name === install.pack) as LockedPack, places));
  if (input.scope !== "global") drift.push(...unlockedInstalls(input, places));
  // A folder's own trouble (an interrupted run) is seen once per pack locked there: said once.
  const unique = drift.filter((entry, index) => drift.findIndex((other) => other.text === entry.text) === index);
  return { file: input.file, ok: unique.length === 0, checked: { packs: packs.map((pack) => pack.name), installs }, drift: unique };
}

/** How a pack folder differs from its lock line, or null when it matches. */
export function sourceDrift(pinned: LockedPack, source: PackSource): string | null {
  if (source.version !== pinned.version) return `pack ${pinned.name}: its folder (${source.dir}) is version ${source.version}, the lock pins ${pinned.version}`;
  if (source.digest.digest === pinned.digest) return null;
  const changed = changedParts(pinned.parts, source.digest.parts);
  return `pack ${pinned.name} ${pinned.version}: its files (${source.dir}) differ from the locked ones${changed.length > 0 ? ` (changed: ${changed.map((name) => (name.includes(".") ? name : `${name}/`)).join(", ")})` : ""}`;
}

/** One runtime folder as the check sees it: its status (with drift) and manifest. */
interface Place {
  status: RootStatus;
  manifest: Manifest;
}

/** The folders of each runtime and scope, read once. */
class Places {
  private readonly cache = new Map<string, Place[] | string>();
  constructor(private readonly input: LockCheckInput) {}

  /** The runtime's folders for the scope, or why they cannot be looked at. */
  of(runtimeId: string, scope: InstallScope): Place[] | string {
    const key = `${runtimeId} ${scope}`;
    let found = this.cache.get(key);
    if (found === undefined) this.cache.set(key, (found = this.read(runtimeId, scope)));
    return found;
  }

  private read(runtimeId: string, scope: InstallScope): Place[] | string {
    let runtime: InstallRuntime;
    try {
      runtime = getInstallRuntime(runtimeId);
      const roots = rootsFor(runtime, scope, this.input.ctx);
      const statuses = collectInstallStatus({ runtimes: [runtime], scopes: [scope], ctx: this.input.ctx, fs: this.input.fs, checkDrift: true, includeMissing: true });
      return roots.flatMap((root) => {
        const status = statuses.find((entry) => entry.key === root.key);
        return status ? [{ status, manifest: readManifest(this.input.fs, statePath(root, MANIFEST_FILE)).manifest }] : [];
      });
    } catch (error) {
      return (error as Error).message;
    }
  }
}

function installDrift(install: LockedInstall, pinned: LockedPack, places: Places): LockDrift[] {
  const where = `${install.runtime} ${install.scope}`;
  const base = { pack: install.pack, runtime: install.runtime, scope: install.scope };
  const found = places.of(install.runtime, install.scope);
  if (typeof found === "string") return [{ ...base, kind: "unreadable", text: `${where}: cannot look at pack ${install.pack}: ${found}` }];
  const out: LockDrift[] = [];
  for (const { status } of found) {
    if (status.interrupted) out.push({ ...base, kind: "interrupted", text: `${where}: an install in ${status.dir} was interrupted; run bosun install --frozen to roll it back and finish` });
    for (const problem of status.problems) out.push({ ...base, kind: "unreadable", text: `${where}: ${status.dir}: ${problem}` });
  }
  const holding = found.filter(({ manifest }) => manifest.packs[install.pack] && !manifest.packs[install.pack]?.heldFor);
  if (holding.length === 0) return [...out, { ...base, kind: "missing", text: `${where}: pack ${install.pack} is not installed (the lock pins ${pinned.version}); run bosun install --frozen` }];
  for (const { status, manifest } of holding) {
    const record = manifest.packs[install.pack]!;
    if (record.version !== pinned.version) out.push({ ...base, kind: "version", text: `${where}: pack ${install.pack} is installed at ${record.version} in ${status.dir}, the lock pins ${pinned.version}` });
    else if (record.digest !== pinned.digest) out.push({ ...base, kind: "digest", text: `${where}: pack ${install.pack} ${record.version} in ${status.dir} was installed from ${record.digest ? "other files than the locked ones" : "files bosun did not record (an older bosun installed it)"}; run bosun install --frozen` });
    const owned = new Set(record.files);
    for (const rel of status.drift?.modified ?? []) if (owned.has(rel)) out.push({ ...base, kind: "edited", path: rel, text: `${where}: ${rel} (pack ${install.pack}, in ${status.dir}) was edited since bosun installed it` });
    for (const rel of status.drift?.missing ?? []) if (owned.has(rel)) out.push({ ...base, kind: "deleted", path: rel, text: `${where}: ${rel} (pack ${install.pack}, in ${status.dir}) was deleted since bosun installed it` });
    const entries = new Set(manifest.config.flatMap((entry) => (entry.kind === "hook" && entry.pack === install.pack ? [`${entry.file}: ${entry.event} (${entry.hook})`] : [])));
    for (const entry of status.drift?.config ?? []) if (entries.has(entry)) out.push({ ...base, kind: "entry", path: entry, text: `${where}: bosun's entry for pack ${install.pack} is gone from ${entry} (in ${status.dir})` });
  }
  return out;
}

/** Packs in the project's own folders (local scope) that the lock does not list for that runtime. */
function unlockedInstalls(input: LockCheckInput, places: Places): LockDrift[] {
  const out: LockDrift[] = [];
  for (const runtime of listInstallRuntimes()) {
    if (input.runtimes !== undefined && !input.runtimes.includes(runtime.id)) continue;
    const found = places.of(runtime.id, "local");
    if (typeof found === "string") continue;
    const seen = new Set<string>();
    for (const { status, manifest } of found) {
      for (const [name, record] of Object.entries(manifest.packs)) {
        if (record.heldFor || seen.has(name) || (input.pack !== undefined && name !== input.pack)) continue;
        if (input.lock.installs.some((install) => install.runtime === runtime.id && install.scope === "local" && install.pack === name)) continue;
        seen.add(name);
        out.push({ kind: "not-locked", pack: name, runtime: runtime.id, scope: "local", text: `${runtime.id} local: pack ${name} ${record.version} is installed in ${status.dir} but not in the lock; bosun install it again from the project's root to add it, or bosun uninstall it` });
      }
    }
  }
  return out;
}

import { join, resolve } from "node:path";
import type { Boot } from "../app/start.js";
import { displayPath } from "../kernel/paths.js";
import { UserError } from "../kernel/errors.js";
import type { InstallScope } from "../runtimes/kit/install-types.js";
import type { InstallOutcome } from "../install/install-pack.js";
import type { FrozenGroup } from "../install/lock/frozen.js";
import type { LockCheck } from "../install/lock/lock-check.js";
import type { Lock } from "../install/lock/lock-file.js";
import type { LockPlace } from "../install/lock/lock-io.js";
import type { LockReport } from "../install/lock/lock-record.js";
import { styler, writeJson, writeLine, type Output } from "./output.js";

/** The flags of `bosun install` that the lock's modes look at. */
export interface LockFlags {
  runtime?: string[];
  allDetected?: boolean;
  scope?: string;
  configDir?: string;
  dryRun?: boolean;
  yes?: boolean;
  resolve?: string;
  status?: boolean;
  frozen?: boolean;
  check?: boolean;
  json?: boolean;
}

/**
 * The flag combinations the lock's modes refuse, each one line: `--check` only reads (nothing to
 * apply, resolve or dry-run); `--frozen` installs exactly the lock (the lock names the runtimes,
 * so no `--all-detected`; and `--resolve keep` would leave a locked file out).
 */
export function refuseLockCombinations(flags: LockFlags): void {
  const given = (names: [string, unknown][]) => names.filter(([, value]) => value !== undefined && value !== false).map(([name]) => name);
  if (flags.check) {
    const clash = given([["--frozen", flags.frozen], ["--status", flags.status], ["--dry-run", flags.dryRun], ["--yes", flags.yes], ["--resolve", flags.resolve], ["--all-detected", flags.allDetected], ["--config-dir", flags.configDir]]);
    if (clash.length > 0) throw new UserError(`--check only reads and compares with bosun.lock; it does not take ${clash.join(", ")} (narrow it with PACK, --runtime and --scope)`);
  }
  if (flags.frozen) {
    const clash = given([["--status", flags.status], ["--all-detected", flags.allDetected]]);
    if (clash.length > 0) throw new UserError(`--frozen installs the runtimes bosun.lock lists; it does not take ${clash.join(", ")} (narrow it with --runtime and --scope)`);
    if (flags.resolve === "keep") throw new UserError("--frozen installs exactly what bosun.lock says, and --resolve keep would leave a locked file out; pass --resolve remove (your copy is backed up first), or move your file away");
  }
}

/** The runtimes named with `--runtime` (comma-separated or repeated), or undefined. */
export function namedRuntimes(flags: LockFlags): string[] | undefined {
  const named = (flags.runtime ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter(Boolean);
  return named.length > 0 ? [...new Set(named)] : undefined;
}

/** The project's lock for `--frozen` and `--check`: found from anywhere in the project; missing is an error. */
export async function projectLock(boot: Boot, flag: "--frozen" | "--check"): Promise<{ place: LockPlace; lock: Lock }> {
  const [{ projectRootOf, readLock }, { LOCK_FILE_NAME }, { LockMissingError }] = await Promise.all([import("../install/lock/lock-io.js"), import("../install/lock/lock-file.js"), import("../install/lock/lock-errors.js")]);
  const cwd = process.cwd();
  const project = projectRootOf(cwd, boot.paths.home);
  if (!project) throw new LockMissingError(`${displayPath(cwd, boot.paths.home)} (not in a project: no git repository or bosun.json around it)`, flag);
  const place = { root: project.root, file: join(project.root, LOCK_FILE_NAME), git: project.git };
  const read = readLock(place);
  if (!read) throw new LockMissingError(displayPath(project.root, boot.paths.home), flag);
  return { place, lock: read.lock };
}

/**
 * The pack a lock mode compares: `PACK` (resolved from the working folder), else bosun's own;
 * hashed with bosun's digest cache (`--check` and `--frozen`'s own check only read it).
 */
export async function packSource(pack: string | undefined, boot: Boot, write: boolean) {
  const [{ readPackSource }, { bundledPackDir }, { DigestCache }] = await Promise.all([import("../install/lock/pack-source.js"), import("../install/install-pack.js"), import("../install/lock/digest-cache.js")]);
  return readPackSource(pack === undefined ? bundledPackDir(boot.packageRoot) : resolve(process.cwd(), pack), DigestCache.open(boot.paths.cache, { write }));
}

/** What `bosun install --frozen` runs: one install per scope the lock lists, in the project's root. */
export async function frozenRuns(pack: string | undefined, flags: LockFlags, scope: InstallScope | undefined, boot: Boot): Promise<{ root: string; packDir: string; groups: FrozenGroup[] }> {
  const { place, lock } = await projectLock(boot, "--frozen");
  // Read only: a frozen install that fails writes nothing (the install itself keeps the cache).
  const source = await packSource(pack, boot, false);
  const { frozenGroups } = await import("../install/lock/frozen.js");
  const runtimes = namedRuntimes(flags);
  const groups = frozenGroups({ lock, file: place.file, source, ...(runtimes ? { runtimes } : {}), ...(scope ? { scope } : {}) });
  return { root: place.root, packDir: source.dir, groups };
}

/**
 * Before a plain install or uninstall: the lock of the project whose root is the working folder
 * (read now, so a lock bosun cannot read stops the run before anything is written); null when
 * the working folder is not a project's root.
 */
export async function lockBeforeRun(boot: Boot): Promise<{ place: LockPlace; before: { lock: Lock; text: string } | null } | null> {
  const { lockPlaceAt, readLock } = await import("../install/lock/lock-io.js");
  const place = lockPlaceAt(process.cwd(), boot.paths.home);
  return place ? { place, before: readLock(place) } : null;
}

/** After a run: the lock updated with what it did (a lock that cannot be written is a warning: the install is done). */
export async function recordRun(state: NonNullable<Awaited<ReturnType<typeof lockBeforeRun>>>, outcome: InstallOutcome, boot: Boot): Promise<LockReport | { file: string; error: string }> {
  const { recordInLock } = await import("../install/lock/lock-record.js");
  try {
    return recordInLock(state.place, state.before, outcome, boot.paths.cache);
  } catch (error) {
    boot.log.warn("bosun.lock not written", { file: state.place.file, error: (error as Error).message });
    return { file: state.place.file, error: (error as Error).message };
  }
}

/** `bosun install --check [PACK] [--runtime R] [--scope S] [--json]`: compares, writes nothing, exits 1 on any drift. */
export async function lockCheckCommand(pack: string | undefined, flags: LockFlags, scope: InstallScope | undefined, boot: Boot, output: Output): Promise<void> {
  const check = await runLockCheck(boot, { ...(pack === undefined ? {} : { pack }), ...(scope ? { scope } : {}), runtimes: namedRuntimes(flags) });
  if (flags.json) writeJson(output, check);
  else for (const line of (await import("./render-lock.js")).lockCheckLines(check, boot.paths.home, styler(output))) writeLine(output.stdout, line);
  if (!check.ok) throw new (await import("../install/lock/lock-errors.js")).LockDriftError(check.drift.length);
}

/** The check itself: bosun's own pack's source always, `PACK`'s when given; the project root as the working folder. */
export async function runLockCheck(boot: Boot, narrow: { pack?: string; scope?: InstallScope; runtimes: string[] | undefined }): Promise<LockCheck> {
  const { place, lock } = await projectLock(boot, "--check");
  const [nodeFs, { checkLock }] = await Promise.all([import("node:fs"), import("../install/lock/lock-check.js")]);
  const own = await packSource(undefined, boot, false);
  const given = narrow.pack === undefined ? null : await packSource(narrow.pack, boot, false);
  const sources = given && given.dir !== own.dir ? [own, given] : [own];
  return checkLock({
    lock,
    file: place.file,
    ctx: { env: boot.agentEnv, home: boot.paths.home, cwd: place.root },
    fs: nodeFs,
    sources,
    ...(given ? { pack: given.name } : {}),
    ...(narrow.scope ? { scope: narrow.scope } : {}),
    ...(narrow.runtimes ? { runtimes: narrow.runtimes } : {}),
  });
}

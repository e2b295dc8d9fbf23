import { randomBytes } from "node:crypto";
import { dirname, join, sep } from "node:path";
import { acquireLock, type HeldLock } from "../kernel/fs/file-lock.js";
import { UnusableFileError } from "../kernel/fs/regular-file.js";
import type { CliVersionReading, EditionChoice } from "../runtimes/kit/cli-version.js";
import type { InstallScope } from "../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../runtimes/kit/types.js";
import { supportDirFor } from "../runtimes/kit/support-dir.js";
import type { DesiredInstall } from "./plan/desired.js";
import { RootExecutor } from "./apply/executor.js";
import { errorCode, exists, isNonFolder, makeDirs, readOrNull, tryRmdir, tryUnlink, type InstallFs } from "./apply/install-fs.js";
import { InstallBlockedError, InstallFailedError, InstallFileError, NeedsChoiceError, PackNotInstalledError, type RolledBack } from "./install-errors.js";
import { readInstallState, serializeInstallState, type InstallState } from "./records/install-state.js";
import { beginRecord, journalRel, JournalWriter, newRunId } from "./apply/journal.js";
import { rollBackRoots, stateDirChain, tidyRoots } from "./apply/run-journals.js";
import { journalState, recoverInterrupted } from "./apply/recovery.js";
import { readManifest, serializeManifest, type Manifest } from "./records/manifest.js";
import type { Choice, MigrationRecord } from "./records/migration-record.js";
import { effectiveType, nextManifest, nextState, sameManifestMeaning } from "./plan/next-state.js";
import { isBlocked, MUTATING_ACTIONS, needsChoice, type PlannedAction, type RootPlan } from "./plan/plan-types.js";
import { planRoot } from "./plan/planner.js";
import { isSettled, settledRecord, type SettleContext, type SettledRecord } from "./plan/settled.js";
import { LOCK_FILE, MANIFEST_FILE, STATE_FILE, statePath, stateRel, type InstallRoot } from "./records/root.js";
import { rootResult } from "./records/root-result.js";
import type { RootResult } from "./records/root-result.js";

/** One runtime and scope to install into (or remove from): its roots and the pack's desired state there. */
export interface InstallTarget {
  runtime: InstallRuntime;
  scope: InstallScope;
  roots: InstallRoot[];
  /**
   * What the pack should look like; null removes the pack (uninstall). A settled reinstall loads
   * no pack: its `files` and `hooks` are empty then (the roots' plans list every file kept).
   */
  desired: DesiredInstall | null;
  /** An uninstall's skill folders to keep, by root folder: relative folder → the runtimes that read it there (shared-holds.ts). */
  hold?: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
  /** The runtime's CLI as read, and the contract edition bosun follows for it (runtimes with a CLI contract). */
  cli?: CliTarget;
  /** An install's target: what it was planned from outside its roots, and its share of the notes. */
  context?: { watch: [string, string | null][]; notes: string[]; inputs: string | null; idleRoots?: string[] };
}

export interface CliTarget {
  reading: CliVersionReading;
  choice: EditionChoice;
  /** The versions the chosen edition is for ("0.124.0 and newer"). */
  span: string;
}

export interface InstallRequest {
  /** `succeeds`: the packs this one takes the place of (its `succeed-pack` migrations). */
  pack: { name: string; version: string; digest?: string; artifacts: ReadonlySet<string>; succeeds?: readonly string[] };
  /** Engine migrations, then the pack's. */
  records: readonly MigrationRecord[];
  targets: InstallTarget[];
  dryRun: boolean;
  /** The answer for every question (`--resolve`). */
  resolve?: Choice;
  /** Asks the questions on a terminal; sets each action's `resolution`. Absent: nobody can be asked. */
  ask?: (questions: { root: InstallRoot; action: PlannedAction }[]) => Promise<void>;
  lockTimeoutMs: number;
  fs: InstallFs;
  now?: () => Date;
  random?: () => string;
  bosunVersion: string;
  /** bosun's hook helper: copied to `target` when a hook needs it and it is not there yet. */
  helper: { source: string; target: string } | null;
  contractExists: (row: string) => boolean;
  onProgress?: (done: number, total: number) => void;
  /** Journals kept after a successful run. */
  keepJournals?: number;
  /** The pack as loaded (its paths and their stat keys): a root this run settles records it. */
  settlePack?: SettleContext["pack"];
  /** Called with the final plans (made under the lock, questions answered) right before the first write. */
  beforeApply?: (plans: readonly PlannedRoot[]) => void;
}

/** One root's plan in a run. */
export interface PlannedRoot {
  target: InstallTarget;
  root: InstallRoot;
  plan: RootPlan;
}

export interface InstallResult {
  targets: { target: InstallTarget; roots: RootResult[] }[];
  helper: { path: string; installed: boolean } | null;
  warnings: string[];
}

const DEFAULT_KEEP_JOURNALS = 3;

/**
 * The installer's runner. Plans every root first without a lock (a dry run stops there, and a
 * run with nothing to do writes nothing at all). Otherwise: blocked paths and unanswered
 * questions fail before anything is written; then each root is locked, interrupted runs are
 * rolled back, the plan is made again under the lock (unless nothing changed meanwhile),
 * questions are asked, and every root is
 * applied with its journal; the manifest and install state are written, and only when every
 * root is done are the journals committed. Any failure before that rolls every root back.
 */
export async function runInstall(request: InstallRequest): Promise<InstallResult> {
  const fs = request.fs;
  const now = request.now ?? (() => new Date());
  const warnings: string[] = [];
  const packHashes = new Map<string, string>();
  // 1. Plan without a lock.
  let plans = planUnlocked(request, now, packHashes);
  const helperNeeded = request.helper !== null && request.targets.some((target) => target.desired?.usesHelper) && !exists(fs, request.helper.target);
  const uninstall = request.targets.every((target) => target.desired === null);
  // A run at work or interrupted may be rolled back to a manifest that has the pack: looked at again under the lock.
  if (uninstall && plans.every(({ pendingJournals }) => pendingJournals === 0)) failIfNotInstalled(plans, request.pack.name);
  if (request.dryRun) {
    const status = (plan: RootPlan, pending: number) => (pending === 0 && isNoop(plan) ? "unchanged" : "planned");
    return result(request, plans.map(({ root, plan, pendingJournals }) => ({ ...rootResult(root, plan, status(plan, pendingJournals)), interrupted: pendingJournals > 0 })), helperNeeded ? { path: request.helper?.target ?? "", installed: false } : null, warnings);
  }
  const interrupted = plans.some(({ pendingJournals }) => pendingJournals > 0);
  const nothingToDo = !interrupted && plans.every(({ plan }) => isNoop(plan)) && !helperNeeded;
  if (nothingToDo) return result(request, plans.map(({ root, plan }) => rootResult(root, plan, "unchanged")), null, warnings);
  // A run at work or interrupted is waited for (or rolled back) under the lock first; only then does the plan mean anything.
  if (!interrupted) failOnBlocked(plans, request);

  // 2. Lock every root (in the order of their state folders' paths, so two runs never wait on each
  // other, and a folder's lock comes before the state folders inside it: one that cannot be taken
  // refuses the run before bosun made a folder in it), then plan again.
  const createdDirs: string[] = [];
  const locks: HeldLock[] = [];
  const recovered = new Map<string, string[]>();
  let committed = false;
  try {
    for (const { root } of [...plans].sort((a, b) => (stateDir(a.root) < stateDir(b.root) ? -1 : 1))) {
      locks.push(await lockRoot(fs, root, createdDirs, request.lockTimeoutMs));
    }
    for (const { root } of plans) recovered.set(root.dir, recoverInterrupted(fs, root, request.keepJournals ?? DEFAULT_KEEP_JOURNALS, now));
    // Every bosun run that changes a root rewrites its manifest or state, and one that fails puts
    // them back: when both read as before and nothing was rolled back, the plan still holds.
    const stale = plans.some(
      ({ root, plan, pendingJournals }) =>
        pendingJournals > 0 || (recovered.get(root.dir) ?? []).length > 0 || readOrNull(fs, statePath(root, MANIFEST_FILE)) !== plan.manifest.text || readOrNull(fs, statePath(root, STATE_FILE)) !== plan.stateText,
    );
    if (stale) plans = plans.map(({ target, root }) => ({ target, root, plan: plan(request, target, root, now, packHashes), pendingJournals: 0 }));
    const rolledBack = [...recovered].flatMap(([root, runs]) => runs.map((run) => ({ root, run })));
    if (uninstall) failIfNotInstalled(plans, request.pack.name, rolledBack);
    failOnBlocked(plans, request, rolledBack);
    const questions = plans.flatMap(({ root, plan }) => plan.actions.filter(needsChoice).map((action) => ({ root, action })));
    if (questions.length > 0 && request.resolve === undefined && request.ask) await request.ask(questions);
    for (const { action } of questions) action.resolution ??= "keep";

    const changing = plans.filter(({ plan }) => !isNoop(plan));
    if (changing.length === 0 && !helperNeeded) {
      return result(request, plans.map(({ root, plan }) => ({ ...rootResult(root, plan, "unchanged"), recovered: recovered.get(root.dir) ?? [] })), null, warnings);
    }
    request.beforeApply?.(plans);
    const outcome = await apply(request, plans, changing, helperNeeded, recovered, createdDirs, warnings, now);
    committed = true;
    return outcome;
  } finally {
    releaseRoots(fs, locks, plans, committed, createdDirs, warnings);
  }
}

/** A root's plan made without the lock, and whether another run was at work there meanwhile (a journal without its commit line). */
type UnlockedPlan = PlannedRoot & { pendingJournals: number };

/**
 * Plans every root without a lock. Another run at work here (or one killed part way) shows as a
 * journal without its commit line; the journals are looked at before and after planning, as a run
 * may start meanwhile. Then this plan proves nothing (a planning failure too, unless this is a dry
 * run): the lock is taken and it is made again.
 */
function planUnlocked(request: InstallRequest, now: () => Date, packHashes: Map<string, string>): UnlockedPlan[] {
  const fs = request.fs;
  const all = request.targets.flatMap((target) => target.roots.map((root) => ({ target, root })));
  return all.map(({ target, root }) => {
    const before = journalState(fs, root);
    let planned: RootPlan | null = null;
    let failure: unknown = null;
    try {
      planned = plan(request, target, root, now, packHashes);
    } catch (error) {
      failure = error;
    }
    const busy = before.busy || journalState(fs, root).signature !== before.signature;
    if (failure !== null && (!busy || request.dryRun)) throw failure;
    return { target, root, plan: planned as RootPlan, pendingJournals: busy ? 1 : 0 };
  });
}

/** The locks released (last taken first), then the folders the run leaves empty removed: a root's state folder, an emptied root, the ones it made. */
function releaseRoots(fs: InstallFs, locks: HeldLock[], plans: readonly PlannedRoot[], committed: boolean, createdDirs: string[], warnings: string[]): void {
  for (const lock of locks.reverse()) {
    try {
      lock.release();
    } catch (error) {
      warnings.push(`could not release ${lock.file}: ${(error as Error).message}`);
    }
  }
  // A root bosun left (no manifest): its state folder goes once the lock is gone, if empty.
  for (const { root } of plans) if (!exists(fs, statePath(root, MANIFEST_FILE))) for (const dir of stateDirChain(root)) tryRmdir(fs, dir);
  // The last pack left: a root bosun made (and the folders above it it made) goes too, once empty.
  if (committed) for (const dir of emptiedRoots(fs, plans)) tryRmdir(fs, dir);
  // The folders this run made that hold nothing (it failed, or they were made only to take the
  // lock of a root with nothing to change), deepest first; the others hold what it installed.
  for (const dir of createdDirs.reverse()) tryRmdir(fs, dir);
}

/** One run's writing: every changing root applied with its journal, all committed together. */
interface ApplyRun {
  request: InstallRequest;
  plans: PlannedRoot[];
  runId: string;
  /** The run's time, in every record it writes. */
  stamp: string;
  /** Every root's executor, in the order they were opened (the rollback goes the other way). */
  executors: RootExecutor[];
}

/**
 * Applies the roots that change (and rewrites the install state of those whose settled record
 * went stale), then commits every journal; any failure before that rolls every root back. Once
 * committed, the journals are tidied and each root's result told.
 */
async function apply(request: InstallRequest, plans: PlannedRoot[], changing: PlannedRoot[], helperNeeded: boolean, recovered: Map<string, string[]>, createdDirs: string[], warnings: string[], now: () => Date): Promise<InstallResult> {
  const fs = request.fs;
  const run: ApplyRun = { request, plans, runId: newRunId(now(), request.random ?? (() => randomBytes(4).toString("hex"))), stamp: now().toISOString(), executors: [] };
  const { runId, executors } = run;
  /** Roots whose install state alone was rewritten (their files are unchanged). */
  const refreshed = new Set<string>();
  let helperInstalled = false;
  const total = changing.reduce((sum, { plan }) => sum + plan.actions.filter((action) => MUTATING_ACTIONS.has(effectiveType(action) as never)).length, 0);
  let done = 0;
  try {
    if (helperNeeded && request.helper) helperInstalled = installHelper(fs, request.helper.source, request.helper.target, createdDirs);
    for (const planned of changing) applyRoot(run, planned, createdDirs, () => request.onProgress?.(++done, total));
    // Roots with nothing to change whose settled record no longer says what they were planned
    // from (another root's change came with a new pack): only their install state is rewritten.
    for (const planned of plans) {
      if (!changing.some((other) => other.root === planned.root) && refreshSettled(run, planned)) refreshed.add(planned.root.dir);
    }
    // Every root is applied: commit them all.
    for (const executor of executors) executor.journal.commit(now().toISOString());
  } catch (error) {
    const failures = rollBackRoots(fs, executors, runId);
    if (helperInstalled && request.helper) tryUnlink(fs, request.helper.target);
    throw new InstallFailedError(error, failures);
  } finally {
    for (const executor of executors) {
      try {
        executor.journal.close();
      } catch {
        // closing is best effort
      }
    }
  }

  tidyRoots(fs, executors, request.keepJournals ?? DEFAULT_KEEP_JOURNALS, warnings);
  const byRoot = new Map(executors.filter((executor) => !refreshed.has(executor.root.dir)).map((executor) => [executor.root.dir, executor]));
  const results = plans.map(({ root, plan }) => {
    const executor = byRoot.get(root.dir);
    const base = rootResult(root, plan, executor ? "changed" : "unchanged");
    return {
      ...base,
      journal: executor && exists(fs, statePath(root, MANIFEST_FILE)) ? journalRel(root, runId) : null,
      backups: executor?.backups ?? [],
      recovered: recovered.get(root.dir) ?? [],
      outcomes: executor?.outcomes ?? new Map(),
    };
  });
  // Only a pack whose hooks run bosun's helper has a helper line; it was installed now, or was already there.
  const helperUsed = request.targets.some((target) => target.desired?.usesHelper);
  return result(request, results, request.helper && helperUsed ? { path: request.helper.target, installed: helperInstalled } : null, warnings);
}

/** One changing root: its journal opened, each action applied, then its manifest and install state (with the settled record) written last. */
function applyRoot(run: ApplyRun, { target, root, plan }: PlannedRoot, createdDirs: readonly string[], progress: () => void): void {
  const { request, runId, stamp } = run;
  const journal = new JournalWriter(request.fs, root, runId);
  const executor = new RootExecutor(request.fs, root, journal);
  run.executors.push(executor);
  journal.open(beginRecord(root, runId, stamp, plan.pack.name, request.bosunVersion));
  executor.declareNewFiles(plan.actions);
  for (const action of plan.actions) {
    executor.apply(action);
    if (MUTATING_ACTIONS.has(effectiveType(action) as never)) progress();
  }
  const manifest = nextManifest(plan, { now: stamp, bosunVersion: request.bosunVersion, written: executor.written, madeDirs: executor.madeDirs, removedDirs: executor.removedDirs, createdRoot: createdRootDepth(root, createdDirs) });
  executor.writeStateFile(stateRel(root, MANIFEST_FILE), manifest ? serializeManifest(manifest) : null);
  const state = nextState(plan, stamp, journalRel(root, runId));
  const settled = manifest ? settle(request, run.plans, target, root, plan, manifest, state) : null;
  executor.writeStateFile(stateRel(root, STATE_FILE), manifest ? serializeInstallState(settled ? { ...state, settled } : state) : null);
}

/** A root with nothing to change: its install state rewritten (with its own journal) when its settled record changed; true then. */
function refreshSettled(run: ApplyRun, { target, root, plan }: PlannedRoot): boolean {
  const { request, runId } = run;
  if (!plan.manifest.found) return false;
  const settled = settle(request, run.plans, target, root, plan, plan.manifest.manifest, plan.state);
  if (!settled || JSON.stringify(settled) === JSON.stringify(plan.state.settled)) return false;
  const journal = new JournalWriter(request.fs, root, runId);
  const executor = new RootExecutor(request.fs, root, journal);
  run.executors.push(executor);
  journal.open(beginRecord(root, runId, run.stamp, plan.pack.name, request.bosunVersion));
  executor.writeStateFile(stateRel(root, STATE_FILE), serializeInstallState({ ...plan.state, settled }));
  return true;
}

/**
 * The settled record of a root this run has applied, when it is settled (settled.ts): written
 * with the install state, after every other file of the root.
 */
function settle(request: InstallRequest, plans: { target: InstallTarget; root: InstallRoot; plan: RootPlan }[], target: InstallTarget, root: InstallRoot, plan: RootPlan, manifest: Manifest, state: InstallState): SettledRecord | null {
  const desired = target.desired;
  const context = target.context;
  if (!desired || !context || context.inputs === null || !request.settlePack) return null;
  const files = desired.files.filter((file) => file.root === root.key);
  if (!isSettled(plan, manifest, files)) return null;
  const hooks = desired.hooks.filter((hook) => hook.root === root.key);
  const configFiles = [...hooks.flatMap((hook) => hook.files), ...desired.settings.filter((setting) => setting.root === root.key).map((setting) => setting.file), ...manifest.config.map((record) => record.file), ...(desired.toml?.root === root.key ? [desired.toml.file] : [])];
  // The runtime's other roots where bosun has nothing (and would put nothing) stay settled while empty.
  const emptyRoots = plans.filter((other) => other.target === target && other.root !== root && other.plan.actions.length === 0 && !other.plan.manifest.found && other.plan.stateText === null).map((other) => other.root.dir);
  const settleContext = { inputs: context.inputs, watch: context.watch, runNotes: context.notes, pack: request.settlePack, skipped: desired.skipped, notes: desired.notes, usesHelper: desired.usesHelper };
  return settledRecord(request.fs, root, manifest, state, settleContext, files, configFiles, emptyRoots, context.idleRoots ?? []);
}

function plan(request: InstallRequest, target: InstallTarget, root: InstallRoot, now: () => Date, packHashes: Map<string, string>): RootPlan {
  const fs = request.fs;
  const { state, text } = readInstallState(fs, statePath(root, STATE_FILE));
  const desired = target.desired
    ? {
        files: target.desired.files.filter((file) => file.root === root.key),
        hooks: target.desired.hooks.filter((hook) => hook.root === root.key),
        settings: target.desired.settings.filter((setting) => setting.root === root.key),
        toml: target.desired.toml?.root === root.key ? target.desired.toml : null,
      }
    : null;
  if (isNonFolder(fs, root.dir, true)) {
    throw new InstallFileError(root.dir, `is not a folder, and ${target.runtime.title} keeps its ${root.scope === "global" ? "user" : "project"} configuration in a folder of that name`, "move it out of the way, then run again");
  }
  const manifest = readManifest(fs, statePath(root, MANIFEST_FILE));
  // Read leniently, but bosun must be able to replace it: a folder or FIFO there stops the run.
  if (manifest.notAFile) throw new InstallFileError(statePath(root, MANIFEST_FILE), `is a ${manifest.notAFile}, not bosun's manifest`, "move it out of the way, then run again");
  return planRoot({
    root,
    fs,
    layout: target.runtime.installSurface.layout(target.scope, target.cli?.choice.edition),
    pack: request.pack,
    desired,
    records: request.records,
    manifest,
    state,
    stateText: text,
    now: () => now().toISOString(),
    contractExists: request.contractExists,
    packHashes,
    supportDir: (pack) => (root.key === "main" ? supportDirFor(target.runtime, target.scope, pack) : null),
    ...(target.hold?.has(root.dir) ? { hold: target.hold.get(root.dir) as ReadonlyMap<string, readonly string[]> } : {}),
  });
}

/** Nothing to change: no action touches the disk, no question, no migration to record, the manifest means the same. */
export function isNoop(plan: RootPlan): boolean {
  if (plan.pending.length > 0) return false;
  if (plan.actions.some((action) => MUTATING_ACTIONS.has(action.type) || needsChoice(action) || isBlocked(action))) return false;
  const after = nextManifest(plan, { now: "", bosunVersion: "", written: new Map() });
  return sameManifestMeaning(after, plan.manifest.found ? plan.manifest.manifest : null);
}

function failOnBlocked(plans: { root: InstallRoot; plan: RootPlan }[], request: InstallRequest, rolledBack: readonly RolledBack[] = []): void {
  const blocked = plans.flatMap(({ root, plan }) => plan.actions.filter(isBlocked).map((action) => ({ root: root.dir, action })));
  if (blocked.length > 0) throw new InstallBlockedError(blocked);
  const questions = plans.flatMap(({ root, plan }) => plan.actions.filter(needsChoice).map((action) => ({ root: root.dir, action })));
  if (questions.length === 0) return;
  if (request.resolve !== undefined) {
    for (const { action } of questions) action.resolution = request.resolve;
    return;
  }
  // Without a terminal, fail before anything is written (before the lock, when seen that early).
  if (!request.ask) throw new NeedsChoiceError(questions, rolledBack);
}

/** Copies bosun's hook helper into its data folder (0755, temp file + rename); false when it was already there. */
function installHelper(fs: InstallFs, source: string, target: string, createdDirs: string[]): boolean {
  if (exists(fs, target)) return false;
  // bosun's data folder and its bin/ are private; the folders above them are not bosun's.
  const binDir = dirname(target);
  makeDirs(fs, dirname(dirname(binDir)), createdDirs);
  makeDirs(fs, binDir, createdDirs, 0o700);
  const temp = `${target}.${process.pid}.tmp`;
  const bytes = fs.readFileSync(source);
  const fd = fs.openSync(temp, "wx", 0o755);
  try {
    try {
      fs.writeSync(fd, bytes);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    tryUnlink(fs, temp);
    throw error;
  }
  return true;
}

/**
 * Locks a root, making its folder (and bosun's state folder in it) first; the folders made are
 * added to `created`. Made again when another run's uninstall removed it, empty, meanwhile.
 */
async function lockRoot(fs: InstallFs, root: InstallRoot, created: string[], timeoutMs: number): Promise<HeldLock> {
  for (let attempt = 1; ; attempt++) {
    try {
      makeDirs(fs, stateDir(root), created);
    } catch (error) {
      // A folder removed by another run's uninstall between making it and making the one in it: made again.
      if (errorCode(error) === "ENOENT" && attempt < 3) continue;
      // A folder that cannot be created (permissions, a file in the way) is the user's to fix.
      throw new InstallFailedError(error, []);
    }
    try {
      return await acquireLock(statePath(root, LOCK_FILE), { timeoutMs });
    } catch (error) {
      // A folder or FIFO… where the lock goes is refused by the lock itself (never waited on).
      if (error instanceof UnusableFileError) throw new InstallFileError(error.file, error.problem, "move it out of the way, then run again");
      if (errorCode(error) !== "ENOENT" || attempt === 3) throw error;
    }
  }
}

function stateDir(root: InstallRoot): string {
  return join(root.dir, root.stateDir);
}

/** How many folders, from the root up, this run created to make it. */
function createdRootDepth(root: InstallRoot, created: readonly string[]): number {
  let depth = 0;
  for (let dir = root.dir; created.includes(dir) && dirname(dir) !== dir; dir = dirname(dir)) depth++;
  return depth;
}

/**
 * The roots a committed run took the last pack out of (no manifest now) that bosun had made,
 * with the folders above them it made: deepest first. Only empty ones are removed.
 */
function emptiedRoots(fs: InstallFs, plans: readonly { root: InstallRoot; plan: RootPlan }[]): string[] {
  const dirs = new Set<string>();
  for (const { root, plan } of plans) {
    if (!plan.manifest.found || exists(fs, statePath(root, MANIFEST_FILE))) continue;
    let dir = root.dir;
    for (let level = 0; level < plan.manifest.manifest.createdRoot && dirname(dir) !== dir; level++, dir = dirname(dir)) dirs.add(dir);
  }
  return [...dirs].sort((a, b) => b.split(sep).length - a.split(sep).length);
}

function failIfNotInstalled(plans: readonly { target: InstallTarget; root: InstallRoot; plan: RootPlan }[], pack: string, rolledBack: readonly RolledBack[] = []): void {
  if (plans.some(({ plan }) => hasPack(plan.manifest.manifest, pack))) return;
  const byTarget = new Map<InstallTarget, Set<string>>();
  for (const { target, plan } of plans) {
    const installed = byTarget.get(target) ?? new Set<string>();
    for (const [name, record] of Object.entries(plan.manifest.manifest.packs)) installed.add(`${name} ${record.version}`);
    byTarget.set(target, installed);
  }
  throw new PackNotInstalledError(
    pack,
    [...byTarget].map(([target, installed]) => ({ runtime: target.runtime.id, scope: target.scope, packs: [...installed].sort() })),
    rolledBack,
  );
}

function hasPack(manifest: Manifest, pack: string): boolean {
  return Object.hasOwn(manifest.packs, pack) || manifest.config.some((record) => record.kind === "hook" && record.pack === pack);
}

function result(request: InstallRequest, roots: RootResult[], helper: InstallResult["helper"], warnings: string[]): InstallResult {
  let index = 0;
  return { targets: request.targets.map((target) => ({ target, roots: target.roots.map(() => roots[index++] as RootResult) })), helper, warnings };
}

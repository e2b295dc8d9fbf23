import type { Command } from "commander";
import { displayPath } from "../kernel/paths.js";
import { packageVersion } from "../kernel/package-info.js";
import type { Boot } from "../app/start.js";
import { UserError } from "../kernel/errors.js";
import type { InstallOutcome, InstallPackOptions } from "../install/install-pack.js";
import type { LockReport } from "../install/lock/lock-record.js";
import type { PackAudit } from "../install/audit/pack-audit.js";
import type { InstallScope } from "../runtimes/kit/install-types.js";
import { bootForCommand } from "./boot.js";
import { collect } from "./collect-flag.js";
import type { LockFlags } from "./install-lock.js";
import { styler, writeJson, writeLine, type Output } from "./output.js";
import type { AuditForm } from "./render-audit.js";

export interface InstallFlags extends LockFlags {
  lockTimeout?: string;
  /** commander's name for `--no-verify` (true unless given). */
  verify?: boolean;
}

export function registerInstall(program: Command, output: Output): void {
  const common = (command: Command) =>
    command
      .option("--runtime <ids>", "the runtimes, comma-separated or repeated (claude, codex, gemini, opencode, cursor, copilot, windsurf, qwen, kilo, cline, augment, codebuddy, trae, hermes, antigravity, pi)", collect)
      .option("--all-detected", "every runtime whose folder exists for the scope")
      .option("--scope <scope>", "global (the runtime's user folder) or local (this project)")
      .option("--config-dir <dir>", "the runtime's global folder, instead of its default and environment variables (one runtime)")
      .option("--dry-run", "print the plan, grouped by risk, and change nothing")
      .option("--yes", "apply without asking to confirm the plan")
      .option("--resolve <choice>", "answer for files bosun does not own: keep, or remove (always after a backup)")
      .option("--lock-timeout <seconds>", "how long to wait for another install in the same folder", String(DEFAULT_LOCK_TIMEOUT_S))
      .option("--json", "print the result as JSON");
  common(
    program
      .command("install")
      .description("install a workflow pack (bosun's own by default) into coding agents' folders; --status shows what is installed")
      .argument("[pack]", "a pack folder (default: bosun's own pack)"),
  )
    .option("--status", "show what bosun installed where, and what changed since (read only)")
    .option("--frozen", "install exactly what the project's bosun.lock says (the pack at its locked version and digest, into the runtimes and scopes it lists), or fail before writing anything")
    .option("--check", "compare what is installed with the project's bosun.lock and list every difference; writes nothing, exits 1 on any")
    .option("--no-verify", "skip the closing check (asking each agent's CLI whether it loaded what was installed)")
    .action(async (pack: string | undefined, flags: InstallFlags) => installAction(pack, flags, output));
  common(
    program
      .command("uninstall")
      .description("remove a pack: bosun's unchanged files go, edited ones are backed up first, your files and config stay")
      .argument("[pack]", "the pack's name or folder (default: bosun)"),
  ).action(async (pack: string | undefined, flags: InstallFlags) => runInstallCommand("uninstall", pack, flags, output));
}

/** `bosun install`'s action, with its flags as commander gives them (also run by main's fast path, install-argv.ts). */
export async function installAction(pack: string | undefined, flags: InstallFlags, output: Output): Promise<void> {
  (await import("./install-lock.js")).refuseLockCombinations(flags);
  if (flags.status) return installStatus(flags, output);
  if (flags.check) return checkCommand(pack, flags, output);
  return runInstallCommand("install", pack, flags, output);
}

/**
 * Another command's run of the installer (`bosun mcp sync`): bosun already started, the folder
 * the run works in (a project's root for a local run), and no record in the project's bosun.lock.
 */
export interface DelegatedRun {
  boot: Boot;
  cwd: string;
}

export async function runInstallCommand(mode: "install" | "uninstall", pack: string | undefined, flags: InstallFlags, output: Output, delegated?: DelegatedRun): Promise<void> {
  const frozen = mode === "install" && Boolean(flags.frozen);
  const scope = frozen ? optionalScope(flags.scope) : parseScope(flags.scope, mode);
  const resolve = parseResolve(flags.resolve);
  const lockTimeoutMs = parseLockTimeout(flags.lockTimeout);
  if (!frozen && !flags.runtime?.length && !flags.allDetected) throw new UserError(`name the runtimes with --runtime (e.g. --runtime claude,codex), or pass --all-detected`);
  // Every run plans (or finds the install settled), audits and reports: those modules load while bosun starts.
  const modules = Promise.all([import("../install/install-pack.js"), import("./install-lock.js"), import("./install-audit.js"), import("../install/report.js"), import("./render-install.js"), import("./render-lock.js")]);
  // Awaited after the start; a start that fails leaves it unawaited, not unhandled.
  modules.catch(() => undefined);
  const boot = delegated?.boot ?? (await bootForCommand(output));
  const [installer, locks, audits] = await modules;
  const run = mode === "install" ? installer.installPack : installer.uninstallPack;
  // --frozen: the lock's runtimes and scopes (checked against the pack first), run from the project's root.
  const frozenRun = frozen ? await locks.frozenRuns(pack, flags, scope, boot) : null;
  // A plain run at a project's root records itself in the lock: read now, so a bad lock stops it before any write.
  const lockState = frozen || delegated ? null : await locks.lockBeforeRun(boot);
  const cwd = frozenRun?.root ?? delegated?.cwd ?? process.cwd();
  const runs = frozenRun ? frozenRun.groups.map((group) => ({ scope: group.scope, runtimes: group.runtimes, allDetected: false })) : [{ scope: scope as InstallScope, runtimes: flags.runtime, allDetected: Boolean(flags.allDetected) }];
  const packArg = frozenRun ? frozenRun.packDir : pack;
  // The preview and the run load and hash the pack once when it does not change in between.
  const reuse = new installer.PackReuse();
  const bases = runs.map((entry) => runOptions(entry, { packArg, flags, resolve, lockTimeoutMs, cwd, boot, reuse }));
  const context = { mode, interactive: Boolean((output.stdin ?? process.stdin).isTTY), resolve, yes: Boolean(flags.yes), audits, boot, output };
  // --yes asks nothing: one run plans, shows what the pack runs right before its first write, and applies.
  if (flags.yes && !flags.dryRun && bases.length === 1) {
    const shown = await applyRun(run, bases[0] as InstallPackOptions, undefined, context);
    const lock = lockState ? await locks.recordRun(lockState, shown.outcome, boot) : null;
    return renderAll([shown], false, flags, boot, output, lock ? { lock } : lockPart(frozenRun));
  }
  const previews: Shown[] = [];
  for (const base of bases) {
    // A dry run shows everything the pack runs, so it plans in full even when the install is settled.
    const preview = await run(flags.dryRun ? { ...base, trustSettled: false } : base);
    // Built before anything is written: it compares the plan with what is installed now.
    previews.push({ outcome: preview, audit: await audits.auditOfPreview(preview) });
  }
  if (flags.dryRun) return renderAll(previews, true, flags, boot, output, lockPart(frozenRun));

  const changes = previews.map(({ outcome }) => changeCount(outcome));
  for (const [index, { outcome, audit }] of previews.entries()) if ((changes[index] as number) > 0) await checkBeforeApplying(outcome, audit, context, boot, output);

  const shown: Shown[] = [];
  for (const [index, base] of bases.entries()) {
    const preview = previews[index] as Shown;
    shown.push(changes[index] === 0 ? preview : await applyRun(run, base, preview, context));
  }
  const lock = lockState ? await locks.recordRun(lockState, (shown[0] as Shown).outcome, boot) : null;
  await renderAll(shown, false, flags, boot, output, lock ? { lock } : lockPart(frozenRun));
}

/** A frozen run says so in its report. */
function lockPart(frozenRun: unknown): { frozen?: true } {
  return frozenRun ? { frozen: true } : {};
}

/** How many roots a run's outcome changes (or would change), its hook helper counted as one. */
function changeCount(outcome: InstallOutcome): number {
  return outcome.result.targets.flatMap(({ roots }) => roots).filter((root) => root.status !== "unchanged").length + (outcome.result.helper && !outcome.result.helper.installed ? 1 : 0);
}

/** One run's options, as its preview (a dry run) takes them; the real run adds to them. */
export function runOptions(
  entry: { scope: InstallScope; runtimes: string[] | undefined; allDetected: boolean },
  context: { packArg: string | undefined; flags: InstallFlags; resolve: "keep" | "remove" | undefined; lockTimeoutMs: number; cwd: string; boot: Boot; reuse: InstallPackOptions["reuse"] },
): InstallPackOptions {
  const { packArg, flags, resolve, lockTimeoutMs, cwd, boot, reuse } = context;
  return {
    ...(packArg === undefined ? {} : { pack: packArg }),
    ...(entry.runtimes ? { runtimes: entry.runtimes } : {}),
    allDetected: entry.allDetected,
    scope: entry.scope,
    ...(flags.configDir === undefined ? {} : { configDir: flags.configDir }),
    dryRun: true,
    ...(resolve ? { resolve } : {}),
    lockTimeoutMs,
    env: boot.agentEnv,
    home: boot.paths.home,
    cwd,
    dataDir: boot.paths.data,
    cacheDir: boot.paths.cache,
    packageRoot: boot.packageRoot,
    bosunVersion: packageVersion(),
    agentsConfig: boot.config?.value.agents,
    ...(boot.config?.value.install?.max_pack_file_bytes === undefined ? {} : { maxPackFileBytes: boot.config.value.install.max_pack_file_bytes }),
    reuse,
  };
}

/**
 * Applies one run that changes something: with its audit made again under the lock (shown then
 * with --yes, before the first write), a progress bar, and the questions asked on a terminal;
 * the hook snapshot is saved after it. Without a preview (`--yes`: nothing was planned before), a
 * run that finds nothing to change is shown as its preview would have been.
 */
async function applyRun(run: (options: InstallPackOptions) => Promise<InstallOutcome>, base: InstallPackOptions, preview: Shown | undefined, context: ApplyContext): Promise<Shown> {
  const { mode, interactive, resolve, yes, audits, boot, output } = context;
  let applied = preview?.audit ?? null;
  // An install shows what its pack runs; an uninstall has nothing to show.
  const audited = preview ? preview.audit !== null : mode === "install";
  const beforeApply = audited ? await audits.auditBeforeApplying(yes, boot, output, (made) => (applied = made)) : undefined;
  const progress = await progressBar(output, mode);
  let outcome: InstallOutcome;
  try {
    outcome = await run({
      ...base,
      dryRun: false,
      ...(interactive && !resolve ? { ask: async (questions) => (await import("./install-prompt.js")).askInstallQuestions(output, boot.paths.home, questions) } : {}),
      onProgress: progress.update,
      ...(beforeApply ? { beforeApply } : {}),
    });
  } finally {
    progress.stop();
  }
  if (!preview && changeCount(outcome) === 0) return { outcome, audit: await audits.auditOfPreview(outcome) };
  logOutcome(boot, outcome);
  await (await import("./hook-snapshot.js")).saveHookSnapshotAfterInstall(boot, output, outcome);
  // What the pack runs was shown before applying: the report after it leaves the block out (its JSON keeps it).
  return { outcome, audit: applied, form: "none" };
}

/** `bosun install --check`: the project's lock against what is installed (install-lock.ts). */
async function checkCommand(pack: string | undefined, flags: InstallFlags, output: Output): Promise<void> {
  const scope = optionalScope(flags.scope);
  const boot = await bootForCommand(output);
  await (await import("./install-lock.js")).lockCheckCommand(pack, flags, scope, boot, output);
}

/**
 * Before a real run: blocked paths and unanswerable questions fail with what to do (nothing is
 * written); on a terminal the plan is shown and confirmed (default no) unless `--yes`; without
 * a terminal `--yes` is required. The plan shown includes what the pack will run (render-audit.ts).
 */
async function checkBeforeApplying(preview: InstallOutcome, audit: PackAudit | null, context: { interactive: boolean; resolve: string | undefined; yes: boolean }, boot: Boot, output: Output): Promise<void> {
  const { InstallBlockedError, NeedsChoiceError } = await import("../install/install-errors.js");
  const { isBlocked, needsChoice } = await import("../install/plan/plan-types.js");
  const all = preview.result.targets.flatMap(({ roots }) => roots.flatMap((root) => root.plan.actions.map((action) => ({ root: root.root.dir, action, interrupted: root.interrupted }))));
  const interrupted = all.some((entry) => entry.interrupted);
  const blocked = all.filter(({ action }) => isBlocked(action));
  if (blocked.length > 0 && !interrupted) throw new InstallBlockedError(blocked);
  const questions = all.filter(({ action }) => needsChoice(action));
  if (questions.length > 0 && !context.resolve && !context.interactive && !interrupted) throw new NeedsChoiceError(questions);
  if (context.yes) return;
  const { buildInstallReport } = await import("../install/report.js");
  const report = buildInstallReport(preview, true, audit);
  const changes = report.targets.flatMap((target) => target.roots).filter((root) => root.status !== "unchanged");
  const where = changes.map((root) => displayPath(root.dir, boot.paths.home)).join(", ") || displayPath(preview.result.helper?.path ?? "", boot.paths.home);
  if (!context.interactive) throw new UserError(`bosun ${preview.mode} would change ${where}; pass --yes to do it (stdin is not a terminal), or --dry-run to see the plan`);
  const { installLines } = await import("./render-install.js");
  // The plan is part of the question (you confirm what you see): written even with --quiet.
  for (const line of installLines(report, boot.paths.home, styler(output, "stderr"), "changes")) writeLine(output.stderr, line);
  writeLine(output.stderr);
  const { askYesNo } = await import("./confirm.js");
  const answer = await askYesNo(output, `Apply these changes?`);
  if (!answer) throw new UserError("nothing was changed");
}

/** What applying a run needs from the command. */
interface ApplyContext {
  mode: string;
  interactive: boolean;
  resolve: string | undefined;
  yes: boolean;
  audits: typeof import("./install-audit.js");
  boot: Boot;
  output: Output;
}

/** One run's outcome as the report shows it: with what the pack runs (its audit), and how much of that block the text shows. */
interface Shown {
  outcome: InstallOutcome;
  audit: PackAudit | null;
  form?: AuditForm | "none";
}

/**
 * The reports of a command's runs (one; a frozen install has one per scope the lock lists). The
 * lock's part: after a plain run, what it did to `bosun.lock` (`lock`); a frozen run says so.
 * `--json` prints one report, or for `--frozen` `{"frozen": true, "runs": [...]}`.
 */
async function renderAll(runs: Shown[], dryRun: boolean, flags: InstallFlags, boot: Boot, output: Output, lockPart: { frozen?: true; lock?: LockReport | { file: string; error: string } }): Promise<void> {
  const [{ buildInstallReport }, { installLines }, { lockLine }] = await Promise.all([import("../install/report.js"), import("./render-install.js"), import("./render-lock.js")]);
  const reports: Record<string, unknown>[] = [];
  const lines: string[] = [];
  for (const { outcome, audit, form } of runs) {
    const report = buildInstallReport(outcome, dryRun, audit);
    const verify = outcome.mode === "install" && !dryRun && flags.verify !== false ? await verifyInstalled(outcome, boot) : null;
    reports.push({ ...report, ...(verify ? { verify } : {}) });
    if (lines.length > 0) lines.push("");
    lines.push(...installLines(report, boot.paths.home, styler(output), form));
    if (verify) lines.push(...(await import("./render-doctor.js")).closingCheckLines(verify, boot.paths.home, styler(output)));
  }
  if (flags.json) return writeJson(output, lockPart.frozen ? { frozen: true, runs: reports } : { ...reports[0], ...(lockPart.lock ? { lock: lockPart.lock } : {}) });
  for (const line of lines) writeLine(output.stdout, line);
  const lockText = lockPart.lock ? lockLine(lockPart.lock, boot.paths.home) : null;
  if (lockText) writeLine(output.stdout, `\n${lockText}`);
}

/**
 * The closing check: each runtime just installed into whose CLI is there is asked (offline, all
 * at once, within doctor's default timeout) whether it loaded the pack's artifacts. Null when
 * none of their CLIs is installed.
 */
async function verifyInstalled(outcome: InstallOutcome, boot: Boot) {
  const [{ runDoctor, DEFAULT_PROBE_TIMEOUT_MS }, { closingCheck }] = await Promise.all([import("../doctor/doctor.js"), import("../doctor/closing-check.js")]);
  const targets = outcome.result.targets.map(({ target }) => target);
  const report = await runDoctor({
    runtimes: [...new Map(targets.map((target) => [target.runtime.id, target.runtime])).values()],
    scopes: [...new Set(targets.map((target) => target.scope))],
    env: boot.agentEnv,
    home: boot.paths.home,
    cwd: process.cwd(),
    dataDir: boot.paths.data,
    agentsConfig: boot.config?.value.agents,
    timeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
  });
  const check = closingCheck(report, outcome.pack.name);
  // No CLI there to ask: nothing to report (the install's own report is all there is).
  return check.runtimes.length > 0 ? check : null;
}

/** `bosun install --status [--runtime R] [--scope S] [--json]`. */
async function installStatus(flags: InstallFlags, output: Output): Promise<void> {
  const scopes: InstallScope[] | undefined = flags.scope === undefined ? undefined : [parseScope(flags.scope, "install")];
  const boot = await bootForCommand(output);
  const [{ collectInstallStatus }, registry, nodeFs, { installStatusLines }] = await Promise.all([
    import("../install/records/install-status.js"),
    import("../runtimes/registry.js"),
    import("node:fs"),
    import("./render-install.js"),
  ]);
  const named = (flags.runtime ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter(Boolean);
  const runtimes = named.length > 0 ? named.map((id) => registry.getInstallRuntime(id)) : registry.listInstallRuntimes();
  const statuses = collectInstallStatus({
    runtimes,
    ...(scopes ? { scopes } : {}),
    ctx: { env: boot.agentEnv, home: boot.paths.home, cwd: process.cwd() },
    fs: nodeFs,
    checkDrift: true,
    includeMissing: named.length > 0,
  });
  if (flags.json) return writeJson(output, { runtimes: statuses });
  for (const line of installStatusLines(statuses, boot.paths.home, styler(output))) writeLine(output.stdout, line);
}

interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A progress bar on stderr for long runs, where a spinner is drawn (see createSpinner). */
async function progressBar(output: Output, mode: string): Promise<Progress> {
  const spinner = await (await import("./spinner.js")).createSpinner(output);
  return {
    update(done, total) {
      if (total < 50) return;
      const slots = 24;
      const filled = Math.round((done / total) * slots);
      spinner.show(`${mode === "install" ? "Installing" : "Removing"} [${"#".repeat(filled)}${"-".repeat(slots - filled)}] ${done}/${total}`);
    },
    stop: spinner.stop,
  };
}

function logOutcome(boot: Boot, outcome: InstallOutcome): void {
  const { log } = boot;
  for (const { target, roots } of outcome.result.targets) {
    for (const root of roots) {
      if (root.status !== "changed") continue;
      log.info(`pack ${outcome.mode}ed`, { pack: outcome.pack.name, version: outcome.pack.version, runtime: target.runtime.id, scope: target.scope, root: root.root.dir, journal: root.journal, backups: root.backups.length });
    }
  }
}

function parseScope(value: string | undefined, mode: string): InstallScope {
  if (value === "global" || value === "local") return value;
  if (value === undefined) throw new UserError(`pass --scope global (the runtime's user folder) or --scope local (this project) to bosun ${mode}`);
  throw new UserError(`--scope must be global or local, not ${JSON.stringify(value.slice(0, 40))}`);
}

/** `--scope` where it is optional (`--frozen`, `--check`: the lock lists the scopes). */
function optionalScope(value: string | undefined): InstallScope | undefined {
  return value === undefined ? undefined : parseScope(value, "install");
}

function parseResolve(value: string | undefined): "keep" | "remove" | undefined {
  if (value === undefined || value === "keep" || value === "remove") return value;
  throw new UserError(`--resolve must be keep or remove, not ${JSON.stringify(value.slice(0, 40))}`);
}

/** How long an install waits for another install in the same folder, unless told (`--lock-timeout`); the dashboard's too. */
export const DEFAULT_LOCK_TIMEOUT_S = 30;

function parseLockTimeout(value: string | undefined): number {
  const seconds = Number(value ?? String(DEFAULT_LOCK_TIMEOUT_S));
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600 || value?.trim() === "") throw new UserError(`--lock-timeout must be a number of seconds from 0 to 3600, not ${JSON.stringify(String(value).slice(0, 40))}`);
  return seconds * 1000;
}

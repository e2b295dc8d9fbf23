import type { Command } from "commander";
import { displayPath } from "../boot/paths.js";
import { packageVersion } from "../boot/package-info.js";
import type { Boot } from "../boot/start.js";
import { UserError } from "../errors.js";
import type { InstallOutcome, InstallPackOptions } from "../install/install-pack.js";
import type { InstallScope } from "../runtimes/install-types.js";
import { bootForCommand } from "./boot.js";
import { styler, writeJson, writeLine, type Output } from "./output.js";

interface InstallFlags {
  runtime?: string[];
  allDetected?: boolean;
  scope?: string;
  configDir?: string;
  dryRun?: boolean;
  yes?: boolean;
  resolve?: string;
  lockTimeout?: string;
  status?: boolean;
  json?: boolean;
  /** commander's name for `--no-verify` (true unless given). */
  verify?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

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
      .option("--lock-timeout <seconds>", "how long to wait for another install in the same folder", "30")
      .option("--json", "print the result as JSON");
  common(
    program
      .command("install")
      .description("install a workflow pack (bosun's own by default) into coding agents' folders; --status shows what is installed")
      .argument("[pack]", "a pack folder (default: bosun's own pack)"),
  )
    .option("--status", "show what bosun installed where, and what changed since (read only)")
    .option("--no-verify", "skip the closing check (asking each agent's CLI whether it loaded what was installed)")
    .action(async (pack: string | undefined, flags: InstallFlags) => (flags.status ? installStatus(flags, output) : runInstallCommand("install", pack, flags, output)));
  common(
    program
      .command("uninstall")
      .description("remove a pack: bosun's unchanged files go, edited ones are backed up first, your files and config stay")
      .argument("[pack]", "the pack's name or folder (default: bosun)"),
  ).action(async (pack: string | undefined, flags: InstallFlags) => runInstallCommand("uninstall", pack, flags, output));
}

async function runInstallCommand(mode: "install" | "uninstall", pack: string | undefined, flags: InstallFlags, output: Output): Promise<void> {
  const scope = parseScope(flags.scope, mode);
  const resolve = parseResolve(flags.resolve);
  const lockTimeoutMs = parseLockTimeout(flags.lockTimeout);
  if (!flags.runtime?.length && !flags.allDetected) throw new UserError(`name the runtimes with --runtime (e.g. --runtime claude,codex), or pass --all-detected`);
  const boot = await bootForCommand(output);
  const installer = await import("../install/install-pack.js");
  const run = mode === "install" ? installer.installPack : installer.uninstallPack;
  const base: InstallPackOptions = {
    ...(pack === undefined ? {} : { pack }),
    ...(flags.runtime ? { runtimes: flags.runtime } : {}),
    allDetected: Boolean(flags.allDetected),
    scope,
    ...(flags.configDir === undefined ? {} : { configDir: flags.configDir }),
    dryRun: true,
    ...(resolve ? { resolve } : {}),
    lockTimeoutMs,
    env: boot.agentEnv,
    home: boot.paths.home,
    cwd: process.cwd(),
    dataDir: boot.paths.data,
    cacheDir: boot.paths.cache,
    packageRoot: boot.packageRoot,
    bosunVersion: packageVersion(),
    agentsConfig: boot.config?.value.agents,
    ...(boot.config?.value.install?.max_pack_file_bytes === undefined ? {} : { maxPackFileBytes: boot.config.value.install.max_pack_file_bytes }),
  };
  const preview = await run(base);
  if (flags.dryRun) return render(preview, true, flags, boot, output);

  const interactive = Boolean((output.stdin ?? process.stdin).isTTY);
  const roots = preview.result.targets.flatMap(({ roots }) => roots);
  const changing = roots.filter((root) => root.status !== "unchanged").length + (preview.result.helper && !preview.result.helper.installed ? 1 : 0);
  if (changing === 0) return render(preview, false, flags, boot, output);
  await checkBeforeApplying(preview, { interactive, resolve, yes: Boolean(flags.yes) }, boot, output);

  const progress = await progressBar(output, mode);
  let outcome: InstallOutcome;
  try {
    outcome = await run({
      ...base,
      dryRun: false,
      ...(interactive && !resolve ? { ask: async (questions) => (await import("./install-prompt.js")).askInstallQuestions(output, boot.paths.home, questions) } : {}),
      onProgress: progress.update,
    });
  } finally {
    progress.stop();
  }
  logOutcome(boot, outcome);
  await (await import("./hook-snapshot.js")).saveHookSnapshotAfterInstall(boot, output, outcome);
  await render(outcome, false, flags, boot, output);
}

/**
 * Before a real run: blocked paths and unanswerable questions fail with what to do (nothing is
 * written); on a terminal the plan is shown and confirmed (default no) unless `--yes`; without
 * a terminal `--yes` is required.
 */
async function checkBeforeApplying(preview: InstallOutcome, context: { interactive: boolean; resolve: string | undefined; yes: boolean }, boot: Boot, output: Output): Promise<void> {
  const { InstallBlockedError, NeedsChoiceError } = await import("../install/install-errors.js");
  const { isBlocked, needsChoice } = await import("../install/plan-types.js");
  const all = preview.result.targets.flatMap(({ roots }) => roots.flatMap((root) => root.plan.actions.map((action) => ({ root: root.root.dir, action, interrupted: root.interrupted }))));
  const interrupted = all.some((entry) => entry.interrupted);
  const blocked = all.filter(({ action }) => isBlocked(action));
  if (blocked.length > 0 && !interrupted) throw new InstallBlockedError(blocked);
  const questions = all.filter(({ action }) => needsChoice(action));
  if (questions.length > 0 && !context.resolve && !context.interactive && !interrupted) throw new NeedsChoiceError(questions);
  if (context.yes) return;
  const { buildInstallReport } = await import("../install/report.js");
  const report = buildInstallReport(preview, true);
  const changes = report.targets.flatMap((target) => target.roots).filter((root) => root.status !== "unchanged");
  const where = changes.map((root) => displayPath(root.dir, boot.paths.home)).join(", ") || displayPath(preview.result.helper?.path ?? "", boot.paths.home);
  if (!context.interactive) throw new UserError(`bosun ${preview.mode} would change ${where}; pass --yes to do it (stdin is not a terminal), or --dry-run to see the plan`);
  const { installLines } = await import("./render-install.js");
  // The plan is part of the question (you confirm what you see): written even with --quiet.
  for (const line of installLines(report, boot.paths.home, styler(output, "stderr"))) writeLine(output.stderr, line);
  writeLine(output.stderr);
  const { askYesNo } = await import("./confirm.js");
  const answer = await askYesNo(output, `Apply these changes?`);
  if (!answer) throw new UserError("nothing was changed");
}

async function render(outcome: InstallOutcome, dryRun: boolean, flags: InstallFlags, boot: Boot, output: Output): Promise<void> {
  const [{ buildInstallReport }, { installLines }] = await Promise.all([import("../install/report.js"), import("./render-install.js")]);
  const report = buildInstallReport(outcome, dryRun);
  const verify = outcome.mode === "install" && !dryRun && flags.verify !== false ? await verifyInstalled(outcome, boot) : null;
  if (flags.json) return writeJson(output, verify ? { ...report, verify } : report);
  for (const line of installLines(report, boot.paths.home, styler(output))) writeLine(output.stdout, line);
  if (verify) for (const line of (await import("./render-doctor.js")).closingCheckLines(verify, boot.paths.home, styler(output))) writeLine(output.stdout, line);
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
    import("../install/install-status.js"),
    import("../runtimes/install-registry.js"),
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

function parseResolve(value: string | undefined): "keep" | "remove" | undefined {
  if (value === undefined || value === "keep" || value === "remove") return value;
  throw new UserError(`--resolve must be keep or remove, not ${JSON.stringify(value.slice(0, 40))}`);
}

function parseLockTimeout(value: string | undefined): number {
  const seconds = Number(value ?? "30");
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600 || value?.trim() === "") throw new UserError(`--lock-timeout must be a number of seconds from 0 to 3600, not ${JSON.stringify(String(value).slice(0, 40))}`);
  return seconds * 1000;
}

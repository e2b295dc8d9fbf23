import { describeWarning } from "../kernel/config/config-warning.js";
import { createFileLog, type Log, type LogEcho } from "../kernel/log.js";
import { displayPath, resolvePaths } from "../kernel/paths.js";
import { startBosun, type Boot, type BootOptions } from "../app/start.js";
import { describeError } from "../kernel/errors.js";
import type { StartupListener } from "../startup/runner.js";
import { detail, notify, writeLine, type Output } from "./output.js";

export interface BootReporting {
  /** Announce startup-migration changes on stderr (they are logged either way). */
  announceMigrations?: boolean;
  /** Print config warnings on stderr; off for commands that show them themselves. */
  printWarnings?: boolean;
}

/**
 * Starts bosun for a command. Each change a startup migration makes is announced on stderr and
 * then written to the log the moment it is applied, with the step's warnings, so a moved file is
 * never a surprise, even when the config read next is refused or the log cannot be written; a
 * start with nothing to migrate prints and writes nothing. Config warnings (unknown keys, a
 * project config not used) follow, once per start. `--quiet` leaves out the announcements (the
 * log keeps them), never a warning; `--verbose` adds what the start found and read, and shows
 * every line logged from then on.
 */
export async function bootForCommand(output: Output, options: BootOptions = {}, reporting: BootReporting = {}): Promise<Boot> {
  const started = performance.now();
  const env = options.env ?? output.env;
  const announce = (line: string) => reporting.announceMigrations !== false && notify(output, line);
  const warn = (line: string) => reporting.announceMigrations !== false && writeLine(output.stderr, line);
  const log = logForCommand(createFileLog(resolvePaths(env, options.cwd ?? process.cwd()).state), output);
  const migrationListener: StartupListener = {
    applied(stepId, action) {
      announce(`bosun: ${stepId}: ${action.describe}`);
      log.info("startup migration applied", { step: stepId, action: action.describe });
    },
    warned(stepId, message) {
      warn(`bosun: ${stepId}: ${message}`);
      log.warn("startup migration note", { step: stepId, note: message });
    },
  };
  const boot = await startBosun({ env, migrationListener, log, ...options });
  if (output.verbosity === "verbose") describeStart(boot, output, performance.now() - started);
  if (reporting.printWarnings !== false) {
    for (const warning of boot.warnings) writeLine(output.stderr, `bosun: warning: ${describeWarning(warning)}`);
  }
  return boot;
}

/**
 * The one log of a command's process. A log that cannot be written (`logs/` is a file,
 * `bosun.log` a FIFO, the disk is full) never stops a command: the first failure is a warning
 * on stderr, once, and later lines are not written. `--verbose` shows every line either way.
 */
function logForCommand(file: Log, output: Output): Log {
  const echo = output.verbosity === "verbose" ? echoTo(output) : undefined;
  let unusable = false;
  const line =
    (level: "info" | "warn" | "error") =>
    (message: string, fields: Record<string, unknown> = {}): void => {
      if (!unusable) {
        try {
          file[level](message, fields);
        } catch (error) {
          unusable = true;
          writeLine(output.stderr, `bosun: warning: not logging: ${describeError(error)}`);
        }
      }
      echo?.(level, message, fields);
    };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

/** `--verbose`: each log line on stderr as it is written, `bosun: log: message key=value…`. */
function echoTo(output: Output): LogEcho {
  return (level, message, fields) => {
    const pairs = Object.entries(fields).map(([key, value]) => `${key}=${typeof value === "string" && /^\S+$/.test(value) ? value : JSON.stringify(value)}`);
    detail(output, `bosun: log${level === "info" ? "" : ` (${level})`}: ${[message, ...pairs].join(" ")}`);
  };
}

/** `--verbose`: what the start found, read and ran, in the order it did. */
function describeStart(boot: Boot, output: Output, ms: number): void {
  const show = (path: string) => displayPath(path, boot.paths.home);
  const { paths, project, dotenv, migrations, plugins } = boot;
  detail(output, `bosun: folders: config ${show(paths.config)} · data ${show(paths.data)} · cache ${show(paths.cache)} · state ${show(paths.state)}${paths.bosunHome ? " (BOSUN_HOME)" : ""}`);
  detail(output, `bosun: project: ${project ? show(project.root) : "none"}`);
  for (const source of boot.configSources) detail(output, `bosun: config (${source.scope}): ${show(source.file)}${source.exists ? "" : " (not there)"}`);
  const variables = dotenv.applied.length + dotenv.shadowed.length;
  detail(output, `bosun: .env: ${show(dotenv.file)}${dotenv.problem ? ` (not used: ${dotenv.problem})` : dotenv.found ? ` (${variables} variable${variables === 1 ? "" : "s"}, ${dotenv.shadowed.length} already set in the environment)` : " (not there)"}`);
  const changed = migrations.steps.filter((step) => step.actions.length > 0).map((step) => `${step.id} (${step.actions.length})`);
  detail(output, `bosun: startup migrations: ${migrations.steps.length} steps, ${changed.length ? `changes by ${changed.join(", ")}` : "nothing to do"}`);
  detail(output, `bosun: plugins: ${plugins.length ? plugins.map((plugin) => `${plugin.name}${plugin.problem ? " (broken)" : plugin.enabled ? "" : " (off)"}`).join(", ") : "none"}`);
  detail(output, `bosun: started in ${ms.toFixed(0)} ms`);
}

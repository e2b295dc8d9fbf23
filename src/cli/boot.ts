import { describeWarning } from "../boot/config-warning.js";
import { createFileLog } from "../boot/log.js";
import { resolvePaths } from "../boot/paths.js";
import { startBosun, type Boot, type BootOptions } from "../boot/start.js";
import type { MigrationListener } from "../migrations/runner.js";
import { writeLine, type Output } from "./output.js";

export interface BootReporting {
  /** Announce startup-migration changes on stderr (they are logged either way). */
  announceMigrations?: boolean;
  /** Print config warnings on stderr; off for commands that show them themselves. */
  printWarnings?: boolean;
}

/**
 * Starts bosun for a command. Each change a startup migration makes is written to the log and
 * announced on stderr the moment it is applied, with the step's warnings, so a moved file is
 * never a surprise, even when the config read next is refused; a start with nothing to migrate
 * prints and writes nothing. Config warnings (unknown keys, a project config not used) follow,
 * once per start.
 */
export async function bootForCommand(output: Output, options: BootOptions = {}, reporting: BootReporting = {}): Promise<Boot> {
  const env = options.env ?? output.env;
  const say = (line: string) => reporting.announceMigrations !== false && writeLine(output.stderr, line);
  let log: ReturnType<typeof createFileLog> | undefined;
  const logFile = () => (log ??= createFileLog(resolvePaths(env, options.cwd ?? process.cwd()).state));
  const migrationListener: MigrationListener = {
    applied(stepId, action) {
      logFile().info("startup migration applied", { step: stepId, action: action.describe });
      say(`bosun: ${stepId}: ${action.describe}`);
    },
    warned(stepId, message) {
      logFile().warn("startup migration note", { step: stepId, note: message });
      say(`bosun: ${stepId}: ${message}`);
    },
  };
  const boot = await startBosun({ env, migrationListener, ...options });
  if (reporting.printWarnings !== false) {
    for (const warning of boot.warnings) writeLine(output.stderr, `bosun: warning: ${describeWarning(warning)}`);
  }
  return boot;
}

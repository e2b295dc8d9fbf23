import { extensibleAsync } from "../extensions/extensible.js";
import type { ExtensionHost } from "../extensions/host.js";
import { BUILTIN_STEPS, extensionStep, StartupRunner, STARTUP_MIGRATION_POINT, type StartupListener, type StartupReport } from "./runner.js";
import type { StartupContext } from "./types.js";

export interface StartupPassOptions {
  dryRun: boolean;
  /**
   * Called when the built-in steps changed something, before extensions are discovered: the
   * legacy move may just have brought plugins (and the config that enables them) into place.
   */
  refreshExtensionRoots?: () => void;
  lockTimeoutMs?: number;
  listener?: StartupListener;
}

/**
 * The startup migration pass: built-in steps, then `startup_migration` extensions, each step run
 * to completion before the next, in file-name order. It is an extensible function named
 * `run_startup_migrations`, so plugins can hook `run_startup_migrations/start` and `/end`.
 */
export function runStartupMigrations(host: ExtensionHost, ctx: StartupContext, options: StartupPassOptions): Promise<StartupReport> {
  const pass = async (): Promise<StartupReport> => {
    const runner = new StartupRunner(ctx, options.dryRun, options.lockTimeoutMs, options.listener);
    try {
      for (const step of BUILTIN_STEPS) await runner.run(step);
      if (runner.report.changed) options.refreshExtensionRoots?.();
      for (const extension of await host.load(STARTUP_MIGRATION_POINT)) {
        await runner.run(extensionStep(host, extension), extension.file);
      }
    } finally {
      runner.finish();
    }
    return runner.report;
  };
  return extensibleAsync(host, "run_startup_migrations", pass)();
}

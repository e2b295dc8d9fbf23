import type { Command } from "commander";
import { bootForCommand } from "./boot.js";
import { styler, writeJson, writeLine, type Output } from "./output.js";
import { migrationLines } from "./render-migrations.js";

export function registerMigrate(program: Command, output: Output): void {
  program
    .command("migrate")
    .description("run the startup migrations now and show what each step did (they also run at every start)")
    .option("--dry-run", "show what each step would do, without doing it")
    .option("--json", "print the report as JSON")
    .action(async (options: { dryRun?: boolean; json?: boolean }) => {
      const boot = await bootForCommand(output, { dryRunMigrations: Boolean(options.dryRun), skipConfig: true }, { announceMigrations: false });
      const report = boot.migrations;
      if (options.json) return writeJson(output, report);
      const style = styler(output);
      const title = report.dryRun ? "Startup migrations (dry run: nothing was changed)" : "Startup migrations";
      for (const line of [style("bold", title), ...migrationLines(report, style, true)]) writeLine(output.stdout, line);
    });
}

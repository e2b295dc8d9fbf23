import type { Command } from "commander";
import { describeWarning } from "../kernel/config/config-warning.js";
import { displayPath } from "../kernel/paths.js";
import { bootForCommand } from "./boot.js";
import { saveHookSnapshot } from "./hook-snapshot.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";
import { migrationLines } from "./render-migrations.js";
import { buildStatusReport, SUBSYSTEM_TITLES, type StatusReport, type SubsystemName } from "./status-report.js";
import type { SubsystemStatus } from "./subsystem-status.js";

export function registerStatus(program: Command, output: Output): void {
  program
    .command("status")
    .description("one screen: paths, startup migrations, plugins and each subsystem (the default command)")
    .option("--json", "print the status as JSON")
    .action(async (options: { json?: boolean }) => runStatus(options, output));
}

/** `bosun status [--json]` (also run directly by main's fast path). */
export async function runStatus(options: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const { report, sections } = await buildStatusReport(boot, output);
  saveHookSnapshot(boot, report.summary);
  if (options.json) writeJson(output, report);
  else renderStatus(report, sections, boot.paths.home, output);
}

function projectNotUsed(report: StatusReport): boolean {
  return report.config.warnings.some((warning) => warning.kind === "ignored-project");
}

export function renderStatus(report: StatusReport, sections: Record<SubsystemName, SubsystemStatus>, home: string, output: Output): void {
  const style = styler(output);
  const show = (path: string) => displayPath(path, home);
  const lines: string[] = [style("bold", `bosun ${report.version}`), ""];

  lines.push(style("bold", "Paths"));
  lines.push(
    ...columns([
      ["config", show(report.paths.config)],
      ["data", show(report.paths.data)],
      ["cache", show(report.paths.cache)],
      ["state", show(report.paths.state)],
      ["project", report.project ? show(report.project.root) : style("dim", projectNotUsed(report) ? "none (the project config found is not used: see Config)" : "none (no bosun.json or .bosun/ above this folder)")],
    ]),
  );
  lines.push("", style("bold", "Config"));
  const dotenv = report.dotenv.problem
    ? style("yellow", `not used: ${report.dotenv.problem}`)
    : report.dotenv.found
      ? `${report.dotenv.variables} variable${report.dotenv.variables === 1 ? "" : "s"}`
      : style("dim", "none");
  lines.push(
    ...columns([
      ...report.config.files.map((file) => [file.scope, show(file.file), file.exists ? "" : style("dim", "none")]),
      [".env", show(report.dotenv.file), dotenv],
    ]),
    ...report.config.warnings.map((warning) => `  ${style("yellow", "!")} ${describeWarning(warning, show)}`),
  );
  lines.push("", style("bold", "Startup migrations"), ...migrationLines(report.migrations, style));
  lines.push("", style("bold", "Plugins"));
  if (report.plugins.length === 0) lines.push(`  ${style("dim", `none installed (${show(report.paths.data)}/plugins)`)}`);
  else {
    lines.push(
      ...columns(
        report.plugins.map((plugin) => [
          plugin.name,
          plugin.version ?? "",
          plugin.problem ? style("yellow", `broken: ${plugin.problem}`) : plugin.enabled ? style("green", "enabled") : style("dim", "disabled"),
        ]),
      ),
    );
  }
  for (const [name, section] of Object.entries(sections) as [SubsystemName, SubsystemStatus][]) {
    const detail = section.state === "not-set-up" ? style("dim", section.detail) : section.state === "attention" ? style("yellow", section.detail) : section.detail;
    lines.push("", `${style("bold", SUBSYSTEM_TITLES[name])}  ${detail}`);
    for (const line of section.lines ?? []) lines.push(`  ${line}`);
  }
  if (report.next.length > 0) {
    lines.push("", style("bold", "Next steps"));
    report.next.forEach((step, i) => lines.push(`  ${i + 1}. ${step}`));
  }
  for (const line of lines) writeLine(output.stdout, line);
}

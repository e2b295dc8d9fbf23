import { displayPath, displayPathsIn } from "../kernel/paths.js";
import { signInLabel, type AgentReport } from "../runtimes/collect-status.js";
import { getRuntime } from "../runtimes/registry.js";
import { columns, styler, type Output } from "./output.js";

type Style = ReturnType<typeof styler>;

/** The `bosun agents` table: agent, name, installed, signed in (how), where, hint. */
export function agentsTable(reports: AgentReport[], home: string, dataDir: string, output: Output): string[] {
  const style = styler(output);
  const header = ["AGENT", "NAME", "INSTALLED", "SIGNED IN", "WHERE", "HINT"].map((title) => style("dim", title));
  const rows = reports.map((report) => [
    style("bold", report.id),
    report.title,
    report.installed ? style("green", "yes") : style("dim", "no"),
    report.auth.connected ? style("green", signInLabel(report)) : report.auth.error ? style("yellow", "error") : style("dim", "no"),
    report.auth.authPath ? displayPath(report.auth.authPath, home) : "",
    hint(report, home, dataDir, style),
  ]);
  return columns([header, ...rows]);
}

function hint(report: AgentReport, home: string, dataDir: string, style: Style): string {
  const runtime = getRuntime(report.id);
  if (report.auth.error) return style("yellow", displayPathsIn(report.auth.error, home));
  if (!report.installed) return `install: ${report.installHint}`;
  if (!report.auth.connected) return `sign in: ${report.loginHint}`;
  if (report.auth.mode === "plugin" && runtime.pluginLoginHint) return runtime.pluginLoginHint(displayPath(runtime.status.dataDir({ dataDir }), home));
  return "";
}

import type { McpServerReport, McpToolReport } from "../mcp/client/server-report.js";
import { displayPath } from "../kernel/paths.js";
import { columns, styler } from "./output.js";

type Style = ReturnType<typeof styler>;

/**
 * A server as `bosun mcp list` and `bosun mcp test` show it: a line with its name, state,
 * transport, command or URL and the bosun.json that declares it; then, for a ready server, its
 * tools as the model sees them with the approval each gets and why, and the tools left out; for
 * a failed one, the reason.
 */
export function serverLines(report: McpServerReport, style: Style, home: string): string[] {
  const state = report.state === "ready" ? style("green", "ready") : report.state === "failed" ? style("red", "failed") : style("dim", "disabled");
  const took = report.ms !== undefined && report.state === "ready" ? `, ${(report.ms / 1000).toFixed(1)} s` : "";
  const count = report.state === "ready" ? style("dim", ` (${report.tools.length} tool${report.tools.length === 1 ? "" : "s"}${took})`) : "";
  const lines = [`${style("bold", report.name)} ${state}${count} · ${report.transport} · ${report.target} · ${report.scope} ${style("dim", `(${displayPath(report.file, home)})`)}`];
  if (report.reason) lines.push(`  ${style("red", report.reason)}`);
  if (report.state === "ready" && report.tools.length === 0 && report.leftOut.length === 0) lines.push(style("dim", "  it offers no tools"));
  lines.push(...columns(report.tools.map((tool) => [tool.model, approvalWord(tool, style), style("dim", sourceWords(tool))])));
  for (const left of report.leftOut) lines.push(style("yellow", `  left out: ${left.name}: ${left.reason}`));
  return lines;
}

function approvalWord(tool: McpToolReport, style: Style): string {
  return tool.approval === "allow" ? style("green", "allow") : tool.approval === "deny" ? style("red", "deny") : style("yellow", "ask");
}

/** Why a tool gets its approval: the setting that says so, or what the tool says of itself. */
function sourceWords(tool: McpToolReport): string {
  switch (tool.source) {
    case "tool":
      return tool.setting;
    case "server":
      return tool.setting.replace(/\.tools\..*$/, ".approval");
    case "read-only hint":
      return "it says it only reads";
    case "default":
      return "it does not say it only reads";
  }
}

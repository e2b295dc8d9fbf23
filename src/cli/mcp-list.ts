import type { Boot } from "../app/start.js";
import type { McpServerReport } from "../mcp/client/server-report.js";
import { configuredServers, type ConfiguredServer } from "../mcp/configured-servers.js";
import { displayPath } from "../kernel/paths.js";
import { Redactor, collectSecrets } from "../kernel/redact/secrets.js";
import { bootForCommand } from "./boot.js";
import { notify, styler, writeJson, writeLine, type Output } from "./output.js";

/**
 * `bosun mcp list`: every MCP server of bosun.json (global and project), the enabled ones started
 * at once as `bosun run` starts them, each with its state (ready, failed with the reason,
 * disabled), its transport and its tools as the model sees them, with the approval each gets;
 * then they are stopped. Exits 0 whatever the servers did: the list says it.
 */
export async function mcpListAction(flags: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const servers = configuredServers(boot.config?.layers ?? []);
  if (servers.length === 0) {
    if (flags.json) writeJson(output, { servers: [] });
    else notify(output, 'bosun: no MCP servers in bosun.json; declare them under "mcp" (bosun mcp test NAME then tries one)');
    return;
  }
  const reports = await startAndReport(boot, servers);
  if (flags.json) return writeJson(output, { servers: reports });
  const { serverLines } = await import("./render-mcp.js");
  const style = styler(output, "stdout");
  for (const report of reports) for (const line of serverLines(report, style, boot.paths.home)) writeLine(output.stdout, line);
}

/**
 * `bosun mcp test NAME`: starts that one server (even one disabled in bosun.json), lists its
 * tools and stops it. A server that fails is an error with the reason (the one line, and the
 * exit code 1; `--json` prints the report first); a name bosun.json does not declare is one too,
 * listing the names it does.
 */
export async function mcpTestAction(name: string, flags: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const servers = configuredServers(boot.config?.layers ?? []);
  const configured = servers.find((entry) => entry.name === name);
  if (!configured) {
    const { UnknownMcpServerError } = await import("../mcp/client/errors.js");
    throw new UnknownMcpServerError(name, servers.map((entry) => entry.name));
  }
  const disabled = configured.server.enabled === false;
  const [report] = await startAndReport(boot, [{ ...configured, server: { ...configured.server, enabled: true } }]);
  if (!report) throw new Error(`no report for the MCP server ${name}`);
  if (flags.json) writeJson(output, { ...report, enabled: !disabled });
  else if (report.state === "ready") {
    const { serverLines } = await import("./render-mcp.js");
    for (const line of serverLines(report, styler(output, "stdout"), boot.paths.home)) writeLine(output.stdout, line);
  }
  if (disabled) notify(output, `bosun: ${name} is disabled in bosun.json ("enabled": false): bosun run does not start it`);
  if (report.state === "failed") {
    const { McpServerError } = await import("../mcp/client/errors.js");
    throw new McpServerError(report.name, displayPath(report.file, boot.paths.home), report.reason ?? "it failed");
  }
  notify(output, `bosun: ${name} works: it started, listed ${report.tools.length} tool${report.tools.length === 1 ? "" : "s"} and was stopped`);
}

/** Starts the servers (the enabled ones) in parallel, reports each, stops them all; every line redacted. */
async function startAndReport(boot: Boot, servers: readonly ConfiguredServer[]): Promise<McpServerReport[]> {
  const [{ McpServers }, { serverReports }, { mcpServerSources }] = await Promise.all([import("../mcp/client/server-pool.js"), import("../mcp/client/server-report.js"), import("../app/run-mcp.js")]);
  const pool = new McpServers({ ...mcpServerSources(boot, servers), workdir: process.cwd() });
  try {
    const reports = serverReports(await pool.start());
    const redactor = new Redactor(await collectSecrets({ env: boot.env, credentialEnvVars: [], configuredEnvVars: boot.config?.value.secrets ?? [], storedCredentials: async () => [], extra: pool.secrets() }));
    return reports.map((report) => redactor.deep(report));
  } finally {
    await pool.stop();
  }
}

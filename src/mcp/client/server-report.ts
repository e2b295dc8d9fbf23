import { shownUrl } from "../../kernel/net/shown-url.js";
import type { ConfiguredServer } from "../configured-servers.js";
import { isRemote, type McpApproval } from "../server-schema.js";
import type { ServerOutcome, StartResult } from "./server-pool.js";
import type { ApprovalSource } from "./tool-approval.js";
import type { LeftOutTool } from "./tool-list.js";

/** One tool of a ready server as `bosun mcp list` shows it. */
export interface McpToolReport {
  /** The server's name for it. */
  name: string;
  /** The name the model knows it by (`<server>__<tool>`). */
  model: string;
  description: string;
  /** What applies in `ask` and `auto-edit` mode (`--yes` runs what asks); where it comes from; the setting that changes it. */
  approval: McpApproval;
  source: ApprovalSource;
  setting: string;
}

/** One configured server as `bosun mcp list` and `bosun mcp test` show it. */
export interface McpServerReport {
  name: string;
  scope: "global" | "project";
  /** The `bosun.json` that declares it. */
  file: string;
  transport: "stdio" | "http";
  /** The command line (a server bosun starts) or the URL, as shown (no credentials). */
  target: string;
  state: "ready" | "failed" | "disabled";
  /** Why it failed (one line). */
  reason?: string;
  /** How long its start took, failed or not. */
  ms?: number;
  /** The server's own name and version, from its answer to initialize. */
  serverInfo?: { name: string; version: string };
  tools: McpToolReport[];
  /** Tools it offers that bosun does not (a schema a model cannot take, a name given twice), with why. */
  leftOut: LeftOutTool[];
}

/** The reports of a start, in the servers' order (by name). Pure. */
export function serverReports(result: StartResult): McpServerReport[] {
  return result.servers.map((outcome) => report(outcome, result));
}

function report(outcome: ServerOutcome, result: StartResult): McpServerReport {
  const { configured } = outcome;
  const base = { name: configured.name, scope: configured.scope, file: configured.file, transport: serverKind(configured), target: serverTarget(configured) };
  if (outcome.state === "disabled") return { ...base, state: "disabled", tools: [], leftOut: [] };
  if (outcome.state === "failed") return { ...base, state: "failed", reason: outcome.error.reason, ms: outcome.ms, tools: [], leftOut: [] };
  const tools = result.tools
    .filter((entry) => entry.connection === outcome.connection)
    .map((entry) => ({ name: entry.tool.name, model: entry.modelName, description: entry.tool.description, approval: entry.approval.effective, source: entry.approval.source, setting: entry.approval.setting }));
  return { ...base, state: "ready", ms: outcome.ms, serverInfo: outcome.connection.serverInfo, tools, leftOut: outcome.connection.leftOut };
}

/** What a server is, for listings: a command bosun starts or a URL it reaches. */
export function serverKind(configured: ConfiguredServer): "stdio" | "http" {
  return isRemote(configured.server) ? "http" : "stdio";
}

/** The command and its arguments, or the URL without what may carry credentials. */
export function serverTarget(configured: ConfiguredServer): string {
  const { server } = configured;
  if (isRemote(server)) return shownUrl(server.url);
  return [server.command, ...(server.args ?? [])].map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(" ");
}

import type { McpApproval, McpServer } from "../server-schema.js";

/** What a tool says of itself (MCP `annotations`); hints from the server, not guarantees. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

/** Where a tool's approval came from, for `bosun mcp list`. */
export type ApprovalSource = "tool" | "server" | "read-only hint" | "default";

export interface McpToolApproval {
  /**
   * What `bosun.json` sets for the tool (its own `tools` entry, else the server's `approval`), or
   * null: then the approval mode decides by `risk`, as it does for the built-in tools.
   */
  policy: McpApproval | null;
  /**
   * How the mode treats it: `read` runs in every mode (as `read` and `grep` do); `execute` asks in
   * `ask` and `auto-edit` and runs with `--yes` (as `bash` does).
   */
  risk: "read" | "execute";
  /** What applies when bosun asks nothing else (no dangerous call, no sandbox need): allow, ask or deny. */
  effective: McpApproval;
  source: ApprovalSource;
  /** The setting that changes it, for messages: `mcp.<server>.tools.<tool>`. */
  setting: string;
  /** The setting `policy` comes from (`mcp.<server>.tools.<tool>` or `mcp.<server>.approval`), when there is one. */
  policySetting: string | null;
}

/**
 * A server's tool's approval. A tool only reads when it says `readOnlyHint: true` and does not
 * also say `destructiveHint: true`; any other tool may change things, so it is treated as a
 * command is. A `tools` entry wins over the server's `approval`, which wins over the hint.
 */
export function toolApproval(serverName: string, server: McpServer, tool: string, hints: ToolHints): McpToolApproval {
  const risk = hints.readOnlyHint === true && hints.destructiveHint !== true ? "read" : "execute";
  const own = server.tools?.[tool];
  const policy = own ?? server.approval ?? null;
  const source: ApprovalSource = own ? "tool" : server.approval ? "server" : risk === "read" ? "read-only hint" : "default";
  const setting = `mcp.${serverName}.tools.${/^[A-Za-z0-9_-]+$/.test(tool) ? tool : JSON.stringify(tool)}`;
  return { policy, risk, effective: policy ?? (risk === "read" ? "allow" : "ask"), source, setting, policySetting: own ? setting : server.approval ? `mcp.${serverName}.approval` : null };
}

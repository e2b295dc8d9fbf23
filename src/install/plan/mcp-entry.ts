import type { McpFormat } from "../../runtimes/kit/install-types.js";
import { valueParts, type SecretReference } from "../../mcp/secret-references.js";
import { isRemote, type McpServer } from "../../mcp/server-schema.js";
import { codexMcpEntry } from "./mcp-entry-codex.js";

/** A server as one runtime writes it, or why that runtime cannot take it as the entry gives it. */
export type McpEntry = { value: Record<string, unknown> } | { skip: string };

/**
 * One MCP server entry in a runtime's own format and secret syntax. Only references are written
 * (`${NAME}`, `${env:NAME}` or `{env:NAME}`, by runtime), never a value; a reference or field the
 * runtime has no way to express skips the server there, with the reason. What only bosun's own
 * loop reads (approvals, output cap) is not written. Pure.
 */
export function mcpEntry(server: McpServer, format: McpFormat, title: string): McpEntry {
  // Codex expands no reference in a value: it forwards variables by name (mcp-entry-codex.ts).
  if (format === "codex") return codexMcpEntry(server, title);
  const syntax = SYNTAX[format];
  const refs = (values: Readonly<Record<string, string>> | undefined): { written: Record<string, string> } | { skip: string } => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(values ?? {})) {
      let text = "";
      for (const part of valueParts(value)) {
        if ("text" in part) text += part.text;
        else {
          const written = syntax(part.ref);
          if (written === null) return { skip: `${title} cannot read a secret from a file ({file:${(part.ref as { path: string }).path}} in ${name}); use {env:NAME} for it` };
          text += written;
        }
      }
      out[name] = text;
    }
    return { written: out };
  };
  if (server.enabled === false && format !== "opencode") return { skip: `it is disabled (enabled: false), and ${title} has no switch for one server in its config` };
  if (isRemote(server)) {
    const found = refs(server.headers);
    if ("skip" in found) return found;
    const headers = found.written;
    const withHeaders = Object.keys(headers).length > 0 ? { headers } : {};
    if (format === "claude") return { value: { type: "http", url: server.url, ...withHeaders } };
    if (format === "gemini") return { value: { httpUrl: server.url, ...withHeaders, ...timeout(server) } };
    if (format === "opencode") return { value: { type: "remote", url: server.url, ...withHeaders, enabled: server.enabled !== false } };
    return { value: { url: server.url, ...withHeaders } };
  }
  const found = refs(server.env);
  if ("skip" in found) return found;
  const env = found.written;
  const withEnv = Object.keys(env).length > 0;
  if (server.cwd !== undefined && format !== "gemini") return { skip: `${title} has no working folder setting for a server (cwd ${server.cwd}); start it from a script that changes folder` };
  const args = server.args ?? [];
  if (format === "claude") return { value: { type: "stdio", command: server.command, args, env } };
  if (format === "gemini") return { value: { command: server.command, ...(args.length > 0 ? { args } : {}), ...(withEnv ? { env } : {}), ...(server.cwd === undefined ? {} : { cwd: server.cwd }), ...timeout(server) } };
  if (format === "opencode") return { value: { type: "local", command: [server.command, ...args], ...(withEnv ? { environment: env } : {}), enabled: server.enabled !== false } };
  return { value: { command: server.command, ...(args.length > 0 ? { args } : {}), ...(withEnv ? { env } : {}) } };
}

/** How each format writes a reference (null: it has no way to). */
const SYNTAX: Record<Exclude<McpFormat, "codex">, (ref: SecretReference) => string | null> = {
  // Claude Code expands ${VAR} in .mcp.json and ~/.claude.json server entries.
  claude: (ref) => (ref.kind === "env" ? `\${${ref.name}}` : null),
  // Gemini CLI expands $VAR and ${VAR} in settings.json strings.
  gemini: (ref) => (ref.kind === "env" ? `\${${ref.name}}` : null),
  // OpenCode's config substitution is bosun's own syntax.
  opencode: (ref) => (ref.kind === "env" ? `{env:${ref.name}}` : `{file:${ref.path}}`),
  // Cursor interpolates ${env:NAME} in mcp.json.
  cursor: (ref) => (ref.kind === "env" ? `\${env:${ref.name}}` : null),
};

/** Gemini's per-server timeout is in milliseconds, for a tool call. */
function timeout(server: McpServer): { timeout?: number } {
  return server.callTimeout === undefined ? {} : { timeout: Math.round(server.callTimeout * 1000) };
}

import { valueParts, type ValuePart } from "../../mcp/secret-references.js";
import { isRemote, type McpServer } from "../../mcp/server-schema.js";

/**
 * One MCP server as a Codex `[mcp_servers.<name>]` table (Codex 0.171's config.toml keys), or why
 * Codex cannot take it. Codex expands no reference inside a value: it forwards variables of its
 * own environment by name (`env_vars`), sends one as a bearer token (`bearer_token_env_var`) or
 * as a whole header (`env_http_headers`), and writes literal text as it is (`env`,
 * `http_headers`). So `{env:NAME}` works where the value is exactly that variable under its own
 * name (stdio), the whole header, or `Bearer {env:NAME}` in Authorization (remote); a variable
 * under another name, text around a reference, or `{file:…}` skips the server. Pure.
 */
export function codexMcpEntry(server: McpServer, title: string): { value: Record<string, unknown> } | { skip: string } {
  const limits = {
    ...(server.startupTimeout === undefined ? {} : { startup_timeout_sec: server.startupTimeout }),
    ...(server.callTimeout === undefined ? {} : { tool_timeout_sec: server.callTimeout }),
    ...(server.enabled === false ? { enabled: false } : {}),
  };
  if (isRemote(server)) {
    const literal: Record<string, string> = {};
    const fromEnv: Record<string, string> = {};
    let bearer: string | undefined;
    for (const [header, value] of Object.entries(server.headers ?? {})) {
      const parts = valueParts(value);
      const file = fileIn(parts);
      if (file !== null) return { skip: `${title} cannot read a secret from a file ({file:${file}} in header ${header}); use {env:NAME} for it` };
      const only = soleEnv(parts);
      const scheme = parts.length === 2 && "text" in parts[0]! && /^bearer\s+$/i.test(parts[0].text) ? soleEnv(parts.slice(1)) : null;
      if (parts.every((part) => "text" in part)) literal[header] = value;
      else if (only !== null) fromEnv[header] = only;
      else if (header.toLowerCase() === "authorization" && scheme !== null) bearer = scheme;
      else return { skip: `${title} cannot send header ${header} as "${value}": it sends a variable as a whole header ({env:NAME}) or as a bearer token (Authorization: "Bearer {env:NAME}"), nothing around it` };
    }
    return {
      value: {
        url: server.url,
        ...(bearer === undefined ? {} : { bearer_token_env_var: bearer }),
        ...(Object.keys(literal).length > 0 ? { http_headers: literal } : {}),
        ...(Object.keys(fromEnv).length > 0 ? { env_http_headers: fromEnv } : {}),
        ...limits,
      },
    };
  }
  const literal: Record<string, string> = {};
  const forwarded: string[] = [];
  for (const [name, value] of Object.entries(server.env ?? {})) {
    const parts = valueParts(value);
    const file = fileIn(parts);
    if (file !== null) return { skip: `${title} cannot read a secret from a file ({file:${file}} in ${name}); use {env:${name}} for it` };
    const only = soleEnv(parts);
    if (parts.every((part) => "text" in part)) literal[name] = value;
    else if (only === name) forwarded.push(name);
    else if (only !== null) return { skip: `${title} passes a variable to a server only under its own name (env_vars), not {env:${only}} as ${name}; use {env:${name}}` };
    else return { skip: `${title} cannot build ${name} from text and a reference ("${value}"): it passes a variable to a server as it is; use {env:${name}} alone` };
  }
  const args = server.args ?? [];
  return {
    value: {
      command: server.command,
      ...(args.length > 0 ? { args } : {}),
      ...(Object.keys(literal).length > 0 ? { env: literal } : {}),
      ...(forwarded.length > 0 ? { env_vars: forwarded } : {}),
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      ...limits,
    },
  };
}

/** The variable a value is exactly (`{env:NAME}` and nothing else), or null. */
function soleEnv(parts: readonly ValuePart[]): string | null {
  const [only] = parts;
  return parts.length === 1 && only && "ref" in only && only.ref.kind === "env" ? only.ref.name : null;
}

function fileIn(parts: readonly ValuePart[]): string | null {
  for (const part of parts) if ("ref" in part && part.ref.kind === "file") return part.ref.path;
  return null;
}

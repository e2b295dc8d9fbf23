import { plainView } from "../../kernel/terminal-text.js";
import { cliText, isObject, type ListedItem } from "../listing.js";

// `✓ probe: node server.mjs (stdio) - Connected`, `✗ … - Disconnected`, `○ … - Disabled`.
const GEMINI_SERVER = /^\s*\S\s+([^\s:]+):\s.*\s-\s(Connected|Disconnected|Disabled|Connecting)\s*$/;
const GEMINI_UNTRUSTED = /disabled because this folder is untrusted/i;

/**
 * `gemini mcp list`, which starts each server to say whether it connected. In a folder it does
 * not trust, Gemini CLI starts no MCP server, the user's included: each is then waiting for
 * trust, not broken. Null when the output lists nothing it recognises.
 */
export function parseGeminiMcpList(stdout: string, stderr: string): ListedItem[] | null {
  const text = plainView(`${stdout}\n${stderr}`).plain;
  const untrusted = GEMINI_UNTRUSTED.test(text);
  const servers: ListedItem[] = [];
  for (const line of text.split("\n")) {
    const match = GEMINI_SERVER.exec(line);
    if (!match) continue;
    const name = match[1] as string;
    const state = match[2];
    if (state === "Disabled") servers.push(untrusted ? { name, waiting: "Gemini CLI starts MCP servers only in a trusted folder (trust this one, or set GEMINI_CLI_TRUST_WORKSPACE=true)" } : { name, enabled: false });
    else if (state === "Disconnected") servers.push({ name, failed: "disconnected" });
    else servers.push({ name });
  }
  if (servers.length === 0 && !/No MCP servers configured/i.test(text)) return null;
  return servers;
}

/** `codex mcp list --json`: `[{name, enabled, transport, …}]` (it starts nothing). Null when that is not what it printed. */
export function parseCodexMcpList(stdout: string): ListedItem[] | null {
  const start = stdout.indexOf("[");
  if (start < 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(stdout.slice(start));
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  return value.filter(isObject).flatMap((server) => (typeof server.name === "string" ? [{ name: server.name, ...(server.enabled === false ? { enabled: false } : {}) }] : []));
}

/** Claude's init event: `mcp_servers: [{name, status}]`, each started (`connected`, `failed`, …). */
export function claudeMcpServers(value: unknown): ListedItem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((server) => {
    if (typeof server.name !== "string") return [];
    return [{ name: server.name, ...(server.status === "failed" ? { failed: "it failed to start or to answer" } : server.status === "disabled" ? { enabled: false } : {}) }];
  });
}

/** OpenCode's resolved config `mcp`: each server by name, `enabled: false` when switched off (it starts nothing to say this). */
export function opencodeMcpServers(value: unknown): ListedItem[] {
  if (!isObject(value)) return [];
  return Object.entries(value).map(([name, server]) => ({ name: cliText(name, 64), ...(isObject(server) && server.enabled === false ? { enabled: false } : {}) }));
}

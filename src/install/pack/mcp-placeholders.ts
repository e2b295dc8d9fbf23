import { commandTexts, type McpServer } from "../../mcp/server-schema.js";

/** A pack's MCP server whose `command` is this stands for the program that starts bosun itself (`{bosun}` with args `["mcp", "serve"]`: bosun as an MCP server). */
export const BOSUN_PLACEHOLDER = "{bosun}";

/** The placeholders an MCP server's command, args and cwd may use in a pack: the pack's support folder, the runtime's folder, bosun's program. */
export const MCP_PLACEHOLDERS = ["{pack-dir}", "{config-dir}", BOSUN_PLACEHOLDER] as const;

/** One placeholder in a server's command texts: the field it is in and the token. */
export interface PlaceholderUse {
  field: string;
  token: string;
}

/** Every placeholder-like token (`{bosun}`, `{word-word…}`) in a server's command, args and cwd, in order. */
export function placeholderUses(server: McpServer): PlaceholderUse[] {
  return commandTexts(server).flatMap(([field, text]) => [...text.matchAll(/\{bosun\}|\{[a-z]+(?:-[a-z]+)+\}/g)].map((match) => ({ field, token: match[0] })));
}

/**
 * Why a placeholder stands where it cannot, or null: an unknown one, or `{bosun}` anywhere but as
 * the whole `command` (it is a program with arguments of its own, so it cannot be part of a text).
 */
export function placeholderProblem(server: McpServer, use: PlaceholderUse): string | null {
  if (!(MCP_PLACEHOLDERS as readonly string[]).includes(use.token)) return `unknown placeholder ${use.token} (use ${MCP_PLACEHOLDERS.join(", ")})`;
  if (use.token === BOSUN_PLACEHOLDER && !(use.field === "command" && "command" in server && server.command === BOSUN_PLACEHOLDER)) {
    return `${BOSUN_PLACEHOLDER} stands only as the whole command (the program that starts bosun); put bosun's arguments in args, e.g. ["mcp", "serve"]`;
  }
  return null;
}

import type { ContractRow, ExtraRootResolver, McpFormat, McpPlacement } from "./install-types.js";
import { contractRows } from "./install-surfaces.js";

/** When bosun writes MCP server entries. */
export const WHEN_MCP = "install adds each server of the pack (bosun mcp sync: of bosun.json) by name; upgrade replaces a changed one; uninstall removes it while it is exactly what bosun wrote";
/** Who owns the file that holds an agent's MCP servers. */
export const MCP_OWNER = "yours; bosun adds only its servers' entries, asks before replacing a server of yours of the same name (the file backed up first), leaves one you edited, and removes only what it recorded in bosun-manifest.json";

/**
 * The project folder itself, as an extra root (a project file such as .mcp.json or
 * opencode.json sits beside the runtime's folder), with bosun's own files for it kept in the
 * runtime's project folder (`<localRoot>/bosun-project`).
 */
export function projectFolderRoot(localRoot: string): ExtraRootResolver {
  return (ctx) => ({ dir: ctx.cwd, stateDir: `${localRoot}/bosun-project` });
}

/** A placement in the object at `path` of `file` (one key per server). */
export function mcpPlacement(file: string, path: readonly string[], format: McpFormat, contract: string, root?: McpPlacement["root"]): McpPlacement {
  return { file, path, format, contract, ...(root ? { root } : {}) };
}

/** The `mcp` row of a runtime's contract. */
export function mcpRow(runtime: string, spec: { surface: string; what: string; global: string; local: string; why: string; checkedAgainst: string }): ContractRow[] {
  return contractRows(runtime, { mcp: { ...spec, when: WHEN_MCP, owner: MCP_OWNER } });
}

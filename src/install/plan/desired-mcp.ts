import { isSkip, type InstallLayout, type RootKey } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import type { LoadedPack } from "../pack/load-pack.js";
import { BOSUN_PLACEHOLDER } from "../pack/mcp-placeholders.js";
import { isRemote, type McpServer } from "../../mcp/server-schema.js";
import type { DesiredSetting } from "./desired-settings.js";
import { mcpEntry } from "./mcp-entry.js";

/** The program that starts this bosun, and the arguments it needs before bosun's own (`node <package>/bin/bosun.js`). */
export interface BosunCommand {
  command: string;
  args: readonly string[];
}

export interface McpSkip {
  kind: "mcp server";
  name: string;
  reason: string;
}

/**
 * What a pack's MCP servers become in one runtime and scope: one entry per server, by name, in
 * the runtime's MCP file (planned, recorded and removed like every settings edit: a server of
 * yours of the same name is a question), or skipped with the reason where the runtime has no
 * MCP file bosun writes or cannot take the server as written. `{pack-dir}` and `{config-dir}` in
 * a server's command, args and cwd become this machine's folders (`values`), and a `command` of
 * `{bosun}` the program that starts this bosun, its arguments put before the server's. `roots`: the roots
 * this runtime and scope has (an extra root that is the runtime's own folder here is not one:
 * its file goes into the main root). Pure.
 */
export function buildDesiredMcp(pack: LoadedPack, runtime: InstallRuntime, layout: InstallLayout, fill: McpFill, roots: ReadonlySet<RootKey>): { settings: DesiredSetting[]; skipped: McpSkip[] } {
  if (pack.mcp.length === 0) return { settings: [], skipped: [] };
  const placement = layout.mcp ?? { skip: `bosun does not write MCP servers for ${runtime.title}` };
  if (isSkip(placement)) return { settings: [], skipped: pack.mcp.map((artifact) => ({ kind: "mcp server", name: artifact.name, reason: placement.skip })) };
  const root: RootKey = placement.root && roots.has(placement.root) ? placement.root : "main";
  const settings: DesiredSetting[] = [];
  const skipped: McpSkip[] = [];
  for (const artifact of pack.mcp) {
    const entry = mcpEntry(filled(artifact.server, fill), placement.format, runtime.title);
    if ("skip" in entry) {
      skipped.push({ kind: "mcp server", name: artifact.name, reason: entry.skip });
      continue;
    }
    const path = [...placement.path, artifact.name];
    settings.push({
      root,
      file: placement.file,
      contract: placement.contract,
      pack: pack.name,
      field: `mcp/${artifact.name}.json`,
      key: path.join("."),
      path,
      mode: "value",
      value: entry.value,
      ...(placement.plainJsonOnly ? { plainJsonOnly: placement.plainJsonOnly } : {}),
    });
  }
  return { settings, skipped };
}

/** What a server's placeholders become: the folders' (`{pack-dir}`, `{config-dir}`), and `{bosun}`'s program. */
export interface McpFill {
  values: Readonly<Record<string, string>>;
  bosun: BosunCommand;
}

/** The server with `{pack-dir}` and `{config-dir}` in its command, args and cwd replaced, and a `{bosun}` command by bosun's program and arguments. */
function filled(server: McpServer, { values, bosun }: McpFill): McpServer {
  if (isRemote(server)) return server;
  const fill = (text: string) => Object.entries(values).reduce((out, [name, value]) => out.replaceAll(name, value), text);
  const args = (server.args ?? []).map(fill);
  if (server.command === BOSUN_PLACEHOLDER) return { ...server, command: bosun.command, args: [...bosun.args, ...args], ...(server.cwd === undefined ? {} : { cwd: fill(server.cwd) }) };
  return { ...server, command: fill(server.command), ...(server.args ? { args } : {}), ...(server.cwd === undefined ? {} : { cwd: fill(server.cwd) }) };
}

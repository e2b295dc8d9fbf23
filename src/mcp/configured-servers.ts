import type { McpServer } from "./server-schema.js";

/** A server from `bosun.json`, with the file that declared it (errors and `bosun mcp list` name it). */
export interface ConfiguredServer {
  name: string;
  server: McpServer;
  scope: "global" | "project";
  file: string;
}

/**
 * The MCP servers of `bosun.json`, global then project, a project's entry taking the whole place
 * of a global one of the same name (a server's fields are not merged: a `url` over a `command`
 * would be neither). Sorted by name.
 */
export function configuredServers(layers: readonly { scope: "global" | "project"; file: string; value: { mcp?: Record<string, McpServer> } }[]): ConfiguredServer[] {
  const byName = new Map<string, ConfiguredServer>();
  for (const layer of layers) {
    for (const [name, server] of Object.entries(layer.value.mcp ?? {})) byName.set(name, { name, server, scope: layer.scope, file: layer.file });
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

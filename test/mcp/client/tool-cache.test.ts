import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConfiguredServer } from "../../../src/mcp/configured-servers.js";
import { MAX_CACHED_SERVERS, ToolListCache } from "../../../src/mcp/client/tool-cache.js";
import type { McpToolDefinition } from "../../../src/mcp/client/tool-list.js";
import { makeTempHome } from "../../fixtures/temp-home.js";

const server = (name: string, args: string[] = []): ConfiguredServer => ({ name, file: "/home/me/.config/bosun/bosun.json", scope: "global", server: { command: "node", args } }) as ConfiguredServer;
const echo: McpToolDefinition = { name: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { text: { type: "string" } } }, hints: { readOnlyHint: true } };

describe("the tool-list cache", () => {
  it("keeps a server's list by its name, its entry and the run's folder; reads it back through the same checks", async () => {
    const file = join(makeTempHome().root, "cache", "mcp-tools.json");
    const cache = ToolListCache.open(file);
    const key = cache.key(server("fixture"), "/work");
    expect([key === cache.key(server("other"), "/work"), key === cache.key(server("fixture", ["--x"]), "/work"), key === cache.key(server("fixture"), "/elsewhere")]).toEqual([false, false, false]);
    cache.remember(key, [echo]);
    cache.save();
    expect(ToolListCache.open(file).tools(key)).toEqual([echo]);
    // A hand-edited list: a tool whose schema is not JSON Schema is left out, as a server's would be.
    const text = JSON.parse(readFileSync(file, "utf8"));
    text.servers[key].tools.push({ name: "bad", description: "", inputSchema: { type: 7 }, annotations: {} });
    writeFileSync(file, JSON.stringify(text));
    expect(ToolListCache.open(file).tools(key)?.map((tool) => tool.name)).toEqual(["echo"]);
  });

  it("writes only when a list changed, keeps the most recently seen servers, and takes a foreign file for an empty cache", async () => {
    const file = join(makeTempHome().root, "mcp-tools.json");
    writeFileSync(file, JSON.stringify({ format: 99, servers: {} }));
    const cache = ToolListCache.open(file);
    expect(cache.tools(cache.key(server("a"), "/w"))).toBeNull();
    for (let i = 0; i <= MAX_CACHED_SERVERS; i++) cache.remember(cache.key(server(`s${i}`), "/w"), [echo], 1_000 + i);
    cache.save();
    const saved = ToolListCache.open(file);
    expect(saved.tools(cache.key(server("s0"), "/w"))).toBeNull();
    expect(saved.tools(cache.key(server(`s${MAX_CACHED_SERVERS}`), "/w"))).toEqual([echo]);
    writeFileSync(file, "unchanged");
    saved.remember(saved.key(server("s5"), "/w"), [echo], 1_005 + 1_000);
    saved.save();
    expect(readFileSync(file, "utf8")).toBe("unchanged");
  });
});

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { saveCacheFile } from "../../kernel/fs/cache-file.js";
import type { ConfiguredServer } from "../configured-servers.js";
import { readToolList, type McpToolDefinition } from "./tool-list.js";

/** The cache's file, in bosun's cache folder. */
export const TOOL_CACHE_FILE = "mcp-tools.json";
/** The most servers it keeps (the ones seen last). */
export const MAX_CACHED_SERVERS = 200;
const FORMAT = 1;

/** One server's tools as a server lists them (read back through `readToolList`, so a hand-edited file gets the same checks). */
interface CachedList {
  /** When the list was last seen (ms since the epoch). */
  at: number;
  tools: { name: string; description: string; inputSchema: Record<string, unknown>; annotations: McpToolDefinition["hints"] }[];
}

/**
 * Each server's last tool list, by what it is started from (its `bosun.json` entry and the run's
 * folder), so a run can offer a server's tools while the server still starts: the first model
 * request waits for no server whose list is known, and a call waits for its server. The list the
 * server gives replaces the cached one once it is up. A missing, unreadable or foreign file is an
 * empty cache, and one that cannot be written is left as it was: it is only a cache.
 */
export class ToolListCache {
  private dirty = false;

  private constructor(
    private readonly file: string | null,
    private readonly lists: Map<string, CachedList>,
  ) {}

  /** The cache in `file` (null: a cache that keeps nothing). */
  static open(file: string | null): ToolListCache {
    return new ToolListCache(file, file === null ? new Map() : readLists(file));
  }

  /** What a server's list is kept by: its name, its entry (references, not their values) and the folder it runs for. */
  key(configured: ConfiguredServer, workdir: string): string {
    return createHash("sha256").update(JSON.stringify([configured.name, configured.server, workdir])).digest("hex");
  }

  /** The server's last list, checked again; null when there is none. */
  tools(key: string): McpToolDefinition[] | null {
    const list = this.lists.get(key);
    return list ? readToolList(list.tools).tools : null;
  }

  /** The list a server gave: kept when it differs from the cached one, or the cached one is older than a day. */
  remember(key: string, tools: readonly McpToolDefinition[], now = Date.now()): void {
    const next = tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.hints }));
    const before = this.lists.get(key);
    if (before && JSON.stringify(before.tools) === JSON.stringify(next) && now - before.at < 86_400_000) return;
    this.lists.set(key, { at: now, tools: next });
    this.dirty = true;
  }

  /**
   * Writes the lists when one changed, the most recently seen `MAX_CACHED_SERVERS` of them (best
   * effort, synchronous: a cache that cannot be written costs the next run its head start, nothing
   * else; and no library that hooks the process's signals is loaded by a run that may get one).
   */
  save(): void {
    if (!this.dirty || this.file === null) return;
    this.dirty = false;
    const kept = [...this.lists].sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_CACHED_SERVERS);
    saveCacheFile(this.file, JSON.stringify({ format: FORMAT, servers: Object.fromEntries(kept) }));
  }
}

function readLists(file: string): Map<string, CachedList> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return new Map();
  }
  const servers = typeof value === "object" && value !== null && (value as { format?: unknown }).format === FORMAT ? (value as { servers?: unknown }).servers : null;
  if (typeof servers !== "object" || servers === null) return new Map();
  const lists = new Map<string, CachedList>();
  for (const [key, list] of Object.entries(servers)) {
    if (typeof list === "object" && list !== null && typeof (list as CachedList).at === "number" && Array.isArray((list as CachedList).tools)) lists.set(key, list as CachedList);
  }
  return lists;
}

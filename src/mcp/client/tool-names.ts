import { createHash } from "node:crypto";

/** The tool names every model API bosun speaks takes (OpenAI's is the narrowest: 64 characters). */
export const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The separator of a server's name and its tool's (a server's name never holds it: see MCP_SERVER_NAME). */
export const SERVER_TOOL_SEPARATOR = "__";

export interface ServerTool {
  server: string;
  tool: string;
}

/**
 * The names the model knows the servers' tools by, in the order given: `<server>__<tool>` when
 * a model API takes that as it is. A tool's own name may hold what an API refuses (`files.read`,
 * a space) or make the whole too long; such a name becomes the same with each refused character
 * as `_`, cut to leave room for `_` and 8 hex digits of a hash of the server's and the tool's
 * names: unique, and the same in every run (a continued session's calls keep their meaning).
 * Names that fit as they are are given first, so a mapped name never takes the place of one;
 * `taken` holds names already used (the built-in tools').
 */
export function modelToolNames(tools: readonly ServerTool[], taken: ReadonlySet<string> = new Set()): string[] {
  const used = new Set(taken);
  const names: (string | undefined)[] = tools.map((entry) => {
    const plain = `${entry.server}${SERVER_TOOL_SEPARATOR}${entry.tool}`;
    if (!MODEL_TOOL_NAME.test(plain) || used.has(plain)) return undefined;
    used.add(plain);
    return plain;
  });
  return names.map((name, index) => {
    if (name !== undefined) return name;
    const entry = tools[index]!;
    const safe = `${entry.server}${SERVER_TOOL_SEPARATOR}${entry.tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
    const hash = createHash("sha256").update(`${entry.server}\u0000${entry.tool}`).digest("hex");
    // 8 hex digits make a clash unlikely; on one, more of the hash settles it.
    for (let digits = 8; ; digits += 4) {
      const suffix = `_${hash.slice(0, digits)}`;
      const mapped = `${safe.slice(0, 64 - suffix.length)}${suffix}`;
      if (!used.has(mapped) || digits >= hash.length) {
        used.add(mapped);
        return mapped;
      }
    }
  });
}

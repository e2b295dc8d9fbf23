/**
 * JSON values as TOML text: a dotted key (bare parts where TOML allows, else quoted) and a value
 * on one line (strings as basic strings, objects as inline tables). A value TOML has no way to
 * hold (null, a number that is not finite) is an error.
 */

const BARE = /^[A-Za-z0-9_-]+$/;

/** `mcp_servers.my-server`, `"a b".c`. */
export function tomlKey(parts: readonly string[]): string {
  return parts.map((part) => (BARE.test(part) ? part : tomlString(part))).join(".");
}

export function tomlString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\t") out += "\\t";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** One value as inline TOML. */
export function tomlInline(value: unknown, at: string): string {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${at}: ${value} cannot be written in TOML`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((item, index) => tomlInline(item, `${at}[${index}]`)).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([key, item]) => `${tomlKey([key])} = ${tomlInline(item, `${at}.${key}`)}`).join(", ")} }`;
  }
  throw new Error(`${at}: ${value === null ? "null" : typeof value} cannot be written in TOML`);
}

/** A table's lines: its `[key]` header, then one `key = value` line per entry. */
export function tomlTableLines(path: readonly string[], value: Record<string, unknown>): string[] {
  const key = tomlKey(path);
  return [`[${key}]`, ...Object.entries(value).map(([name, item]) => `${tomlKey([name])} = ${tomlInline(item, `${key}.${name}`)}`)];
}

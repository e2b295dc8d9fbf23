import { requireLazily } from "../../kernel/fs/require.js";

/** The markers around bosun's block; everything between them is bosun's, everything else yours. */
export const TOML_BLOCK_BEGIN = "# >>> bosun: managed block (bosun install writes it, bosun uninstall removes it) >>>";
export const TOML_BLOCK_END = "# <<< bosun <<<";

export type ParsedToml = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string; line: number };

export function parseToml(text: string): ParsedToml {
  const toml = requireLazily("smol-toml") as typeof import("smol-toml");
  try {
    return { ok: true, value: toml.parse(text) as Record<string, unknown> };
  } catch (error) {
    const line = (error as { line?: number }).line ?? 1;
    const message = String((error as Error).message ?? error).split("\n")[0] ?? "invalid TOML";
    return { ok: false, problem: `invalid TOML (${message})`, line };
  }
}

/** Where bosun's block is: the offsets of its first line and just past its last line (and line ending). */
export function findTomlBlock(text: string): { start: number; end: number } | null {
  const begin = lineStartOf(text, TOML_BLOCK_BEGIN);
  if (begin === -1) return null;
  const endMarker = text.indexOf(TOML_BLOCK_END, begin);
  if (endMarker === -1) return null;
  const newline = text.indexOf("\n", endMarker);
  return { start: begin, end: newline === -1 ? text.length : newline + 1 };
}

/**
 * Puts bosun's block at the very top of the file (after a byte-order mark), in the file's line
 * endings, so its dotted keys belong to the top-level table and nothing you write later can
 * end up inside it. `text` null creates the file.
 */
export function addTomlBlock(text: string | null, lines: readonly string[]): string {
  const current = text ?? "";
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const bom = current.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  const block = [TOML_BLOCK_BEGIN, ...lines, TOML_BLOCK_END].join(eol) + eol;
  return bom + block + current.slice(bom.length);
}

/** Takes bosun's block out again, leaving every other byte as it was. */
export function removeTomlBlock(text: string): string {
  let current = text;
  for (let block = findTomlBlock(current); block; block = findTomlBlock(current)) current = current.slice(0, block.start) + current.slice(block.end);
  return current;
}

/** The file without bosun's block; null (delete it) when bosun created the file and nothing else is left. */
export function withoutTomlBlock(text: string, createdByBosun: boolean): string | null {
  const rest = removeTomlBlock(text);
  return createdByBosun && rest.trim() === "" ? null : rest;
}

/** The value at a dotted path, or undefined. */
export function tomlValueAt(value: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = value;
  for (const key of path) current = typeof current === "object" && current !== null && Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

function lineStartOf(text: string, marker: string): number {
  let from = 0;
  for (;;) {
    const at = text.indexOf(marker, from);
    if (at === -1) return -1;
    if (at === 0 || text[at - 1] === "\n" || (at === 1 && text.charCodeAt(0) === 0xfeff)) return at;
    from = at + marker.length;
  }
}

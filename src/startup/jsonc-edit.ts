import type { Node } from "jsonc-parser";
import { requireLazily } from "../kernel/fs/require.js";

const jsonc = () => requireLazily("jsonc-parser") as typeof import("jsonc-parser");

export type JsonPath = string[];

// Token kinds of jsonc-parser's scanner (a const enum in its types, so not importable here).
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const WHITESPACE = 15;

/**
 * A JSONC text changed edit by edit, touching only what changes: a renamed key keeps its line,
 * value and comments; a removed property takes its line but leaves its comments; an added one is
 * written on a line of its own after the last property, in the file's indentation and line
 * endings (inline in an object written on one line), and always inside the object, even when its
 * closing brace shares the last property's line. Commas and comments are found with the parser's
 * scanner, so a comment between a value and its comma cannot mislead an edit. jsonc-parser's own
 * `modify` reformats the neighbouring lines and drops a comment that trails the property before
 * a removed one.
 */
export class JsoncEditor {
  constructor(public text: string) {}

  valueAt(path: JsonPath): unknown {
    const node = this.node(path);
    return node && jsonc().getNodeValue(node);
  }

  /** The paths `pattern` (dotted, `*` for any key) matches, with what each `*` stood for. */
  matches(pattern: string): { path: JsonPath; stars: string[] }[] {
    let found: { path: JsonPath; stars: string[]; node: Node }[] = [];
    const root = this.root();
    if (root) found.push({ path: [], stars: [], node: root });
    for (const part of pattern.split(".")) {
      found = found.flatMap(({ path, stars, node }) =>
        properties(node).flatMap(({ key, value }) =>
          part === "*" || key === part ? [{ path: [...path, key], stars: part === "*" ? [...stars, key] : stars, node: value }] : [],
        ),
      );
    }
    return found.map(({ path, stars }) => ({ path, stars }));
  }

  /** Why `path` cannot be written (already set, or inside something that is not an object), or null. */
  blocker(path: JsonPath): string | null {
    if (this.node(path)) return `${path.join(".")} is already set`;
    for (let depth = 1; depth < path.length; depth++) {
      const node = this.node(path.slice(0, depth));
      if (!node) return null;
      if (node.type !== "object") return `${path.slice(0, depth).join(".")} is not an object`;
    }
    return null;
  }

  /** Moves the property at `from` to `to` with `value`; a sibling key is renamed where it stands. */
  move(from: JsonPath, to: JsonPath, value: unknown): void {
    const key = this.node(from)?.parent?.children?.[0];
    const sibling = key && from.length === to.length && from.slice(0, -1).every((part, i) => part === to[i]);
    if (!sibling) {
      this.remove(from);
      this.set(to, value);
      return;
    }
    const same = JSON.stringify(value) === JSON.stringify(this.valueAt(from));
    this.edit(key.offset, key.length, JSON.stringify(to[to.length - 1]));
    if (!same) this.set(to, value);
  }

  /** Writes `value` at `path`: replaces the value that is there, or adds the property (and any missing objects above it). */
  set(path: JsonPath, value: unknown): void {
    const existing = this.node(path);
    if (existing) return this.edit(existing.offset, existing.length, inline(value));
    let depth = path.length - 1;
    while (depth > 0 && !this.node(path.slice(0, depth))) depth--;
    const parent = this.node(path.slice(0, depth));
    if (parent?.type !== "object") throw new Error(`cannot add ${path.join(".")}: ${path.slice(0, depth).join(".") || "the document"} is not an object`);
    const nested = path.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
    this.addProperty(parent, path[depth]!, nested);
  }

  /**
   * Removes the property at `path` with the comma that separates it from a neighbour (the one
   * after it; for the last property, the one before it). Comments stay where they were; a line
   * left blank goes.
   */
  remove(path: JsonPath): void {
    const property = this.node(path)?.parent;
    const object = property?.parent;
    if (!property || property.type !== "property" || !object) return;
    const siblings = object.children ?? [];
    const index = siblings.indexOf(property);
    const previous = siblings[index - 1];
    const start = property.offset;
    const end = start + property.length;
    const after = this.commaAfter(end);
    const before = after === null && previous ? this.commaAfter(previous.offset + previous.length) : null;
    let place = start;
    if (after !== null) {
      // The comma, and the blanks after it; what lies between the value and the comma stays
      // unless it is blank.
      const comma = after + /^,[ \t]*/.exec(this.text.slice(after))![0].length;
      if (this.text.slice(end, after).trim() === "") this.edit(start, comma - start, "");
      else {
        this.edit(after, comma - after, "");
        this.edit(start, end - start, "");
      }
    } else if (before !== null && this.text.slice(before + 1, start).trim() === "" && !this.commentFollows(end)) {
      this.edit(before, end - before, "");
      place = before;
    } else {
      this.edit(start, end - start, "");
      if (before !== null) {
        this.edit(before, 1, "");
        place = start - 1;
      }
    }
    this.dropLineIfBlank(place);
  }

  private addProperty(object: Node, key: string, value: unknown): void {
    const entry = `${JSON.stringify(key)}: ${inline(value)}`;
    const last = object.children?.at(-1);
    if (!last) return this.edit(object.offset, object.length, `{ ${entry} }`);
    const lastEnd = last.offset + last.length;
    const { at, comma } = this.endOfProperty(lastEnd);
    const multiline = this.text.slice(object.offset, object.offset + object.length).includes("\n");
    if (!multiline) return this.edit(at, 0, `${comma ? "" : ","} ${entry}`);
    const lineStart = this.text.lastIndexOf("\n", last.offset - 1) + 1;
    const indent = /^[ \t]*/.exec(this.text.slice(lineStart))![0];
    const eol = this.text.includes("\r\n") ? "\r\n" : "\n";
    // The new line goes where the last property ends (past its comma and the comments on its
    // line); its comma goes right after its value.
    this.edit(at, 0, `${eol}${indent}${entry}`);
    if (comma === null) this.edit(lastEnd, 0, ",");
  }

  /**
   * Where the property whose value ends at `offset` ends: past its comma (`comma`: its offset, or
   * null) and the comments on its line, up to the line's end, but never past the brace that closes
   * its object (which may share the line), nor into a comment that goes on to a later line.
   */
  private endOfProperty(offset: number): { at: number; comma: number | null } {
    const scanner = jsonc().createScanner(this.text, false);
    scanner.setPosition(offset);
    let at = offset;
    let comma: number | null = null;
    for (;;) {
      const token = scanner.scan();
      const start = scanner.getTokenOffset();
      if (token === LINE_BREAK) return { at: start, comma };
      const onOneLine = token === LINE_COMMENT || (token === BLOCK_COMMENT && !/[\r\n]/.test(scanner.getTokenValue()));
      if (token === COMMA && comma === null) comma = start;
      else if (token === WHITESPACE) continue;
      else if (!onOneLine) return { at, comma };
      at = start + scanner.getTokenLength();
    }
  }

  /** The offset of the comma that follows `offset` past blanks, line breaks and comments, or null. */
  private commaAfter(offset: number): number | null {
    const scanner = jsonc().createScanner(this.text, false);
    scanner.setPosition(offset);
    let token = scanner.scan();
    while (token === WHITESPACE || token === LINE_BREAK || token === LINE_COMMENT || token === BLOCK_COMMENT) token = scanner.scan();
    return token === COMMA ? scanner.getTokenOffset() : null;
  }

  /** Whether a comment follows `offset` on its line (it stays on that line). */
  private commentFollows(offset: number): boolean {
    return /^[ \t]*\/[/*]/.test(this.text.slice(offset));
  }

  /** Removes the line that holds `offset` (and its line break) if nothing but blanks is left on it. */
  private dropLineIfBlank(offset: number): void {
    const lineStart = this.text.lastIndexOf("\n", offset - 1) + 1;
    const lineEnd = this.text.indexOf("\n", offset);
    if (lineEnd !== -1 && this.text.slice(lineStart, lineEnd).trim() === "") this.edit(lineStart, lineEnd + 1 - lineStart, "");
  }

  private edit(offset: number, length: number, content: string): void {
    this.text = this.text.slice(0, offset) + content + this.text.slice(offset + length);
  }

  private root(): Node | undefined {
    return jsonc().parseTree(this.text, [], { allowTrailingComma: true, disallowComments: false });
  }

  private node(path: JsonPath): Node | undefined {
    const root = this.root();
    return root && jsonc().findNodeAtLocation(root, path);
  }
}

function properties(node: Node): { key: string; value: Node }[] {
  if (node.type !== "object") return [];
  return (node.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    return key && value ? [{ key: String(key.value), value }] : [];
  });
}

/** JSON on one line, spaced as people write it: `{ "enabled": false }`, `["a", "b"]`. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`);
    return entries.length > 0 ? `{ ${entries.join(", ")} }` : "{}";
  }
  return JSON.stringify(value);
}

import type { Node } from "jsonc-parser";
import { requireLazily } from "../fs/require.js";

const jsonc = () => requireLazily("jsonc-parser") as typeof import("jsonc-parser");

export type JsonPath = string[];

/**
 * A JSONC text changed edit by edit, touching only what changes: a renamed key keeps its line,
 * value and comments; a removed property takes its line but leaves its comments; an added one is
 * written on a line of its own after the last property, in the file's indentation and line
 * endings (inline in an object written on one line). jsonc-parser's own `modify` reformats the
 * neighbouring lines and drops a comment that trails the property before a removed one.
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

  /** Removes the property at `path` (and its comma); comments on its line stay. */
  remove(path: JsonPath): void {
    const property = this.node(path)?.parent;
    const object = property?.parent;
    if (!property || property.type !== "property" || !object) return;
    const start = property.offset;
    const end = start + property.length;
    const lineStart = this.text.lastIndexOf("\n", start - 1) + 1;
    const rest = /^[ \t]*,?[ \t]*(\/\/[^\r\n]*)?(\r?\n)/.exec(this.text.slice(end));
    const siblings = object.children ?? [];
    const index = siblings.indexOf(property);
    if (this.text.slice(lineStart, start).trim() === "" && rest) {
      // On a line of its own: the line goes, but a comment at its end stays where it was.
      const comment = rest[1] ? this.text.slice(lineStart, start) + rest[1] + rest[2] : "";
      this.edit(lineStart, end + rest[0].length - lineStart, comment);
      if (index === siblings.length - 1 && index > 0) this.dropCommaAfter(siblings[index - 1]!);
      return;
    }
    const after = /^\s*,\s*/.exec(this.text.slice(end));
    if (after) return this.edit(start, end + after[0].length - start, "");
    const before = siblings[index - 1];
    if (before) return this.edit(before.offset + before.length, end - before.offset - before.length, "");
    this.edit(start, property.length, "");
  }

  private addProperty(object: Node, key: string, value: unknown): void {
    const entry = `${JSON.stringify(key)}: ${inline(value)}`;
    const last = object.children?.at(-1);
    if (!last) return this.edit(object.offset, object.length, `{ ${entry} }`);
    const lastEnd = last.offset + last.length;
    const comma = /^[ \t]*,/.exec(this.text.slice(lastEnd));
    const multiline = this.text.slice(object.offset, object.offset + object.length).includes("\n");
    if (!multiline) return this.edit(lastEnd + (comma?.[0].length ?? 0), 0, `${comma ? "" : ","} ${entry}`);
    const lineStart = this.text.lastIndexOf("\n", last.offset - 1) + 1;
    const indent = /^[ \t]*/.exec(this.text.slice(lineStart))![0];
    const eol = this.text.includes("\r\n") ? "\r\n" : "\n";
    const lineEnd = this.lineEndAfter(lastEnd);
    // The new line goes after the last property's line (past a comment that ends it); the comma
    // goes right after its value.
    this.edit(lineEnd, 0, `${eol}${indent}${entry}`);
    if (!comma) this.edit(lastEnd, 0, ",");
  }

  private lineEndAfter(offset: number): number {
    const rest = /^[^\r\n]*/.exec(this.text.slice(offset))![0];
    // A block comment may go on past the line's end; the new line then goes before the object closes.
    return rest.includes("/*") && !rest.includes("*/") ? offset : offset + rest.length;
  }

  private dropCommaAfter(node: Node): void {
    const end = node.offset + node.length;
    const comma = /^[ \t]*,/.exec(this.text.slice(end));
    if (comma) this.edit(end + comma[0].length - 1, 1, "");
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

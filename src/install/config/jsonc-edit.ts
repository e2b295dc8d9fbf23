import type { Node, ParseError } from "jsonc-parser";
import { requireLazily } from "../../kernel/fs/require.js";

const jsonc = () => requireLazily("jsonc-parser") as typeof import("jsonc-parser");

/** The file's own indentation unit and line ending (two spaces and \n for a new file). */
interface Style {
  eol: string;
  unit: string;
}

export type JsonPath = (string | number)[];

/**
 * Inserts a property (or, with `key` null, an array item) at the end of the container at
 * `path`, written in the file's own indentation and line endings. Only the inserted text is
 * new: the rest of the file, comments and trailing commas included, is kept byte for byte, and
 * `removeJsonNode` on the inserted node gives back the original text.
 */
export function insertJson(text: string, path: JsonPath, key: string | null, value: unknown): string {
  const style = detectStyle(text);
  const container = nodeAt(text, path);
  if (!container || (container.type !== "object" && container.type !== "array")) throw new Error(`no JSON container at ${path.join(".") || "the top"}`);
  const depth = path.length;
  const item = (key === null ? "" : `${JSON.stringify(key)}: `) + pretty(value, depth + 1, style);
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const children = container.children ?? [];
  const last = children[children.length - 1];
  if (!last) {
    const inner = text.slice(open + 1, close);
    if (inner.trim() === "" && !inner.includes("\n")) return splice(text, open + 1, close, `${style.eol}${indent(depth + 1, style)}${item}${style.eol}${indent(depth, style)}`);
    return splice(text, open + 1, open + 1, `${style.eol}${indent(depth + 1, style)}${item}`);
  }
  const end = last.offset + last.length;
  const comma = nextSignificant(text, end);
  if (comma !== -1 && text[comma] === ",") return splice(text, comma + 1, comma + 1, `${style.eol}${indent(depth + 1, style)}${item},`);
  // A line comment after the last value stays on its line: the comma goes before it, the new item after it.
  const comment = TRAILING_LINE_COMMENT.exec(text.slice(end));
  if (comment) {
    const commentEnd = end + (comment[1] as string).length;
    return splice(splice(text, commentEnd, commentEnd, `${style.eol}${indent(depth + 1, style)}${item}`), end, end, ",");
  }
  return splice(text, end, end, `,${style.eol}${indent(depth + 1, style)}${item}`);
}

/** `  // comment` up to (not including) the line break. */
const TRAILING_LINE_COMMENT = /^([ \t]*\/\/[^\r\n]*)\r?\n/;

/**
 * Removes the property or array item at `path`: the exact inverse of `insertJson` for what it
 * inserted; for anything else, the node, its comma and the space before it. A container left
 * empty gets `emptyInner` between its brackets (what was there before the insert; default none).
 */
export function removeJsonNode(text: string, path: JsonPath, emptyInner = ""): string {
  const valueNode = nodeAt(text, path);
  if (!valueNode) return text;
  const target = valueNode.parent?.type === "property" ? valueNode.parent : valueNode;
  const container = target.parent;
  if (!container) throw new Error("cannot remove the top-level value");
  const siblings = container.children ?? [];
  const index = siblings.indexOf(target);
  const start = target.offset;
  const end = target.offset + target.length;
  if (siblings.length === 1) {
    const open = container.offset + 1;
    const close = container.offset + container.length - 1;
    const rest = text.slice(open, start) + text.slice(end, close);
    // Nothing else left inside (a trailing comma aside): back to `{}` / `[]`.
    if (rest.replace(",", "").trim() === "") return splice(text, open, close, emptyInner);
    const comma = nextSignificant(text, end);
    return splice(text, start, comma !== -1 && text[comma] === "," ? comma + 1 : end, "");
  }
  if (index > 0) {
    const previous = siblings[index - 1] as Node;
    const previousEnd = previous.offset + previous.length;
    const between = text.slice(previousEnd, start);
    // The shape insertJson made after a value with a line comment: `value, // comment⏎  item`.
    const commented = /^,([ \t]*\/\/[^\r\n]*)\r?\n[ \t]*$/.exec(between);
    if (commented && index === siblings.length - 1) {
      const commentEnd = previousEnd + 1 + (commented[1] as string).length;
      return splice(splice(text, commentEnd, end, ""), previousEnd, previousEnd + 1, "");
    }
    if (/^,\s*$/.test(between)) {
      const after = nextSignificant(text, end);
      const isLast = index === siblings.length - 1;
      // A trailing comma after the last item: insertJson put the item after the old comma.
      if (isLast && after !== -1 && text[after] === "," && /^\s*$/.test(text.slice(end, after))) return splice(text, previousEnd + 1, after + 1, "");
      return splice(text, previousEnd, end, "");
    }
    const edits = jsonc().modify(text, path, undefined, {});
    return jsonc().applyEdits(text, edits);
  }
  const next = siblings[1] as Node;
  return splice(text, start, next.offset, "");
}

/** What is between the brackets of the container at `path` when it holds nothing (else null). */
export function emptyContainerInner(text: string, path: JsonPath): string | null {
  const node = nodeAt(text, path);
  if (!node || (node.type !== "object" && node.type !== "array") || (node.children ?? []).length > 0) return null;
  const inner = text.slice(node.offset + 1, node.offset + node.length - 1);
  return inner.trim() === "" ? inner : null;
}

/** A parsed JSON(C) text: its syntax tree (undefined for an empty text) and the parse errors. */
export interface ParsedTree {
  tree: Node | undefined;
  errors: ParseError[];
}

let lastParsed: { text: string; parsed: ParsedTree } | undefined;

/**
 * The syntax tree of a JSON(C) text (comments and trailing commas allowed). An edit parses the
 * text it edits three times (its value, an empty container, the node it inserts at), and a run of
 * edits each the text the last one made: the last text's tree is kept, so each is parsed once.
 * What it gives must not be changed.
 */
export function parseTreeOf(text: string): ParsedTree {
  if (lastParsed?.text === text) return lastParsed.parsed;
  const errors: ParseError[] = [];
  const parsed = { tree: jsonc().parseTree(text, errors, { allowTrailingComma: true, disallowComments: false }), errors };
  lastParsed = { text, parsed };
  return parsed;
}

/**
 * The value a syntax tree holds, made as jsonc-parser's `parse` makes it (plain objects, each
 * property assigned in order: a later duplicate wins), not as its `getNodeValue` does (objects
 * without a prototype).
 */
export function valueOfTree(node: Node): unknown {
  switch (node.type) {
    case "array":
      return (node.children ?? []).map(valueOfTree);
    case "object": {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) out[key.value as string] = valueOfTree(value);
      }
      return out;
    }
    default:
      return node.value;
  }
}

/** The node for the value at `path`, or undefined. */
export function nodeAt(text: string, path: JsonPath): Node | undefined {
  const { tree } = parseTreeOf(text);
  if (!tree) return undefined;
  return path.length === 0 ? tree : jsonc().findNodeAtLocation(tree, path);
}

function detectStyle(text: string): Style {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const unit = /\n([ \t]+)["}\]{[0-9a-zA-Z-]/.exec(text)?.[1] ?? "  ";
  return { eol, unit: unit.startsWith("\t") ? "\t" : unit };
}

function indent(depth: number, style: Style): string {
  return style.unit.repeat(depth);
}

/** A value pretty-printed with the file's unit, its continuation lines indented to `depth`. */
function pretty(value: unknown, depth: number, style: Style): string {
  return JSON.stringify(value, null, style.unit)
    .split("\n")
    .map((line, i) => (i === 0 ? line : indent(depth, style) + line))
    .join(style.eol);
}

/** The offset of the next character after `from` that is not whitespace or a comment (-1 at the end). */
function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const char = text[i];
    if (char === " " || char === "\t" || char === "\r" || char === "\n") i++;
    else if (char === "/" && text[i + 1] === "/") {
      const eol = text.indexOf("\n", i);
      i = eol === -1 ? text.length : eol + 1;
    } else if (char === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 2;
    } else return i;
  }
  return -1;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

import type { Node, ParseError } from "jsonc-parser";
import { requireLazily } from "./fs/require.js";
import { ConfigError } from "./config/config-error.js";

// Loaded on first use: a start without config files never needs the parser.
const jsonc = () => requireLazily("jsonc-parser") as typeof import("jsonc-parser");

/** A JSONC document parsed with positions, so problems can be reported by line. */
export interface JsoncDocument {
  file: string;
  text: string;
  value: unknown;
  tree: Node | undefined;
}

/**
 * How deep objects and arrays may nest. The parser and the value builder recurse once per level,
 * so a file of 100,000 `[` would overflow the stack; real config files nest a handful of levels.
 */
const MAX_JSONC_DEPTH = 100;

/** Parses JSONC (comments and trailing commas allowed); a syntax error is a `ConfigError`. */
export function parseJsonc(file: string, text: string): JsoncDocument {
  const body = stripBom(text);
  if (body.trim() === "") throw new ConfigError(file, 1, null, "the file is empty; write {} for an empty config");
  checkNesting(file, body);
  const errors: ParseError[] = [];
  const tree = jsonc().parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    throw new ConfigError(file, lineAt(body, first.offset), null, `invalid JSON (${describeParseError(first)})`);
  }
  return { file, text: body, value: tree ? nodeValue(tree) : undefined, tree };
}

/**
 * The line of the value at `path`, or of the nearest enclosing value that exists (a missing key
 * is reported at its parent object). Keys named in `key` point at the property itself.
 */
export function lineOfPath(doc: JsoncDocument, path: (string | number)[], key?: string): number {
  if (!doc.tree) return 1;
  if (key !== undefined) {
    const parent = jsonc().findNodeAtLocation(doc.tree, path);
    const property = parent?.children?.find((child) => child.children?.[0]?.value === key);
    if (property) return lineAt(doc.text, property.offset);
  }
  for (let depth = path.length; depth >= 0; depth--) {
    const node = jsonc().findNodeAtLocation(doc.tree, path.slice(0, depth));
    if (node) return lineAt(doc.text, node.parent?.type === "property" ? node.parent.offset : node.offset);
  }
  return 1;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// Token kinds of jsonc-parser's scanner (a const enum in its types, so not importable here).
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/** Counts nesting with the parser's own scanner (which does not recurse) before the parser does. */
function checkNesting(file: string, text: string): void {
  const scanner = jsonc().createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth > MAX_JSONC_DEPTH) {
        throw new ConfigError(file, scanner.getTokenStartLine() + 1, null, `nests objects and arrays more than ${MAX_JSONC_DEPTH} levels deep`);
      }
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      depth = Math.max(0, depth - 1);
    }
  }
}

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function describeParseError(error: ParseError): string {
  const name = jsonc().printParseErrorCode(error.error);
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A new copy of the document's value, for a caller that changes it. */
export function freshValue(doc: JsoncDocument): unknown {
  return doc.tree ? nodeValue(doc.tree) : undefined;
}

// jsonc-parser's own getNodeValue keeps "__proto__" as a real key on plain objects; build values
// without prototypes' special keys so a config file cannot change Object.prototype.
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object": {
      const value: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || !valueNode) continue;
        Object.defineProperty(value, String(keyNode.value), {
          value: nodeValue(valueNode),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return value;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

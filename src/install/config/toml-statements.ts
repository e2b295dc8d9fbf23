/**
 * The statements of a TOML text, where each is and what key it defines: a table header
 * (`[a.b]`, `[[a.b]]`) or a key/value line (`x.y = …`, its key taken from the table it is in).
 * Only for a text that parses (check with `parseToml` first): the scan follows strings,
 * multi-line strings, arrays and inline tables that span lines, but reports nothing wrong.
 */

export interface TomlStatement {
  kind: "table" | "array-table" | "value";
  /** The full key: a header's own; a key/value's table header, then its dotted key. */
  key: string[];
  /** The offset of the line the statement starts on. */
  lineStart: number;
  /** Just past the statement's line: its comment and line ending included. */
  end: number;
}

export function tomlStatements(text: string): TomlStatement[] {
  const statements: TomlStatement[] = [];
  let table: string[] = [];
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at < text.length) {
    const lineStart = at;
    at = skipBlank(text, at);
    const char = text[at];
    if (char === undefined) break;
    if (char === "\n" || char === "\r" || char === "#") {
      at = lineEnd(text, at);
      continue;
    }
    if (char === "[") {
      const array = text[at + 1] === "[";
      const key = readKey(text, at + (array ? 2 : 1));
      table = key.parts;
      at = lineEnd(text, key.end);
      statements.push({ kind: array ? "array-table" : "table", key: table, lineStart, end: at });
      continue;
    }
    const key = readKey(text, at);
    // The key ends at `=`; the value runs to the end of its line (or of its last line).
    at = lineEnd(text, valueEnd(text, key.end + 1));
    statements.push({ kind: "value", key: [...table, ...key.parts], lineStart, end: at });
  }
  return statements;
}

function skipBlank(text: string, from: number): number {
  let at = from;
  while (text[at] === " " || text[at] === "\t") at++;
  return at;
}

/** Just past the line ending of the line `from` is on (or the end of the text). */
function lineEnd(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  return newline === -1 ? text.length : newline + 1;
}

/** A dotted key from `from` (bare and quoted parts, blanks around the dots), and where it ends. */
function readKey(text: string, from: number): { parts: string[]; end: number } {
  const parts: string[] = [];
  let at = skipBlank(text, from);
  for (;;) {
    const char = text[at];
    if (char === '"') {
      const end = basicStringEnd(text, at);
      parts.push(unescapeBasic(text.slice(at + 1, end - 1)));
      at = end;
    } else if (char === "'") {
      const end = text.indexOf("'", at + 1) + 1;
      parts.push(text.slice(at + 1, end - 1));
      at = end;
    } else {
      const start = at;
      while (at < text.length && /[A-Za-z0-9_-]/.test(text[at] as string)) at++;
      parts.push(text.slice(start, at));
    }
    at = skipBlank(text, at);
    if (text[at] !== ".") return { parts, end: at };
    at = skipBlank(text, at + 1);
  }
}

/** Where a value that starts after `from` ends: at the comment or line ending after it, outside any string, array or inline table. */
function valueEnd(text: string, from: number): number {
  let depth = 0;
  let at = from;
  while (at < text.length) {
    if (text.startsWith('"""', at)) at = multilineEnd(text, at, '"""');
    else if (text.startsWith("'''", at)) at = multilineEnd(text, at, "'''");
    else {
      const char = text[at] as string;
      if (char === '"') at = basicStringEnd(text, at);
      else if (char === "'") at = text.indexOf("'", at + 1) + 1;
      else if (char === "#") {
        if (depth === 0) return at;
        at = lineEnd(text, at);
      } else if (char === "\n" || (char === "\r" && text[at + 1] === "\n")) {
        if (depth === 0) return at;
        at++;
      } else {
        if (char === "[" || char === "{") depth++;
        else if (char === "]" || char === "}") depth--;
        at++;
      }
    }
  }
  return at;
}

/** Just past the closing quote of the basic string that opens at `from`. */
function basicStringEnd(text: string, from: number): number {
  let at = from + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
  return at + 1;
}

/** Just past the closing delimiter of a multi-line string (which may end with up to two more quotes). */
function multilineEnd(text: string, from: number, quote: string): number {
  let at = from + 3;
  for (;;) {
    if (quote === '"""' && text[at] === "\\") {
      at += 2;
      continue;
    }
    if (text.startsWith(quote, at)) {
      at += 3;
      let extra = 0;
      while (extra < 2 && text[at] === quote[0]) {
        at++;
        extra++;
      }
      return at;
    }
    if (at >= text.length) return at;
    at++;
  }
}

const ESCAPES: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\u001b", '"': '"', "\\": "\\" };

function unescapeBasic(body: string): string {
  return body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g, (_match, code: string) => {
    if (code.length > 1) return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
    return ESCAPES[code] ?? code;
  });
}

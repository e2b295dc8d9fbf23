/**
 * The common case of frontmatter without the YAML library: a flat mapping of keys to strings,
 * one `key: value` per line, or to lists of strings (`key:`, then one indented `- value` a line),
 * with whole-line comments. Only text whose meaning in YAML is beyond doubt is read or written
 * here; anything else (numbers, booleans, null, nesting, trailing comments, escapes other than
 * `\\` and `\"`, a `: ` or `#` in a plain value, odd characters) answers null, and the caller hands
 * it to the `yaml` package. A test checks both directions against that package on generated input.
 */

const KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

// What a value may hold: printable ASCII and the BMP outside the surrogates, without the
// characters YAML gives a meaning (`:` and `#` end or comment a plain scalar, brackets and braces
// are flow syntax), the byte-order mark and the Unicode line separators. Never a control
// character, tab or line break.
const NON_ASCII = "\\u00a0-\\u2027\\u202a-\\ud7ff\\ue000-\\ufefe\\uff00-\\ufffd";
const PLAIN_INNER = `\\x20-\\x22\\x24-\\x39\\x3b-\\x5a\\x5c\\x5e-\\x7a\\x7c\\x7e${NON_ASCII}`;
const PLAIN_LAST = `\\x21\\x22\\x24-\\x39\\x3b-\\x5a\\x5c\\x5e-\\x7a\\x7c\\x7e${NON_ASCII}`;
/**
 * A plain scalar that can only be a string: a letter first, no trailing space, and a colon only
 * where no space follows it (`ship:post`; `: ` would start a mapping) and not last.
 */
const PLAIN = new RegExp(`^[A-Za-z](?:[${PLAIN_INNER}:]*[${PLAIN_LAST}])?$`);
/** Quoted scalars: in "…" no escape but a backslash before a backslash or a double quote (read only); in '…' no single quote. */
const DOUBLE_QUOTED = new RegExp(`^"((?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e${NON_ASCII}]|\\\\[\\\\"])*)"$`);
const SINGLE_QUOTED = new RegExp(`^'([\\x20-\\x26\\x28-\\x7e${NON_ASCII}]*)'$`);
/** Plain scalars the YAML core schema reads as null or a boolean (every other one starting with a letter is a string). */
const KEYWORDS = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"]);

/** A string YAML writes and reads back as itself, unquoted. */
export function isPlainString(value: string): boolean {
  return PLAIN.test(value) && !value.includes(": ") && !KEYWORDS.has(value);
}

function isPlainKey(key: string): boolean {
  return KEY.test(key) && !KEYWORDS.has(key);
}

/** A line YAML reads as a comment: `#` first, after nothing but spaces. */
const COMMENT = /^ *#/;

/**
 * Reads YAML that is a flat mapping of keys to strings, each on its own line (`key: value`,
 * `key: "value"`, `key: 'value'`; LF or CRLF; empty lines), or to lists of them (`key:` alone,
 * then at least one `- value` line, all indented by the same spaces). Null when the text is
 * anything else (or a key repeats): then only the YAML library can say what it means.
 */
export function parsePlainMapping(yamlText: string): Record<string, string | string[]> | null {
  if (yamlText === "") return null;
  const data: Record<string, string | string[]> = {};
  const seen = new Set<string>();
  // The list being read (its key's entry) and its items' indentation, once known.
  let list: string[] | null = null;
  let indent = "";
  let start = 0;
  while (start < yamlText.length) {
    let end = yamlText.indexOf("\n", start);
    if (end === -1) end = yamlText.length;
    let line = yamlText.slice(start, end);
    start = end + 1;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line === "" || COMMENT.test(line)) continue;
    if (list) {
      const item = listItem(line, indent);
      if (item !== undefined) {
        if (item === null) return null;
        if (list.length === 0) indent = line.slice(0, line.indexOf("-"));
        list.push(item);
        continue;
      }
      if (list.length === 0) return null;
      list = null;
    }
    if (line.endsWith(":") && isPlainKey(line.slice(0, -1))) {
      const key = line.slice(0, -1);
      if (seen.has(key)) return null;
      seen.add(key);
      data[key] = list = [];
      indent = "";
      continue;
    }
    const colon = line.indexOf(": ");
    if (colon === -1) return null;
    const key = line.slice(0, colon);
    if (!isPlainKey(key) || seen.has(key)) return null;
    let rest = colon + 2;
    while (line.charCodeAt(rest) === 0x20) rest++;
    const value = scalar(line.slice(rest));
    if (value === null) return null;
    seen.add(key);
    data[key] = value;
  }
  if (list && list.length === 0) return null;
  return seen.size === 0 ? null : data;
}

/**
 * A `- value` line of a list: its value; null when it is one but not plain (the YAML library
 * must read it); undefined when it is not a list line (the list ended). The first item sets the
 * indentation (one space or more); the others must have exactly it.
 */
function listItem(line: string, indent: string): string | null | undefined {
  let spaces = 0;
  while (line.charCodeAt(spaces) === 0x20) spaces++;
  if (spaces === 0 || line.charCodeAt(spaces) !== 0x2d) return undefined;
  if ((indent !== "" && spaces !== indent.length) || line.charCodeAt(spaces + 1) !== 0x20) return null;
  let rest = spaces + 2;
  while (line.charCodeAt(rest) === 0x20) rest++;
  return scalar(line.slice(rest));
}

function scalar(text: string): string | null {
  if (isPlainString(text)) return text;
  const double = DOUBLE_QUOTED.exec(text);
  if (double) return (double[1] as string).replace(/\\(["\\])/g, "$1");
  const single = SINGLE_QUOTED.exec(text);
  return single ? (single[1] as string) : null;
}

/**
 * `key: value` lines for a mapping whose keys and values are all plain strings, or non-empty
 * lists of them (`key:`, then `  - value` lines), exactly what the YAML library writes for
 * them; null for anything else.
 */
export function renderPlainMapping(data: Record<string, unknown>, eol: string): string | null {
  let out = "";
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    if (!isPlainKey(key)) return null;
    if (Array.isArray(value)) {
      if (value.length === 0 || !value.every((item) => typeof item === "string" && isPlainString(item))) return null;
      out += `${key}:${eol}${value.map((item) => `  - ${item}${eol}`).join("")}`;
      continue;
    }
    if (typeof value !== "string" || !isPlainString(value)) return null;
    out += `${key}: ${value}${eol}`;
  }
  return out === "" ? null : out;
}

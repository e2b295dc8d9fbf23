/**
 * The `.env` grammar Gemini CLI reads (it uses the `dotenv` package), so bosun sees the same
 * variables Gemini would: `NAME=value`, `export NAME=value` and `NAME: value`; values in single,
 * double or back quotes (which may span lines; `\n` and `\r` are expanded inside double quotes);
 * an unquoted value ends at `#`; a later line wins. The values stay inside detection: callers only
 * ask whether a variable is set and compare selector values such as `true`.
 */

// One assignment: optional `export`, a name of word characters, dots and dashes, `=` or `: `,
// then a quoted value (any quote, lines included) or plain text up to a comment or the line's end.
const NAME = String.raw`[\w.-]+`;
const QUOTED = [`'(?:\\\\'|[^'])*'`, `"(?:\\\\"|[^"])*"`, "`(?:\\\\`|[^`])*`"].map((q) => String.raw`\s*` + q).join("|");
const ASSIGNMENT = new RegExp(String.raw`^\s*(?:export\s+)?(${NAME})(?:\s*=\s*?|:\s+?)(${QUOTED}|[^#\r\n]+)?\s*(?:#.*)?$`, "gm");

export function parseDotenv(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const source = text.replace(/\r\n?/g, "\n");
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(source); match; match = ASSIGNMENT.exec(source)) {
    const raw = (match[2] ?? "").trim();
    found.set(match[1]!, unquote(raw));
  }
  return found;
}

function unquote(raw: string): string {
  const quote = raw[0];
  const inner = quote && (quote === "'" || quote === '"' || quote === "`") && raw.length > 1 && raw.endsWith(quote) ? raw.slice(1, -1) : raw;
  return quote === '"' ? inner.replace(/\\n/g, "\n").replace(/\\r/g, "\r") : inner;
}

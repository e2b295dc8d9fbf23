import { requireLazily } from "../../kernel/fs/require.js";
import { PackError } from "./pack-error.js";
import { parsePlainMapping, renderPlainMapping } from "./plain-yaml.js";

const yaml = () => requireLazily("yaml") as typeof import("yaml");

/** A markdown artifact split into its YAML frontmatter and its body. */
export interface MarkdownArtifact {
  data: Record<string, unknown>;
  body: string;
  /** The line the body starts on (for errors in templates). */
  bodyLine: number;
}

/**
 * Splits `---` YAML frontmatter from a markdown file. The frontmatter must be present, parse as
 * YAML and be a mapping; a problem is a `PackError` naming the file and line. Frontmatter that
 * is plainly `key: text` lines is read without the YAML library (same result, a fraction of the
 * time); everything else goes through it.
 */
export function parseFrontmatter(text: string, file: string): MarkdownArtifact {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(source);
  if (!open) throw new PackError(file, "missing frontmatter: the file must start with a --- line, then YAML, then a --- line", 1);
  const rest = source.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) throw new PackError(file, "frontmatter is not closed by a --- line", 1);
  const yamlText = rest.slice(0, close.index);
  const headerLines = () => countLines(source.slice(0, open[0].length + close.index + close[0].length));
  const body = rest.slice(close.index + close[0].length);
  const plain = parsePlainMapping(yamlText);
  if (plain) return { data: plain, body, bodyLine: headerLines() + 1 };
  const document = yaml().parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  const problem = document.errors[0];
  if (problem) {
    // The error's line in the YAML (an unterminated value is reported at its end: the last line with text).
    const lines = yamlText.slice(0, problem.pos[0]).split("\n");
    const lastLine = yamlText.trimEnd().split("\n").length;
    const line = Math.max(1, Math.min(lines.length, lastLine));
    throw new PackError(file, `invalid YAML in frontmatter (${problem.message.split("\n")[0]})`, line + 1);
  }
  const data: unknown = document.toJS({ maxAliasCount: 0 });
  if (data !== null && (typeof data !== "object" || Array.isArray(data))) throw new PackError(file, "frontmatter must be a mapping of keys to values", 2);
  return { data: (data ?? {}) as Record<string, unknown>, body, bodyLine: headerLines() + 1 };
}

/** Frontmatter text (`---` YAML `---`) for the given keys, in order, skipping undefined values. */
export function renderFrontmatter(data: Record<string, unknown>, eol = "\n"): string {
  const plain = renderPlainMapping(data, eol);
  if (plain !== null) return `---${eol}${plain}---${eol}`;
  const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  const body = yaml().stringify(defined, { lineWidth: 0 }).replace(/\n/g, eol);
  return `---${eol}${body}---${eol}`;
}

/** The line of `key:` in a markdown file's frontmatter (1 when not found), for error messages. */
export function lineOfKey(text: string, key: string): number {
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((line, i) => i > 0 && line.startsWith(`${key}:`));
  return index === -1 ? 1 : index + 1;
}

function countLines(text: string): number {
  let lines = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}

import { sameSetting, settingAt, type SettingEdit } from "./json-settings.js";
import { parseToml } from "./toml-block.js";
import { tomlStatements } from "./toml-statements.js";
import { tomlKey, tomlTableLines } from "./toml-text.js";

/**
 * Settings edits in a TOML config (Codex's config.toml): a whole table at a path, such as
 * `[mcp_servers.<name>]`. bosun appends its table at the end of the file between two marker
 * comments that name it, in the file's line endings; everything outside its markers is yours,
 * byte for byte. An upgrade replaces what is between the markers; an uninstall takes the markers
 * and all between them out again (with the line ending bosun put before them, when the file did
 * not end with one). Every edit is checked by parsing the result: the table holds the value, and
 * nothing else in the file means anything different.
 */

/** The marker comments around bosun's table at `key` (`mcp_servers.my-server`). */
export const tomlTableBegin = (key: string) => `# >>> bosun: [${key}] (bosun install writes it, bosun uninstall removes it) >>>`;
export const tomlTableEnd = (key: string) => `# <<< bosun: [${key}] <<<`;

type Edit = Pick<SettingEdit, "path" | "mode" | "value">;

/**
 * Why the table cannot go into this config: the edit is not a whole table, a part of its path
 * holds something that is not a table, or the file defines the path in a way bosun cannot add to
 * or take out (an inline table, `mcp_servers = { … }`). Null when it can, or when the value there
 * is the pack's already.
 */
export function tomlSettingSlotProblem(text: string | null, root: Record<string, unknown>, edit: Edit): string | null {
  const key = tomlKey(edit.path);
  if (edit.mode !== "value" || !isTable(edit.value)) return `bosun writes only whole tables into a TOML file, and ${key} is not one`;
  for (let depth = 1; depth < edit.path.length; depth++) {
    const value = settingAt(root, edit.path.slice(0, depth));
    if (value !== undefined && !isTable(value)) return `${tomlKey(edit.path.slice(0, depth))} is not a table`;
  }
  const current = settingAt(root, edit.path);
  if (current !== undefined && sameSetting(current, edit.value)) return null;
  try {
    applyTomlSetting(text, edit);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Sets the table at `edit.path`: appended in bosun's markers when the path is absent; bosun's
 * marked table replaced in place; anything else at the path (your table, your dotted keys)
 * taken out and bosun's appended (the plan backs your file up first). `created`: how many
 * tables above it the header brought into being. Throws when the result would not hold it.
 */
export function applyTomlSetting(text: string | null, edit: Edit): { text: string; created: number } {
  const key = tomlKey(edit.path);
  if (edit.mode !== "value" || !isTable(edit.value)) throw new Error(`bosun writes only whole tables into a TOML file, and ${key} is not one`);
  const current = text ?? "";
  const before = parseOrThrow(current);
  let depth = 0;
  while (depth < edit.path.length - 1 && settingAt(before, edit.path.slice(0, depth + 1)) !== undefined) depth++;
  const created = edit.path.length - 1 - depth;
  const lines = tomlTableLines(edit.path, edit.value);
  let next: string | null = null;
  if (settingAt(before, edit.path) === undefined) next = appendTable(current, key, lines);
  else {
    const marked = findMarkedTable(current, key);
    if (marked) {
      const inPlace = current.slice(0, marked.bodyStart) + lines.map((line) => line + marked.eol).join("") + current.slice(marked.bodyEnd);
      if (holds(inPlace, before, edit)) next = inPlace;
    }
    next ??= appendTable(withoutTable(current, edit.path), key, lines);
  }
  if (!holds(next, before, edit)) throw new Error(whyNot(current, edit.path));
  return { text: next, created };
}

/**
 * Takes the table at `edit.path` out: bosun's marked table (the exact text bosun added), or, when
 * the markers are gone, the table's header and keys wherever they are. The text as it was when
 * the path is not there, or cannot be taken out without changing anything else.
 */
export function removeTomlSetting(text: string, edit: Pick<SettingEdit, "path">): string {
  const before = parseOrThrow(text);
  if (settingAt(before, edit.path) === undefined) return text;
  const key = tomlKey(edit.path);
  let next = text;
  for (let marked = findMarkedTable(next, key); marked; marked = findMarkedTable(next, key)) next = next.slice(0, marked.start) + next.slice(marked.end);
  const parsed = parseToml(next);
  if (!parsed.ok || settingAt(parsed.value, edit.path) !== undefined) next = withoutTable(next, edit.path);
  return holds(next, before, { path: edit.path, value: undefined }) ? next : text;
}

/** What is left of a file holds nothing at all (no setting, no comment): a file bosun created can go. */
export function tomlLeftEmpty(text: string): boolean {
  return text.replace(/^\ufeff/, "").trim() === "";
}

/**
 * Where bosun's marked table for `key` is: `start`…`end` is all bosun added (its markers, and the
 * line ending before them when they end the file without one of their own), `bodyStart`…`bodyEnd`
 * the lines between the markers, `eol` the line ending its begin marker has.
 */
export function findMarkedTable(text: string, key: string): { start: number; end: number; bodyStart: number; bodyEnd: number; eol: string } | null {
  const begin = lineAt(text, tomlTableBegin(key), 0);
  if (begin === null) return null;
  const finish = lineAt(text, tomlTableEnd(key), begin.next);
  if (finish === null) return null;
  const closed = finish.next > finish.start + tomlTableEnd(key).length;
  let start = begin.start;
  if (!closed && start > 0 && text[start - 1] === "\n") start -= text[start - 2] === "\r" ? 2 : 1;
  return { start, end: finish.next, bodyStart: begin.next, bodyEnd: finish.start, eol: text[begin.next - 2] === "\r" ? "\r\n" : "\n" };
}

/** A line that is exactly `line` (before its line ending), from `from` on: where it starts, and just past its line ending. */
function lineAt(text: string, line: string, from: number): { start: number; next: number } | null {
  for (let at = text.indexOf(line, from); at !== -1; at = text.indexOf(line, at + 1)) {
    const atLineStart = at === 0 || text[at - 1] === "\n" || (at === 1 && text.charCodeAt(0) === 0xfeff);
    const after = at + line.length;
    const ending = text.startsWith("\r\n", after) ? 2 : text[after] === "\n" ? 1 : after === text.length ? 0 : -1;
    if (atLineStart && ending !== -1) return { start: at, next: after + ending };
  }
  return null;
}

/** The file with bosun's table at its end, in the file's line endings (one that ends without a line ending keeps ending without one). */
function appendTable(text: string, key: string, lines: readonly string[]): string {
  const bom = text.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  const body = text.slice(bom.length);
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const block = [tomlTableBegin(key), ...lines, tomlTableEnd(key)].join(eol);
  if (body === "") return bom + block + eol;
  return body.endsWith("\n") ? text + block + eol : text + eol + block;
}

/**
 * The text without every definition of the table at `path`: bosun's marked tables, headers at or
 * under the path with their keys (the comments and blank lines after a section's last key stay,
 * unless the next section goes too: they may be about the next one), and dotted keys under it.
 */
function withoutTable(text: string, path: readonly string[]): string {
  let next = text;
  const key = tomlKey(path);
  for (let marked = findMarkedTable(next, key); marked; marked = findMarkedTable(next, key)) next = next.slice(0, marked.start) + next.slice(marked.end);
  const statements = tomlStatements(next);
  const under = (parts: readonly string[]) => parts.length >= path.length && path.every((part, index) => parts[index] === part);
  const cuts: [number, number][] = [];
  let section: [number, number] | null = null;
  for (const statement of statements) {
    if (statement.kind !== "value") {
      // A header under the path right after a section under it: one cut, with what is between.
      if (section && under(statement.key)) section[1] = statement.end;
      else {
        if (section) cuts.push(section);
        section = under(statement.key) ? [statement.lineStart, statement.end] : null;
      }
    } else if (section) section[1] = statement.end;
    else if (under(statement.key)) cuts.push([statement.lineStart, statement.end]);
  }
  if (section) cuts.push(section);
  for (const [start, end] of cuts.reverse()) next = next.slice(0, start) + next.slice(end);
  return next;
}

/** The text parses, holds `edit.value` at the path (undefined: nothing), and means what `before` did everywhere else. */
function holds(text: string, before: Record<string, unknown>, edit: { path: readonly string[]; value: unknown }): boolean {
  const parsed = parseToml(text);
  if (!parsed.ok) return false;
  const now = settingAt(parsed.value, edit.path);
  if (edit.value === undefined ? now !== undefined : now === undefined || !sameSetting(now, edit.value)) return false;
  return sameSetting(withoutPath(parsed.value, edit.path), withoutPath(before, edit.path));
}

/** Why bosun cannot put its table at `path` into this text, for the plan. */
function whyNot(text: string, path: readonly string[]): string {
  const key = tomlKey(path);
  for (const statement of tomlStatements(text)) {
    const inline = statement.kind === "value" && statement.key.length < path.length && statement.key.every((part, index) => path[index] === part);
    if (inline) return `${tomlKey(statement.key)} is written inline (${tomlKey(statement.key)} = …); bosun can add [${key}] only beside [${tomlKey(statement.key)}.…] tables`;
  }
  return `bosun cannot set [${key}] in it without changing something else`;
}

/**
 * A copy of `value` without the key at `path`, and without the tables on the way that this
 * leaves empty (a header brings its parents into being): tables on the way copied, nothing else.
 */
function withoutPath(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [first, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(value, first)) return value;
  const copy = { ...value };
  const inner = copy[first];
  if (rest.length === 0) delete copy[first];
  else if (isTable(inner)) {
    const left = withoutPath(inner, rest);
    if (Object.keys(left).length === 0) delete copy[first];
    else copy[first] = left;
  }
  return copy;
}

function parseOrThrow(text: string): Record<string, unknown> {
  const parsed = parseToml(text);
  if (!parsed.ok) throw new Error(`cannot edit a config that does not parse: ${parsed.problem} at line ${parsed.line}`);
  return parsed.value;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

import { requireLazily } from "../../kernel/fs/require.js";
import { insertJson, removeJsonNode, type JsonPath } from "./jsonc-edit.js";
import { parseConfig } from "./json-hooks.js";

const jsonc = () => requireLazily("jsonc-parser") as typeof import("jsonc-parser");

/**
 * Format-preserving edits of settings keys in a JSON(C) settings file: a value set at a path, an
 * entry added to the list at a path, and their removal. Only the inserted or removed text
 * changes (see `insertJson`); the containers an edit created are recorded as a count of path
 * parts, so removing the last entry takes them out again.
 */

/** One settings edit: a whole value at `path`, or one entry of the list at `path`. */
export interface SettingEdit {
  path: readonly string[];
  mode: "entry" | "value";
  value: unknown;
  /** How many containers the edit created (for `entry`, the list counts as one). */
  created?: number;
}

/** The value at a path of a parsed config (undefined when a part is missing or not an object). */
export function settingAt(root: unknown, path: readonly (string | number)[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof key === "number") current = Array.isArray(current) ? current[key] : undefined;
    else current = isObject(current) && Object.hasOwn(current, key) ? current[key] : undefined;
  }
  return current;
}

/**
 * Why the edit cannot go into this config: a part of its path holds a value of another type
 * (`"permissions": []`, `"env": "x"`), or the list is not a list. Null when it can.
 */
export function settingSlotProblem(root: Record<string, unknown>, edit: Pick<SettingEdit, "path" | "mode">): string | null {
  const containers = edit.mode === "entry" ? edit.path.length : edit.path.length - 1;
  let holder: unknown = root;
  for (let index = 0; index < containers; index++) {
    const key = edit.path[index] as string;
    if (!isObject(holder) || !Object.hasOwn(holder, key)) return null;
    const next = holder[key];
    const where = edit.path.slice(0, index + 1).join(".");
    const last = index === containers - 1 && edit.mode === "entry";
    if (last && !Array.isArray(next)) return `${where} is not a list`;
    if (!last && !isObject(next)) return `${where} is not an object`;
    holder = next;
  }
  return null;
}

/** Adds an entry to the list at `edit.path`, or sets the value there (replacing one that is there). */
export function applySetting(text: string | null, edit: Pick<SettingEdit, "path" | "mode" | "value">): { text: string; created: number } {
  const current = text ?? "{}\n";
  const { body, bom } = split(current);
  const parsed = parseOrThrow(body);
  const path = [...edit.path];
  if (edit.mode === "value" && settingAt(parsed, path) !== undefined) {
    // Replacing in place: the key keeps its position, the rest of the file its bytes.
    const unit = /\n([ \t]+)"/.exec(body)?.[1] ?? "  ";
    const options = { formattingOptions: { insertSpaces: !unit.startsWith("\t"), tabSize: unit.startsWith("\t") ? 1 : unit.length, eol: body.includes("\r\n") ? "\r\n" : "\n" } };
    return { text: bom + jsonc().applyEdits(body, jsonc().modify(body, path, edit.value, options)), created: 0 };
  }
  // The deepest part of the path that is there; the rest is inserted as one nested value.
  const containers = edit.mode === "entry" ? path.length : path.length - 1;
  let depth = 0;
  while (depth < containers && settingAt(parsed, path.slice(0, depth + 1)) !== undefined) depth++;
  const created = containers - depth;
  let edited: string;
  if (edit.mode === "entry" && created === 0) edited = insertJson(body, path, null, edit.value);
  else if (edit.mode === "value" && created === 0) edited = insertJson(body, path.slice(0, -1), path.at(-1) as string, edit.value);
  else {
    const leaf = edit.mode === "entry" ? [edit.value] : edit.value;
    const inner = path.slice(depth + 1);
    const nested = inner.reduceRight<unknown>((value, key) => ({ [key]: value }), leaf);
    edited = insertJson(body, path.slice(0, depth), path[depth] as string, nested);
  }
  return { text: bom + edited, created };
}

/**
 * Removes bosun's edit: the list entry equal to `edit.value` (the last such), or the value at the
 * path; then each container the edit created that is left empty, deepest first.
 */
export function removeSetting(text: string, edit: SettingEdit): string {
  const { body, bom } = split(text);
  const parsed = parseOrThrow(body);
  let next = body;
  if (edit.mode === "entry") {
    const list = settingAt(parsed, edit.path);
    if (!Array.isArray(list)) return text;
    const index = list.map((item) => JSON.stringify(item)).lastIndexOf(JSON.stringify(edit.value));
    if (index === -1) return text;
    next = removeJsonNode(next, [...edit.path, index]);
  } else {
    if (settingAt(parsed, edit.path) === undefined) return text;
    next = removeJsonNode(next, [...edit.path]);
  }
  const containers = edit.mode === "entry" ? edit.path.length : edit.path.length - 1;
  for (let depth = containers; depth > containers - (edit.created ?? 0) && depth > 0; depth--) {
    const container: JsonPath = edit.path.slice(0, depth);
    const value = settingAt(parseOrThrow(next), container);
    const empty = Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
    if (!empty) break;
    next = removeJsonNode(next, container);
  }
  return bom + next;
}

/** Is bosun's edit there: the entry in the list, or the value at the path? */
export function hasSetting(root: Record<string, unknown>, edit: Pick<SettingEdit, "path" | "mode" | "value">): boolean {
  const found = settingAt(root, edit.path);
  if (edit.mode === "value") return found !== undefined && sameSetting(found, edit.value);
  return Array.isArray(found) && found.some((item) => sameSetting(item, edit.value));
}

/** Equal as JSON values (key order aside). */
export function sameSetting(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  return JSON.stringify(value);
}

function parseOrThrow(body: string): Record<string, unknown> {
  const parsed = parseConfig(body);
  if (!parsed.ok) throw new Error(`cannot edit a config that does not parse: ${parsed.problem}`);
  return parsed.value;
}

function split(text: string): { body: string; bom: string } {
  return text.charCodeAt(0) === 0xfeff ? { body: text.slice(1), bom: "\ufeff" } : { body: text, bom: "" };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

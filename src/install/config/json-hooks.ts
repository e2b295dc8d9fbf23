import { requireLazily } from "../../kernel/fs/require.js";
import type { HookConfigFormat } from "../../runtimes/kit/install-types.js";
import { emptyContainerInner, insertJson, parseTreeOf, removeJsonNode, valueOfTree } from "./jsonc-edit.js";

const jsonc = () => requireLazily("jsonc-parser") as typeof import("jsonc-parser");

/** A hook bosun registers: the runtime's event name, the command, and its timeout (runtime's unit). */
export interface HookEntry {
  event: string;
  command: string;
  timeout: number;
  matcher?: string;
}

export type ParsedConfig = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string; line: number };

/** Parses a JSON(C) config (comments and trailing commas allowed); it must hold an object. */
export function parseConfig(text: string): ParsedConfig {
  const body = stripBom(text);
  if (body.trim() === "") return { ok: true, value: {} };
  // The tree an edit of this text parses anyway (jsonc-edit.ts keeps the last one): its value is the parse's.
  const { tree, errors } = parseTreeOf(body);
  const value: unknown = tree ? valueOfTree(tree) : undefined;
  const first = errors[0];
  if (first) return { ok: false, problem: `invalid JSON (${jsonc().printParseErrorCode(first.error)})`, line: lineAt(body, first.offset) };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, problem: "does not hold a JSON object", line: 1 };
  return { ok: true, value: value as Record<string, unknown> };
}

/** Where every format keeps an event's entries: `hooks.<event>`. */
function eventPath(event: string): string[] {
  return ["hooks", event];
}

/** How many parts `hooks.<event>` has: an entry with `created` this high made the `hooks` object. */
export const EVENT_PATH_DEPTH = 2;

/** The entry bosun adds for a hook, in the format's shape. */
function entryFor(format: HookConfigFormat, hook: HookEntry): unknown {
  switch (format) {
    case "nested":
      return { ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }), hooks: [{ type: "command", command: hook.command, timeout: hook.timeout }] };
    case "cursor":
      return { command: hook.command, timeout: hook.timeout };
    case "windsurf":
      return { command: hook.command };
  }
}

/** The command of a flat entry. */
function commandOf(entry: unknown): string | undefined {
  return isObject(entry) && typeof entry.command === "string" ? entry.command : undefined;
}

/** Paths (inside the event's array) of the entries running exactly `command`, last first. */
function findEntries(format: HookConfigFormat, list: unknown[], command: string): (number | string)[][] {
  const found: (number | string)[][] = [];
  list.forEach((item, index) => {
    if (format === "nested") {
      const inner = isObject(item) && Array.isArray(item.hooks) ? item.hooks : [];
      inner.forEach((hook, hookIndex) => {
        if (isObject(hook) && hook.type === "command" && hook.command === command) found.push([index, "hooks", hookIndex]);
      });
    } else if (commandOf(item) === command) found.push([index]);
  });
  return found.reverse();
}

/**
 * Why a hook for `event` cannot be registered in this config: a part of `hooks.<event>` that is
 * there holds a value of another type (`{"hooks": "x"}`); null when it can. Checked for every hook
 * the pack wants in the file, registered already or not: an entry bosun recorded that is gone from
 * a well-formed file was removed by you, but one under a value of the wrong type cannot be there.
 */
export function hookSlotProblem(value: Record<string, unknown>, event: string): string | null {
  const path = eventPath(event);
  let holder: Record<string, unknown> = value;
  for (const [index, key] of path.entries()) {
    if (!Object.hasOwn(holder, key)) return null;
    const next = holder[key];
    const where = path.slice(0, index + 1).join(".");
    if (index === path.length - 1) return Array.isArray(next) ? null : `${where} is not a list`;
    if (!isObject(next)) return `${where} is not an object`;
    holder = next;
  }
  return null;
}

/** Is this exact hook (event and command) registered in the config? */
export function hasHookEntry(value: Record<string, unknown>, format: HookConfigFormat, event: string, command: string): boolean {
  const list = valueAt(value, eventPath(event));
  return Array.isArray(list) && findEntries(format, list, command).length > 0;
}

/**
 * Adds hook entries. Only the inserted text is new: comments, key order, indentation, trailing
 * commas and line endings elsewhere stay byte for byte (see `insertJson`). `text` null creates
 * the file.
 */
export function addHookEntries(text: string | null, format: HookConfigFormat, hooks: readonly HookEntry[]): { text: string; created: number[]; inner: (string | null)[] } {
  let current = text ?? (format === "cursor" ? '{\n  "version": 1\n}\n' : "{}\n");
  const created: number[] = [];
  const inner: (string | null)[] = [];
  for (const hook of hooks) {
    const path = eventPath(hook.event);
    const parsed = parseConfig(current);
    if (!parsed.ok) throw new Error(`cannot edit a config that does not parse: ${parsed.problem}`);
    const problem = hookSlotProblem(parsed.value, hook.event);
    if (problem) throw new Error(problem);
    // The deepest part of the path that exists (each one of the right type); the rest is inserted as one nested value.
    let depth = 0;
    while (depth < path.length && Object.hasOwn(valueAt(parsed.value, path.slice(0, depth)) as object, path[depth] as string)) depth++;
    created.push(path.length - depth);
    const entry = entryFor(format, hook);
    const body = stripBom(current);
    // What an empty container held between its brackets ({} or {⏎}): put back when it empties again.
    inner.push(emptyContainerInner(body, path.slice(0, depth)));
    let edited: string;
    if (depth === path.length) edited = insertJson(body, path, null, entry);
    else {
      const nested = path.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), [entry]);
      edited = insertJson(body, path.slice(0, depth), path[depth] as string, nested);
    }
    current = withBom(current, edited);
  }
  return { text: current, created, inner };
}

/**
 * Removes the entries running exactly these commands (and nothing else). A group, event list or
 * `hooks` object left empty goes too, but only when bosun created it (`created`: how many parts
 * of the event's path did not exist when the entry was added; unknown: all of them); one that
 * was there before stays, empty or not.
 */
export function removeHookEntries(text: string, format: HookConfigFormat, hooks: readonly { event: string; command: string; created?: number; emptyInner?: string }[]): string {
  let current = text;
  // The entries that created fewer containers go first: a container then goes with the last
  // entry to leave it, which is one that created it (an event list, `hooks`), whatever the order
  // they were recorded in.
  const ordered = [...hooks].sort((a, b) => (a.created ?? EVENT_PATH_DEPTH) - (b.created ?? EVENT_PATH_DEPTH));
  for (const hook of ordered) {
    const eventKey = eventPath(hook.event);
    for (;;) {
      const parsed = parseConfig(current);
      if (!parsed.ok) throw new Error(`cannot edit a config that does not parse: ${parsed.problem}`);
      const list = valueAt(parsed.value, eventKey);
      if (!Array.isArray(list)) break;
      const [first] = findEntries(format, list, hook.command);
      if (!first) break;
      const keepDepth = eventKey.length - Math.min(hook.created ?? eventKey.length, eventKey.length);
      current = withBom(current, removeJsonNode(stripBom(current), prunedPath(parsed.value, [...eventKey, ...first], keepDepth), hook.emptyInner ?? ""));
    }
  }
  return current;
}

/** The node to remove: the entry, or the highest container (deeper than `keepDepth`) that removing it leaves empty. */
function prunedPath(root: Record<string, unknown>, path: (string | number)[], keepDepth: number): (string | number)[] {
  let target = path;
  while (target.length > 1 && target.length - 1 > keepDepth) {
    const parent = valueAt(root, target.slice(0, -1));
    const size = Array.isArray(parent) ? parent.length : isObject(parent) ? Object.keys(parent).length : 0;
    if (size === 1 || isGroupShell(parent, target[target.length - 1])) target = target.slice(0, -1);
    else break;
  }
  return target;
}

// A nested group `{matcher, hooks: [ours]}` is bosun's shell once its only hook goes: the matcher
// alone means nothing.
function isGroupShell(parent: unknown, key: string | number | undefined): boolean {
  if (key !== "hooks" || !isObject(parent) || !Array.isArray(parent.hooks) || parent.hooks.length !== 1) return false;
  return Object.keys(parent).every((name) => name === "hooks" || name === "matcher");
}

/** True when the config holds nothing but what bosun writes into a file it creates. */
export function isSkeleton(value: Record<string, unknown>, format: HookConfigFormat): boolean {
  const keys = Object.keys(value);
  if (keys.length === 0) return true;
  return format === "cursor" && keys.length === 1 && value.version === 1;
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof key === "number") current = Array.isArray(current) ? current[key] : undefined;
    else current = isObject(current) && Object.hasOwn(current, key) ? current[key] : undefined;
  }
  return current;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function withBom(original: string, edited: string): string {
  return original.charCodeAt(0) === 0xfeff ? "\ufeff" + edited : edited;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}


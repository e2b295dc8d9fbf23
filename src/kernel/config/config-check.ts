import { ConfigError } from "./config-error.js";
import type { ConfigWarning } from "./config-warning.js";
import { freshValue, lineOfPath, type JsoncDocument } from "../jsonc.js";
import { knownKeysAt } from "./schema-keys.js";
import { closestName } from "../suggest.js";

/** A zod issue, as far as config reporting reads it (zod 4 issue codes). */
export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  issues?: { message: string }[];
  /** `invalid_union`: each option's own issues, with paths relative to the union. */
  errors?: SchemaIssue[][];
}

/** The part of a zod schema the check uses (kept structural so this file does not load zod). */
export interface ConfigSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** One config file checked against its schema. */
export interface ConfigCheck<T> {
  /** The valid value without the unknown keys; null when the file has errors. */
  value: T | null;
  warnings: ConfigWarning[];
  errors: ConfigError[];
}

type Path = (string | number)[];

interface UnknownKey {
  path: Path;
  key: string;
}

/**
 * Validates a parsed config file. Keys the schema does not know, at any depth (strict objects in
 * records, arrays and unions too), are warnings with their line and a "did you mean" and are left
 * out of the value; every other problem (a wrong value of a known key) is an error.
 */
export function checkConfigDocument<T>(doc: JsoncDocument, schema: ConfigSchema<T>): ConfigCheck<T> {
  const first = schema.safeParse(doc.value);
  if (first.success) return { value: first.data, warnings: [], errors: [] };
  const { unknown, other } = splitIssues(first.error.issues, []);
  const warnings = unknown.map((entry) => unknownKeyWarning(doc, schema, entry)).sort(byLine);
  if (other.length > 0) return { value: null, warnings, errors: other.map((issue) => describeSchemaIssue(doc, issue)).sort(byLine) };
  const second = schema.safeParse(withoutKeys(freshValue(doc), unknown));
  if (!second.success) return { value: null, warnings, errors: second.error.issues.map((issue) => describeSchemaIssue(doc, issue)) };
  return { value: second.data, warnings, errors: [] };
}

function byLine(a: { line: number | null }, b: { line: number | null }): number {
  return (a.line ?? 0) - (b.line ?? 0);
}

/**
 * Unknown keys apart from everything else. A union reports each option's issues separately: the
 * first option that fails only for unknown keys is the one the file meant (zod tries options in
 * order), so its unknown keys are warnings and the union is not an error.
 */
function splitIssues(issues: readonly SchemaIssue[], prefix: Path): { unknown: UnknownKey[]; other: SchemaIssue[] } {
  const unknown: UnknownKey[] = [];
  const other: SchemaIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path.map((part) => (typeof part === "number" ? part : String(part)))];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys ?? []) unknown.push({ path, key });
    } else if (issue.code === "invalid_union" && issue.errors?.length) {
      const match = issue.errors.map((option) => splitIssues(option, path)).find((option) => option.other.length === 0);
      if (match) unknown.push(...match.unknown);
      else other.push({ ...issue, path });
    } else {
      other.push({ ...issue, path });
    }
  }
  return { unknown, other };
}

function unknownKeyWarning(doc: JsoncDocument, schema: unknown, { path, key }: UnknownKey): ConfigWarning {
  return {
    kind: "unknown-key",
    file: doc.file,
    line: lineOfPath(doc, path, key),
    key: fieldName([...path, key]),
    message: "unknown key, ignored",
    suggestion: closestName(key, knownKeysAt(schema, path)),
  };
}

/** Deletes the unknown keys from `value`, a fresh copy of the document's value. */
function withoutKeys(value: unknown, unknown: UnknownKey[]): unknown {
  for (const { path, key } of unknown) {
    const parent = path.reduce<unknown>((node, part) => (node as Record<string | number, unknown> | undefined)?.[part], value);
    if (typeof parent === "object" && parent !== null) delete (parent as Record<string, unknown>)[key];
  }
  return value;
}

/** One problem of a file as a `ConfigError` naming its line and field. */
export function describeSchemaIssue(doc: JsoncDocument, issue: SchemaIssue | undefined): ConfigError {
  if (!issue) return new ConfigError(doc.file, 1, null, "is not valid");
  const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
  if (issue.code === "unrecognized_keys" && issue.keys?.length) {
    const key = issue.keys[0]!;
    return new ConfigError(doc.file, lineOfPath(doc, path, key), fieldName([...path, key]), "unknown key");
  }
  if (issue.code === "invalid_key" && path.length > 0) {
    const key = String(path[path.length - 1]);
    const parent = path.slice(0, -1);
    return new ConfigError(doc.file, lineOfPath(doc, parent, key), fieldName(path), `invalid name: ${plainMessage(issue.issues?.[0]?.message ?? issue.message)}`);
  }
  return new ConfigError(doc.file, lineOfPath(doc, path), fieldName(path) || null, plainMessage(issue.message));
}

export function fieldName(path: (string | number)[]): string {
  return path.reduce<string>((name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${part}` : part), "");
}

function plainMessage(message: string): string {
  const text = message.replace(/^Invalid input: /, "");
  return text.charAt(0).toLowerCase() + text.slice(1);
}

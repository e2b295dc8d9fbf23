import type { Env } from "../../../kernel/paths.js";
import { envIsSet } from "./env.js";

/**
 * The rules that decide whether a credential file holds a secret. Each answers yes or no; none
 * returns or keeps a value.
 */

/** A secret value is any string that is not blank. */
export const nonBlank = (value: string): boolean => value.trim() !== "";

/** Hermes ignores placeholders: at least four characters after trimming. */
export const atLeastFourChars = (value: string): boolean => [...value.trim()].length > 3;

/** JSON text → its value, or `undefined` when it is not JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Walks objects and arrays (iteratively: a deeply nested file cannot overflow the stack) for a
 * key in `keys` whose value is a string that `accept` takes. Values under other keys, and
 * non-string values under secret keys, are walked into.
 */
export function jsonHoldsSecret(root: unknown, keys: ReadonlySet<string>, accept: (value: string) => boolean = nonBlank): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      pending.push(...value);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (typeof child === "string") {
          if (keys.has(key) && accept(child)) return true;
        } else {
          pending.push(child);
        }
      }
    }
  }
  return false;
}

/**
 * For credential files that are not JSON (Cursor, Grok): a secret key written as `"key"` or
 * `key =` anywhere in the text counts; the value is not looked at.
 */
export function textMentionsSecretKey(text: string, keys: ReadonlySet<string>): boolean {
  for (const key of keys) {
    if (text.includes(`"${key}"`) || text.includes(`${key} =`)) return true;
  }
  return false;
}

/** JSON walk first; text that is not JSON falls back to the key scan. */
export function jsonOrTextHoldsSecret(text: string, keys: ReadonlySet<string>): boolean {
  const parsed = parseJson(text);
  return parsed ? jsonHoldsSecret(parsed.value, keys) : textMentionsSecretKey(text, keys);
}

// Python's str.splitlines() boundaries, which the agents' own readers use.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** `KEY = VALUE` lines: trimmed, blank and `#` lines and lines without `=` skipped. */
function* assignments(text: string): Generator<{ key: string; value: string }> {
  for (const line of text.split(LINE_BREAK)) {
    const raw = line.trim();
    if (!raw || raw.startsWith("#") || !raw.includes("=")) continue;
    const at = raw.indexOf("=");
    yield { key: raw.slice(0, at).trim(), value: stripQuotes(raw.slice(at + 1).trim()) };
  }
}

function stripQuotes(value: string): string {
  return value.replace(/^["']+|["']+$/g, "");
}

/**
 * `.env` rule (Gemini, Hermes): a line `NAME=value` with NAME in `names` and a value that is not
 * empty once quotes are stripped. `export NAME=…` does not match.
 */
export function dotenvHoldsKey(text: string, names: ReadonlySet<string>): boolean {
  for (const { key, value } of assignments(text)) {
    if (names.has(key) && value !== "") return true;
  }
  return false;
}

/**
 * Grok's `config.toml` rule, line by line (sections and comments are not parsed): `api_key = X`
 * with X not empty, or `env_key = NAME` when the variable NAME is set right now.
 */
export function grokTomlHoldsSecret(text: string, env: Env): boolean {
  for (const { key, value } of assignments(text)) {
    if (key === "api_key" && value !== "") return true;
    if (key === "env_key" && value !== "" && envIsSet(env, value)) return true;
  }
  return false;
}

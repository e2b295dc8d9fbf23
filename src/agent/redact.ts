import { hasControls, plainView } from "./terminal-text.js";

/** One value bosun knows to be secret, and the name it is shown by once redacted. */
export interface Secret {
  name: string;
  value: string;
}

/** Values shorter than this are not redacted: they would blank out ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 4;

const compiled = new WeakMap<readonly Secret[], { pattern: RegExp; names: Map<string, string> } | null>();

/**
 * Replaces every occurrence of each secret value in `text` by `[redacted:NAME]`. Longer values
 * are replaced first, so a secret that contains another is redacted whole. A secret broken up by
 * control sequences (`sk-very\x1b[1msecret`, as a terminal shows it: `sk-verysecret`) is found
 * in the text without them, and the whole stretch it spans is replaced, sequences and all. The
 * pattern for a given secrets array is built once and reused, so redacting every tool result
 * stays cheap.
 */
export function redactSecrets(text: string, secrets: readonly Secret[]): string {
  let entry = compiled.get(secrets);
  if (entry === undefined) {
    entry = compile(secrets);
    compiled.set(secrets, entry);
  }
  if (!entry || text.length === 0) return text;
  const { pattern, names } = entry;
  const marker = (value: string) => `[redacted:${names.get(value) ?? "secret"}]`;
  const redacted = text.replace(pattern, marker);
  if (!hasControls(redacted)) return redacted;
  const { plain, at } = plainView(redacted);
  let out = "";
  let from = 0;
  for (const match of plain.matchAll(pattern)) {
    const start = at[match.index]!;
    out += redacted.slice(from, start) + marker(match[0]);
    from = at[match.index + match[0].length - 1]! + 1;
  }
  return from === 0 ? redacted : out + redacted.slice(from);
}

function compile(secrets: readonly Secret[]): { pattern: RegExp; names: Map<string, string> } | null {
  const names = new Map<string, string>();
  for (const secret of secrets) {
    if (secret.value.length < MIN_SECRET_LENGTH || names.has(secret.value)) continue;
    names.set(secret.value, secret.name);
  }
  if (names.size === 0) return null;
  // Alternation tries alternatives in order: longest first makes the longest value win.
  const values = [...names.keys()].sort((a, b) => b.length - a.length);
  return { pattern: new RegExp(values.map(escapeRegExp).join("|"), "g"), names };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

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
 * are replaced first, so a secret that contains another is redacted whole. The pattern for a
 * given secrets array is built once and reused, so redacting every tool result stays cheap.
 */
export function redactSecrets(text: string, secrets: readonly Secret[]): string {
  let entry = compiled.get(secrets);
  if (entry === undefined) {
    entry = compile(secrets);
    compiled.set(secrets, entry);
  }
  if (!entry || text.length === 0) return text;
  const { names } = entry;
  return text.replace(entry.pattern, (match) => `[redacted:${names.get(match) ?? "secret"}]`);
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

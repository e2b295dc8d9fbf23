/** A value that must never be shown, with the name it is shown as instead. */
export interface NamedSecret {
  name: string;
  value: string;
}

/**
 * Values shorter than this are not redacted: replacing "1" or "yes" everywhere would mangle text
 * without protecting anything.
 */
export const MIN_REDACTED_LENGTH = 6;

/**
 * Replaces every occurrence of each secret's value with `[redacted:NAME]`. One pass, longest
 * values first, so a secret that contains another is replaced whole and a replacement is never
 * searched again.
 */
export function redactSecrets(text: string, secrets: readonly NamedSecret[]): string {
  const byValue = new Map<string, string>();
  for (const { name, value } of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
    if (value.length >= MIN_REDACTED_LENGTH && !byValue.has(value)) byValue.set(value, name);
  }
  if (byValue.size === 0 || text === "") return text;
  const pattern = new RegExp([...byValue.keys()].map(escapeRegExp).join("|"), "g");
  return text.replace(pattern, (match) => `[redacted:${byValue.get(match)}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

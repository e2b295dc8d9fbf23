let compact: Intl.NumberFormat | undefined;

/**
 * A token count in a few characters, in decimal units as providers and models.dev state limits:
 * K is 1,000 and M is 1,000,000, with at most three significant digits (rounded to the nearest,
 * trailing zeros dropped). 128,000 → `128K`, 200,000 → `200K`, 1,000,000 → `1M`, 1,048,576 →
 * `1.05M`, 32,768 → `32.8K`, 950 → `950`. Every place bosun shows a token count uses this.
 */
export function formatTokens(tokens: number): string {
  compact ??= new Intl.NumberFormat("en-US", { notation: "compact", compactDisplay: "short", maximumSignificantDigits: 3 });
  return compact.format(tokens);
}

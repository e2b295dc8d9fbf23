/** What a strict JSON reader takes (a byte-order mark aside): no comments, no trailing commas. */
export function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Wildcard patterns as policy statements use them: `*` matches any run of characters (`/`
 * included), `?` exactly one; the whole text must match. A pattern ending in ` *` also matches
 * the text without that suffix (`git push *` matches `git push`). Backslashes count as `/`.
 * Case matters, except on Windows.
 */
export function wildcardMatch(text: string, pattern: string, caseInsensitive = process.platform === "win32"): boolean {
  return wildcardMatcher(pattern, caseInsensitive)(text);
}

export function hasWildcard(pattern: string): boolean {
  return pattern.includes("*") || pattern.includes("?");
}

const matchers = new Map<string, (text: string) => boolean>();

/**
 * A compiled pattern. It is matched without regular expressions: the pattern is split at `*`
 * into literal pieces (where `?` is any one character), the first must start the text, the last
 * must end it, and the others are found in order, leftmost first, which is exact for `*` and
 * linear in practice, so policies over thousands of models stay cheap.
 */
export function wildcardMatcher(pattern: string, caseInsensitive = process.platform === "win32"): (text: string) => boolean {
  const key = (caseInsensitive ? "i:" : "s:") + pattern;
  let matcher = matchers.get(key);
  if (!matcher) {
    const fold = (text: string) => {
      const slashed = text.includes("\\") ? text.replaceAll("\\", "/") : text;
      return caseInsensitive ? slashed.toLowerCase() : slashed;
    };
    const body = fold(pattern);
    if (body.endsWith(" *")) {
      const exact = globMatcher(body.slice(0, -2));
      const spaced = globMatcher(body);
      matcher = (text) => {
        const folded = fold(text);
        return exact(folded) || spaced(folded);
      };
    } else {
      const glob = globMatcher(body);
      matcher = (text) => glob(fold(text));
    }
    matchers.set(key, matcher);
  }
  return matcher;
}

function globMatcher(pattern: string): (text: string) => boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return (text) => text.length === pattern.length && pieceAt(text, 0, pattern);
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== "");
  const minimum = pieces.reduce((sum, piece) => sum + piece.length, 0);
  return (text) => {
    if (text.length < minimum || !pieceAt(text, 0, first) || !pieceAt(text, text.length - last.length, last)) return false;
    let cursor = first.length;
    const end = text.length - last.length;
    for (const piece of middle) {
      const found = findPiece(text, piece, cursor, end);
      if (found < 0) return false;
      cursor = found + piece.length;
    }
    return true;
  };
}

function pieceAt(text: string, at: number, piece: string): boolean {
  for (let i = 0; i < piece.length; i++) {
    const want = piece.charCodeAt(i);
    if (want !== 63 /* ? */ && want !== text.charCodeAt(at + i)) return false;
  }
  return true;
}

function findPiece(text: string, piece: string, from: number, end: number): number {
  if (!piece.includes("?")) {
    const found = text.indexOf(piece, from);
    return found >= 0 && found + piece.length <= end ? found : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (pieceAt(text, at, piece)) return at;
  return -1;
}

/**
 * Removes one top-level member from JSON text and leaves every other byte as it was (indentation,
 * key order, a trailing newline), so a credential can be taken out of a config file the agent
 * and its user also keep other things in. Pure: text in, text out.
 */

/** The text without `key` (every occurrence at the top level), or `undefined` when it was not there. Throws `SyntaxError` for text that is not a JSON object. */
export function removeJsonMember(text: string, key: string): string | undefined {
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new SyntaxError("not a JSON object");
  const members = topLevelMembers(text);
  const doomed = members.filter((member) => member.key === key);
  if (doomed.length === 0) return undefined;
  let result = text;
  // From the last to the first, so earlier offsets stay valid.
  for (const member of [...doomed].reverse()) {
    const index = members.indexOf(member);
    const next = members[index + 1];
    const previous = members[index - 1];
    if (next) result = result.slice(0, member.start) + result.slice(next.start);
    else if (previous) result = result.slice(0, previous.end) + result.slice(member.end);
    else result = result.slice(0, member.start) + result.slice(member.end).replace(/^\s*/, "");
    members.splice(index, 1);
  }
  // A safety net: what is left must be the same object without the key.
  const expected = { ...(parsed as Record<string, unknown>) };
  delete expected[key];
  if (JSON.stringify(JSON.parse(result)) !== JSON.stringify(expected)) throw new SyntaxError("the member could not be removed cleanly");
  return result;
}

interface Member {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  /** Offset just past the value. */
  end: number;
}

function topLevelMembers(text: string): Member[] {
  let at = skipSpace(text, 0);
  if (text[at] !== "{") throw new SyntaxError("not a JSON object");
  at = skipSpace(text, at + 1);
  const members: Member[] = [];
  while (text[at] !== "}") {
    const start = at;
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(start, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text[at] !== ":") throw new SyntaxError("expected ':'");
    const end = skipValue(text, skipSpace(text, at + 1));
    members.push({ key, start, end });
    at = skipSpace(text, end);
    if (text[at] === ",") at = skipSpace(text, at + 1);
    else if (text[at] !== "}") throw new SyntaxError("expected ',' or '}'");
  }
  return members;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && " \t\n\r\uFEFF".includes(text[at]!)) at++;
  return at;
}

function skipString(text: string, at: number): number {
  if (text[at] !== '"') throw new SyntaxError("expected a string");
  at++;
  while (at < text.length && text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
  return at + 1;
}

/** Past one JSON value starting at `at` (strings skipped whole, so brackets inside them do not count). */
function skipValue(text: string, at: number): number {
  if (text[at] === '"') return skipString(text, at);
  if (text[at] !== "{" && text[at] !== "[") {
    while (at < text.length && !",}] \t\n\r".includes(text[at]!)) at++;
    return at;
  }
  let depth = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"') {
      at = skipString(text, at);
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return at + 1;
    }
    at++;
  }
  throw new SyntaxError("unterminated value");
}

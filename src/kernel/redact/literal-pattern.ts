/**
 * A regular expression for a set of literal strings (the secrets to redact). It is built as a
 * trie: at each character the engine tries only the characters that can follow, instead of every
 * string in turn, so the time a search takes barely grows with the number of strings.
 */

interface TrieNode {
  /** A string ends here. */
  end: boolean;
  next: Map<string, TrieNode>;
}

/**
 * A global regular expression that matches any of `words` literally. Where several begin at the
 * same place the longest wins; the search still finds the leftmost place first. Empty strings
 * are ignored; with no word left the expression matches nothing.
 */
export function literalPattern(words: Iterable<string>): RegExp {
  const root: TrieNode = { end: false, next: new Map() };
  for (const word of words) {
    let node = root;
    for (const char of word.split("")) {
      let next = node.next.get(char);
      if (!next) node.next.set(char, (next = { end: false, next: new Map() }));
      node = next;
    }
    if (node !== root) node.end = true;
  }
  return new RegExp(root.next.size === 0 ? "(?!)" : source(root), "g");
}

/** The expression for what may follow `node`. Chains without a choice are written out in a loop, so a long word costs no recursion. */
function source(node: TrieNode): string {
  const branches: string[] = [];
  for (const [char, child] of node.next) {
    let chain = escapeRegExp(char);
    let at = child;
    while (!at.end && at.next.size === 1) {
      const [nextChar, nextNode] = at.next.entries().next().value!;
      chain += escapeRegExp(nextChar);
      at = nextNode;
    }
    branches.push(chain + (at.next.size > 0 ? source(at) : ""));
  }
  const choice = branches.length === 1 ? branches[0]! : `(?:${branches.join("|")})`;
  // Greedy: a longer word through this node is tried before the one that ends here.
  return node.end ? `(?:${choice})?` : choice;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

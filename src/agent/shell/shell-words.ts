/**
 * Splits a command line into words and operators the way a POSIX shell (bash) does, without
 * expanding anything: quotes are removed, `$VAR`, `$(…)`, `${…}`, `$((…))` and backticks are kept as
 * written and mark their word as one whose value is unknown, and the scripts of command
 * substitutions are collected so that they can be checked as commands of their own. Here-documents
 * become the word after their `<<` operator, holding the body. Comments are dropped.
 */

/** One word of a command line, before expansion. */
export interface Word {
  kind: "word";
  /** The text with quotes removed; expansions (`$X`, `$(…)`, `` `…` ``) are left as written. */
  value: string;
  /** Whether the shell would expand part of it, so that its real value is unknown. */
  expands: boolean;
  /** Whether it holds an unquoted `*`, `?` or `[` (a pattern the shell matches against files). */
  glob: boolean;
  /** Where it starts in the command line, to keep things in the order they were written. */
  start: number;
  /** The scripts of the command substitutions in it (`$(…)`, `` `…` ``, `<(…)`, `>(…)`), which run too. */
  substitutions: string[];
}

/** A control or redirection operator (`;`, `&&`, `|`, `(`, `>`, `<<`, …). */
export interface Operator {
  kind: "op";
  value: string;
  start: number;
}

export type Token = Word | Operator;

/** Splits a command line into words and operators, as a POSIX shell would (without expanding). */
export function tokenize(command: string): Token[] {
  return new Lexer(command).tokens();
}

/** A word made up by bosun (a default file name, the folder a command runs in), placed where `from` is. */
export function derivedWord(value: string, from: Pick<Word, "start" | "expands">): Word {
  return { kind: "word", value, expands: from.expands, glob: false, start: from.start, substitutions: [] };
}

/** Longest first, so that `&>>` is not read as `&>` and `>`. */
const OPERATORS = ["&>>", "<<<", "<<-", ";;&", "&&", "||", "|&", ">>", ">|", ">&", "<&", "&>", "<<", "<>", ";;", ";&"];
const OPERATOR_CHARS = "<>;&|()\n";

type PendingHeredoc = { word: Word; delimiter: string; quoted: boolean; stripTabs: boolean };

class Lexer {
  private at = 0;
  private readonly out: Token[] = [];
  private readonly pending: PendingHeredoc[] = [];
  private word = "";
  private inWord = false;
  private expands = false;
  private glob = false;
  private start = 0;
  private subs: string[] = [];

  constructor(private readonly text: string) {}

  tokens(): Token[] {
    const s = this.text;
    while (this.at < s.length) {
      const c = s[this.at]!;
      if (c === "\\") {
        if (s[this.at + 1] !== "\n" && this.at + 1 < s.length) this.add(s[this.at + 1]!);
        this.at += 2;
      } else if (c === "'") {
        const end = s.indexOf("'", this.at + 1);
        this.add(s.slice(this.at + 1, end === -1 ? undefined : end));
        this.at = end === -1 ? s.length : end + 1;
      } else if (c === '"') {
        this.begin();
        this.at = this.quoted(this.at + 1, '"');
      } else if (c === "$" || c === "`") {
        this.begin();
        this.at = this.dollarOrBacktick(this.at);
      } else if (c === " " || c === "\t") {
        this.endWord();
        this.at++;
      } else if (c === "#" && !this.inWord) {
        const end = s.indexOf("\n", this.at);
        this.at = end === -1 ? s.length : end;
      } else if ((c === "<" || c === ">") && s[this.at + 1] === "(") {
        // process substitution: <(cmd) and >(cmd) are words naming a pipe to a command
        const end = closingParen(s, this.at + 1);
        this.begin();
        this.word += s.slice(this.at, end + 1);
        this.expands = true;
        this.subs.push(s.slice(this.at + 2, end));
        this.at = end + 1;
      } else if (c === "(" && this.inWord && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(this.word)) {
        // an array assignment, name=(a b c): its elements are words, not a subshell
        const end = closingParen(s, this.at);
        this.word += s.slice(this.at, end + 1);
        for (const token of tokenize(s.slice(this.at + 1, end))) {
          if (token.kind === "word") {
            this.subs.push(...token.substitutions);
            this.expands ||= token.expands;
          }
        }
        this.at = end + 1;
      } else if (c === "(" && s[this.at + 1] === "(" && !this.inWord) {
        this.arithmeticCommand();
      } else if (OPERATOR_CHARS.includes(c)) {
        this.operator();
      } else {
        if (c === "*" || c === "?" || c === "[") this.glob = true;
        this.add(c);
        this.at++;
      }
    }
    this.endWord();
    return this.out;
  }

  private begin(): void {
    if (!this.inWord) this.start = this.at;
    this.inWord = true;
  }

  private add(text: string): void {
    this.begin();
    this.word += text;
  }

  private endWord(): void {
    if (this.inWord) this.out.push({ kind: "word", value: this.word, expands: this.expands, glob: this.glob, start: this.start, substitutions: this.subs });
    this.word = "";
    this.inWord = false;
    this.expands = false;
    this.glob = false;
    this.subs = [];
  }

  private operator(): void {
    const s = this.text;
    // A word of digits right before a redirection is the file descriptor it applies to (2>file).
    if (this.inWord && /^\d+$/.test(this.word) && !this.expands && (s[this.at] === ">" || s[this.at] === "<")) {
      this.word = "";
      this.inWord = false;
    } else this.endWord();
    const start = this.at;
    const op = OPERATORS.find((candidate) => s.startsWith(candidate, start)) ?? s[start]!;
    this.at += op.length;
    if (op === ">&" || op === "<&") {
      // duplication (2>&1, >&-) names a descriptor; `>& file` is `&> file`
      const descriptor = /^[ \t]*(\d+-?|-)(?![^ \t\n;&|<>()])/.exec(s.slice(this.at));
      if (descriptor) {
        this.at += descriptor[0].length;
        return;
      }
    }
    this.out.push({ kind: "op", value: op, start });
    if (op === "<<" || op === "<<-") this.heredocOperator(op === "<<-");
    if (op === "\n") this.heredocBodies();
  }

  /** `(( expression ))`: arithmetic, not two subshells; its substitutions still run. */
  private arithmeticCommand(): void {
    const end = closingParen(this.text, this.at);
    const inner = this.text.slice(this.at + 2, Math.max(this.at + 2, end - 1));
    this.out.push({ kind: "word", value: this.text.slice(this.at, end + 1), expands: false, glob: false, start: this.at, substitutions: substitutionsIn(inner) });
    this.at = end + 1;
  }

  /** Reads the delimiter after `<<` and leaves a word for the body, filled in at the end of the line. */
  private heredocOperator(stripTabs: boolean): void {
    const s = this.text;
    while (s[this.at] === " " || s[this.at] === "\t") this.at++;
    let delimiter = "";
    let quoted = false;
    const start = this.at;
    while (this.at < s.length && !` \t${OPERATOR_CHARS}`.includes(s[this.at]!)) {
      const c = s[this.at]!;
      if (c === "'" || c === '"') {
        const end = s.indexOf(c, this.at + 1);
        delimiter += s.slice(this.at + 1, end === -1 ? undefined : end);
        this.at = end === -1 ? s.length : end + 1;
        quoted = true;
      } else if (c === "\\") {
        delimiter += s[this.at + 1] ?? "";
        this.at += 2;
        quoted = true;
      } else {
        delimiter += c;
        this.at++;
      }
    }
    const word: Word = { kind: "word", value: "", expands: false, glob: false, start, substitutions: [] };
    this.out.push(word);
    this.pending.push({ word, delimiter, quoted, stripTabs });
  }

  /** After a newline: the bodies of the here-documents opened on the line that ended. */
  private heredocBodies(): void {
    const s = this.text;
    for (const doc of this.pending.splice(0)) {
      let body = "";
      while (this.at < s.length) {
        const newline = s.indexOf("\n", this.at);
        const end = newline === -1 ? s.length : newline;
        const line = doc.stripTabs ? s.slice(this.at, end).replace(/^\t+/, "") : s.slice(this.at, end);
        this.at = end + 1;
        if (line === doc.delimiter) break;
        body += `${line}\n`;
      }
      if (doc.quoted) doc.word.value = body;
      else {
        const read = readText(body);
        doc.word.value = read.value;
        doc.word.expands = read.expands;
        doc.word.substitutions = read.substitutions;
      }
    }
  }

  /**
   * The inside of double quotes (terminator `"`), or a here-document body or `${…}` (no
   * terminator): `$…` and backticks expand, a backslash escapes only `$ \` \ newline` (and `"`).
   * Returns where reading stopped (after the terminator).
   */
  quoted(from: number, terminator: '"' | null): number {
    const s = this.text;
    let i = from;
    while (i < s.length && s[i] !== terminator) {
      const c = s[i]!;
      if (c === "\\" && i + 1 < s.length) {
        const next = s[i + 1]!;
        if (next === "\n") i += 2;
        else if ("$`\\".includes(next) || (terminator !== null && next === terminator)) {
          this.word += next;
          i += 2;
        } else {
          this.word += c;
          i++;
        }
      } else if (c === "$" || c === "`") {
        i = this.dollarOrBacktick(i);
      } else {
        this.word += c;
        i++;
      }
    }
    return terminator === null ? i : i + 1;
  }

  /** `$name`, `${…}`, `$(…)`, `$((…))`, `$'…'`, `$"…"` or a backtick substitution at `at`. */
  private dollarOrBacktick(at: number): number {
    const s = this.text;
    if (s[at] === "`") {
      let end = at + 1;
      let inner = "";
      while (end < s.length && s[end] !== "`") {
        if (s[end] === "\\" && "$`\\".includes(s[end + 1] ?? "")) end++;
        inner += s[end];
        end++;
      }
      this.word += s.slice(at, end + 1);
      this.expands = true;
      if (inner.trim() !== "") this.subs.push(inner);
      return end + 1;
    }
    const next = s[at + 1];
    if (next === "(") {
      const end = closingParen(s, at + 1);
      this.word += s.slice(at, end + 1);
      this.expands = true;
      if (s[at + 2] === "(") this.subs.push(...substitutionsIn(s.slice(at + 3, end - 1)));
      else if (s.slice(at + 2, end).trim() !== "") this.subs.push(s.slice(at + 2, end));
      return end + 1;
    }
    if (next === "{") {
      const end = closingBrace(s, at + 1);
      this.word += s.slice(at, end + 1);
      this.expands = true;
      this.subs.push(...readText(s.slice(at + 2, end)).substitutions);
      return end + 1;
    }
    if (next === "'") return this.ansiC(at + 2);
    if (next === '"') return this.quoted(at + 2, '"');
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(s.slice(at + 1));
    if (!name) {
      this.word += "$";
      return at + 1;
    }
    this.word += `$${name[0]}`;
    this.expands = true;
    return at + 1 + name[0].length;
  }

  /** `$'…'`: backslash escapes are decoded; one bosun does not decode makes the word unknown. */
  private ansiC(from: number): number {
    const s = this.text;
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };
    let i = from;
    while (i < s.length && s[i] !== "'") {
      if (s[i] !== "\\") {
        this.word += s[i++];
        continue;
      }
      const escape = s[i + 1] ?? "";
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(s.slice(i + 1));
      const octal = /^[0-7]{1,3}/.exec(s.slice(i + 1));
      if (simple[escape] !== undefined) {
        this.word += simple[escape];
        i += 2;
      } else if (hex) {
        this.word += String.fromCharCode(Number.parseInt(hex[1]!, 16));
        i += 1 + hex[0].length;
      } else if (octal) {
        this.word += String.fromCharCode(Number.parseInt(octal[0], 8));
        i += 1 + octal[0].length;
      } else {
        this.word += s.slice(i, i + 2);
        this.expands = true;
        i += 2;
      }
    }
    return i + 1;
  }

  /** What `quoted` read into the word, for a text read on its own. */
  result(): { value: string; expands: boolean; substitutions: string[] } {
    return { value: this.word, expands: this.expands, substitutions: this.subs };
  }
}

/** A here-document body or the inside of `${…}`: its text after escapes, whether it expands, its substitutions. */
function readText(text: string): { value: string; expands: boolean; substitutions: string[] } {
  const lexer = new Lexer(text);
  lexer.quoted(0, null);
  return lexer.result();
}

/** The command substitutions in a text read like a double-quoted string (arithmetic, `${…}`). */
function substitutionsIn(text: string): string[] {
  return readText(text).substitutions;
}

/** Where the `)` matching the `(` at `open` is (skipping quotes, escapes and nested parentheses); the end when none. */
function closingParen(s: string, open: number): number {
  return closing(s, open, "(", ")", true);
}

/** Where the `}` matching the `{` at `open` is (skipping quotes, escapes and nested braces); the end when none. */
function closingBrace(s: string, open: number): number {
  return closing(s, open, "{", "}", false);
}

/** The bracket closing the one at `open`; backquoted text is skipped only where `backquotes` says so. */
function closing(s: string, open: number, opener: string, closer: string, backquotes: boolean): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") i++;
    else if (c === "'") i = endOf(s, i, "'");
    else if (c === '"') i = endOfDoubleQuoted(s, i);
    else if (backquotes && c === "`") i = endOf(s, i, "`");
    else if (c === opener) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  return s.length;
}

function endOf(s: string, open: number, quote: string): number {
  for (let i = open + 1; i < s.length; i++) {
    if (quote === "`" && s[i] === "\\") i++;
    else if (s[i] === quote) return i;
  }
  return s.length;
}

function endOfDoubleQuoted(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "$" && s[i + 1] === "(") i = closingParen(s, i + 1);
    else if (s[i] === '"') return i;
  }
  return s.length;
}

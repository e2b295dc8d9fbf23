import { tokenize, type Token, type Word } from "./shell-words.js";

/**
 * A command line's structure, as far as checking it needs: a list of pipelines (joined by `;`,
 * `&&`, `||`, newlines or `&`), each a chain of stages joined by `|`, each stage a simple command
 * (its words and redirections) or a subshell `( … )`. Brace groups, `if`, loops and functions are
 * read as the commands inside them (reserved words stay words, for the caller to skip); case
 * patterns (`a|b)`) are marked so that they are not taken for commands.
 */

/** A redirection: `> file`, `2>> log`, `< input`; for `<<` the target holds the here-document's body, for `<<<` the text. */
export interface Redirect {
  op: string;
  target: Word;
}

/** One command with its words and redirections. */
export interface SimpleCommand {
  kind: "simple";
  words: Word[];
  redirects: Redirect[];
  /** A `case` pattern (`*.txt)`), not a command: only its substitutions run. */
  casePattern: boolean;
}

/** `( … )`: commands run in a child shell, so a `cd` inside does not outlast it. */
export interface Subshell {
  kind: "subshell";
  body: Pipeline[];
  redirects: Redirect[];
}

export type Stage = SimpleCommand | Subshell;

/** Stages joined by `|`: each runs in a child shell, each one's output is the next one's input. */
export interface Pipeline {
  stages: Stage[];
  /** Ended by `&`: it runs in the background, in a child shell. */
  background: boolean;
}

/** Redirections that open a file for writing. */
export const OUTPUT_REDIRECTS: ReadonlySet<string> = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);
const REDIRECTS = new Set([...OUTPUT_REDIRECTS, "<", "<&", "<<", "<<-", "<<<"]);
const PIPES = new Set(["|", "|&"]);

/** The pipelines of a command line. */
export function parseScript(command: string): Pipeline[] {
  return new Parser(tokenize(command)).list(false);
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  /** Pipelines up to the end, or (nested) up to the `)` that closes the subshell, which it consumes. */
  list(nested: boolean): Pipeline[] {
    const pipelines: Pipeline[] = [];
    let stages: Stage[] = [];
    let simple: SimpleCommand | null = null;
    let caseDepth = 0;
    const closeStage = (): void => {
      if (!simple) return;
      const first = simple.words[0]?.value;
      if (first === "case") caseDepth++;
      if (first === "esac") caseDepth = Math.max(0, caseDepth - 1);
      stages.push(simple);
      simple = null;
    };
    const closePipeline = (background: boolean): void => {
      closeStage();
      if (stages.length > 0) pipelines.push({ stages, background });
      stages = [];
    };

    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at++]!;
      if (token.kind === "word") {
        simple ??= { kind: "simple", words: [], redirects: [], casePattern: false };
        simple.words.push(token);
      } else if (REDIRECTS.has(token.value)) {
        const target = this.tokens[this.at];
        if (target?.kind !== "word") continue;
        this.at++;
        const redirect = { op: token.value, target };
        const last = stages[stages.length - 1];
        if (!simple && last?.kind === "subshell") last.redirects.push(redirect);
        else (simple ??= { kind: "simple", words: [], redirects: [], casePattern: false }).redirects.push(redirect);
      } else if (PIPES.has(token.value)) {
        closeStage();
      } else if (token.value === "(") {
        const next = this.tokens[this.at];
        if (simple?.words.length === 1 && next?.kind === "op" && next.value === ")") {
          // name() { …; }: a function definition; its body follows as ordinary commands
          simple = null;
          this.at++;
          continue;
        }
        closeStage();
        stages.push({ kind: "subshell", body: this.list(true), redirects: [] });
      } else if (token.value === ")") {
        const current: SimpleCommand | null = simple;
        const endsCase = current?.words[0]?.value === "esac";
        closeStage();
        if (caseDepth > 0 && !endsCase) {
          // `pattern)` inside a case: the words (and alternatives a|b) before it are patterns
          for (const stage of stages) if (stage.kind === "simple") stage.casePattern = true;
          closePipeline(false);
        } else if (nested) {
          closePipeline(false);
          return pipelines;
        } else closePipeline(false);
      } else closePipeline(token.value === "&");
    }
    closePipeline(false);
    return pipelines;
  }
}

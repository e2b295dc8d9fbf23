import { basename } from "node:path";
import { hasOption, lastOptionValue, parseOptions, type OptionSpec } from "./command-options.js";
import { tokenize, type Word } from "./shell-words.js";

/**
 * Which program a simple command runs, and with which arguments: leading `VAR=value`
 * assignments and reserved words (`if`, `then`, `do`, `!`, `{`, …) are taken off, and so are
 * wrappers that run the command they are given (`env`, `timeout`, `nice`, `xargs`, `nohup`, `sudo`,
 * …) with their own options.
 */
export interface Invocation {
  /** The word naming the program, or null when nothing runs (only assignments, `fi`, a `for` header, `command -v x`). */
  name: Word | null;
  /** The program's base name (`/usr/bin/rm` → `rm`); empty when there is no name. */
  program: string;
  args: Word[];
  /** The first wrapper that runs it as another user (`sudo`, `doas`, `su`, …), or null. */
  elevatedBy: string | null;
  /** The folder a wrapper starts it in (`env -C dir`), or undefined for the shell's own. */
  chdir?: Word;
}

const ELEVATE = new Set(["sudo", "doas", "su", "pkexec", "runas"]);
/** Reserved words that may come before a command (`if cmd`, `then cmd`, `! cmd`, `{ cmd`). */
const LEADING = new Set(["!", "{", "}", "if", "then", "elif", "else", "while", "until", "do", "fi", "done", "esac"]);
/** Commands that are the header of a compound command: none of their words is a command. */
const HEADERS = new Set(["for", "select", "case", "function"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

const WRAPPERS: Record<string, OptionSpec> = {
  env: { short: "uCS", long: ["--unset", "--chdir", "--split-string"] },
  command: {},
  builtin: {},
  exec: { short: "a" },
  nohup: {},
  setsid: {},
  time: { short: "fo", long: ["--format", "--output"] },
  nice: { short: "n", long: ["--adjustment"] },
  ionice: { short: "cnp", long: ["--class", "--classdata", "--pid"] },
  timeout: { short: "sk", long: ["--signal", "--kill-after"] },
  stdbuf: { short: "ioe", long: ["--input", "--output", "--error"] },
  xargs: { short: "InLsdEaP", attached: "ile", long: ["--arg-file", "--delimiter", "--max-lines", "--max-args", "--max-chars", "--max-procs", "--process-slot-var"] },
  sudo: { short: "ugCDhprtTU", long: ["--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user", "--close-from"] },
  doas: { short: "uC" },
  pkexec: { long: ["--user"] },
};

/** The program a simple command's words run, after assignments, reserved words and wrappers. */
export function invocationOf(words: readonly Word[]): Invocation {
  let rest = [...words];
  let elevatedBy: string | null = null;
  let chdir: Word | undefined;
  const none = (): Invocation => ({ name: null, program: "", args: [], elevatedBy, ...(chdir ? { chdir } : {}) });
  for (;;) {
    while (rest.length > 0 && ((!rest[0]!.expands && LEADING.has(rest[0]!.value)) || ASSIGNMENT.test(rest[0]!.value))) rest.shift();
    const first = rest[0];
    if (!first) return none();
    if (!first.expands && HEADERS.has(first.value)) return none();
    const program = basename(first.value);
    if (first.expands || !(program in WRAPPERS || ELEVATE.has(program))) {
      return { name: first, program: first.expands ? "" : program, args: rest.slice(1), elevatedBy, ...(chdir ? { chdir } : {}) };
    }
    if (ELEVATE.has(program)) elevatedBy ??= program;
    if (program === "su" || program === "runas") return none();
    const parsed = parseOptions(rest.slice(1), { ...WRAPPERS[program], stopAtOperand: true });
    rest = parsed.rest;
    if (program === "command" && hasOption(parsed, "-v", "-V")) return none();
    if (program === "ionice" && hasOption(parsed, "-p", "--pid")) return none();
    if (program === "timeout") rest = rest.slice(1);
    if (program === "env") {
      chdir = lastOptionValue(parsed, "-C", "--chdir") ?? chdir;
      const split = lastOptionValue(parsed, "-S", "--split-string");
      // env -S 'cmd args': the string is split into the command's words
      if (split) rest = [...tokenize(split.value).filter((token): token is Word => token.kind === "word").map((word) => ({ ...word, expands: word.expands || split.expands })), ...rest];
    }
  }
}

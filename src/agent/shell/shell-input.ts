import { invocationOf } from "./command-invocation.js";
import type { Redirect, Stage } from "./shell-syntax.js";
import type { Word } from "./shell-words.js";

/**
 * Where a shell (`bash`, `sh`, …) started by a command gets its script: the argument of `-c`; a
 * here-document or here-string; what the previous stage of a pipeline prints (which bosun can
 * read only when it is a literal: `echo 'text'`, `cat <<'EOF'`); or a script file, which bosun
 * does not read.
 */
export type ShellInput =
  /** A script bosun can read, to be checked like the command itself. */
  | { kind: "script"; text: string }
  /** Text bosun cannot read (decoded, printed from variables, downloaded) becomes the script; `shown` says how. */
  | { kind: "generated"; shown: string }
  /** A script file, or no script at all. */
  | { kind: "none" };

const STDIN_TEXT = new Set(["<<", "<<-", "<<<"]);

/** Where the shell `program`, run with `args` and `redirects` after the pipeline stage `feed`, reads its script. */
export function shellInput(program: string, args: readonly Word[], redirects: readonly Redirect[], feed: Stage | null): ShellInput {
  let command = false;
  let fromStdin = false;
  let ended = false;
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (!ended && operands.length === 0 && (value === "--" || value === "-")) ended = true;
    else if (ended || operands.length > 0 || !/^[-+]./.test(value)) operands.push(args[i]!);
    else if (/^[-+][oO]$/.test(value) || value === "--rcfile" || value === "--init-file") i++;
    else if (!value.startsWith("--") && value.startsWith("-")) {
      if (value.includes("c")) command = true;
      if (value.includes("s")) fromStdin = true;
    }
  }
  if (command) return operands[0] ? { kind: "script", text: operands[0].value } : { kind: "none" };
  if (operands.length > 0 && !fromStdin) return { kind: "none" };
  const input = [...redirects].reverse().find((redirect) => STDIN_TEXT.has(redirect.op) || redirect.op === "<" || redirect.op === "<&");
  if (input) {
    if (!STDIN_TEXT.has(input.op)) return { kind: "none" };
    if (input.target.expands) return { kind: "generated", shown: `${program} ${input.op} …` };
    return { kind: "script", text: input.target.value };
  }
  if (!feed) return { kind: "none" };
  const text = literalOutput(feed);
  return text === null ? { kind: "generated", shown: `${describe(feed)} … | ${program}` } : { kind: "script", text };
}

/** What a pipeline stage prints when bosun can tell (`echo` of literal words, `cat` of a literal here-document); else null. */
function literalOutput(stage: Stage): string | null {
  if (stage.kind !== "simple") return null;
  const { name, program, args } = invocationOf(stage.words);
  if (!name || name.expands) return null;
  if (program === "echo") {
    let rest = args;
    let escapes = false;
    let newline = "\n";
    while (rest[0] && /^-[neE]+$/.test(rest[0].value)) {
      if (rest[0].value.includes("e")) escapes = true;
      if (rest[0].value.includes("n")) newline = "";
      rest = rest.slice(1);
    }
    if (rest.some((word) => word.expands || word.glob)) return null;
    const text = rest.map((word) => word.value).join(" ");
    return escapes && text.includes("\\") ? null : text + newline;
  }
  if (program === "cat" && args.length === 0) {
    const input = [...stage.redirects].reverse().find((redirect) => STDIN_TEXT.has(redirect.op));
    if (input && !input.target.expands) return input.op === "<<<" ? `${input.target.value}\n` : input.target.value;
  }
  return null;
}

function describe(stage: Stage): string {
  if (stage.kind === "subshell") return "( … )";
  const { name, program } = invocationOf(stage.words);
  return program || name?.value || "…";
}

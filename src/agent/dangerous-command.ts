import { homedir } from "node:os";
import { basename, dirname, resolve } from "node:path";
import { isInside } from "../fs/path-inside.js";
import { isInsideWorkdir, isScratchPath } from "./tools/paths.js";

/**
 * Whether a shell command is dangerous enough to ask the user even in full-access mode, and why.
 * Pure and conservative: it reads the command the way a shell splits it (quotes, `;`, `&&`, `|`,
 * redirections, `cd`), and when it cannot tell where a destructive command points (a variable,
 * a command substitution) it says so rather than guessing that it is safe.
 *
 * Flagged: recursive force deletes and recursive deletes outside the workdir; `git push --force`,
 * `git reset --hard`, `git clean -f`, `git branch -D`; writes (redirections, cp/mv/tee/…, sed -i,
 * dd of=) to paths outside the workdir other than the temp folder and /dev/null; a download piped
 * into a shell; disk tools (mkfs, fdisk, parted, wipefs, dd to a device, shred); sudo/su; machine
 * shutdown; the classic fork bomb. `bash -c`, `sh -c` and `eval` are read recursively.
 */
export function detectDangerousCommand(command: string, workdir: string, home: string = homedir()): string | null {
  return new Detector(workdir, home).check(command, 0);
}

type Word = { kind: "word"; value: string; expands: boolean };
type Token = Word | { kind: "op"; value: string };

const SEPARATORS = new Set([";", "&&", "||", "|", "|&", "&", "\n", "(", ")", ";;"]);
const REDIRECTS_TO_FILE = new Set([">", ">>", ">|", "&>", "&>>"]);
const HARMLESS_TARGETS = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd"];
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "ash"]);
const INTERPRETERS = new Set([...SHELLS, "python", "python3", "perl", "ruby", "node", "php"]);
const WRAPPERS = new Set(["env", "command", "builtin", "exec", "nohup", "time", "nice", "ionice", "xargs", "stdbuf", "timeout", "setsid"]);
const ELEVATE = new Set(["sudo", "doas", "su", "pkexec", "runas"]);
const DISK_TOOLS = new Set(["fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs", "mkswap", "shred", "diskutil", "badblocks"]);
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const MAX_DEPTH = 4;

class Detector {
  constructor(
    private readonly workdir: string,
    private readonly home: string,
  ) {}

  check(command: string, depth: number): string | null {
    if (depth > MAX_DEPTH) return "nests shells too deeply to check";
    if (/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/.test(command)) return "is a fork bomb";
    const piped = pipesDownloadIntoShell(command);
    if (piped) return piped;
    for (const inner of substitutions(command)) {
      const found = this.check(inner, depth + 1);
      if (found) return found;
    }
    let cwd: string | null = this.workdir;
    for (const simple of splitCommands(tokenize(command))) {
      const result = this.checkSimple(simple, cwd, depth);
      if (result.reason) return result.reason;
      if (result.cd !== undefined) cwd = result.cd;
    }
    return null;
  }

  private checkSimple(tokens: Token[], cwd: string | null, depth: number): { reason?: string; cd?: string | null } {
    const words: Word[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.kind === "op" && REDIRECTS_TO_FILE.has(token.value)) {
        const target = tokens[i + 1];
        i++;
        if (target?.kind === "word") {
          const reason = this.writeTarget(target, cwd);
          if (reason) return { reason };
        }
      } else if (token.kind === "word") words.push(token);
    }
    let args = words;
    while (args.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[0]!.value)) args = args.slice(1);
    while (args.length > 0) {
      const name = basename(args[0]!.value);
      if (ELEVATE.has(name)) return { reason: `runs a command as another user (${name})` };
      if (!WRAPPERS.has(name)) break;
      args = args.slice(1);
      // options of the wrapper, its VAR=value pairs, and timeout's duration
      while (args.length > 0 && (args[0]!.value.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[0]!.value) || (name === "timeout" && /^\d/.test(args[0]!.value)))) args = args.slice(1);
    }
    if (args.length === 0) return {};
    const name = basename(args[0]!.value);
    const rest = args.slice(1);
    const values = rest.map((word) => word.value);

    if (name === "cd") {
      const target = rest[0];
      if (!target) return { cd: this.home };
      return { cd: this.resolveWord(target, cwd) };
    }
    if (SHELLS.has(name)) {
      const script = values.indexOf("-c");
      if (script !== -1 && values[script + 1] !== undefined) return { reason: this.check(values[script + 1]!, depth + 1) ?? undefined };
      return {};
    }
    if (name === "eval") return { reason: this.check(values.join(" "), depth + 1) ?? undefined };
    if (name === "rm") return { reason: this.checkRemove(rest, cwd) ?? undefined };
    if (name === "git") return { reason: checkGit(values) ?? undefined };
    if (name === "find") return { reason: this.checkFind(rest, cwd) ?? undefined };
    if (POWER.has(name) || (name === "init" && (values[0] === "0" || values[0] === "6"))) return { reason: "shuts down or restarts the machine" };
    if (name.startsWith("mkfs") || DISK_TOOLS.has(name)) return { reason: `runs a disk tool (${name})` };
    if (name === "dd") {
      const of = values.find((value) => value.startsWith("of="));
      if (of) {
        const target = of.slice(3);
        if (target.startsWith("/dev/") && !isHarmless(target)) return { reason: `writes to a device with dd (${target})` };
        return { reason: this.writeTarget({ kind: "word", value: target, expands: rest.some((w) => w.value === of && w.expands) }, cwd) ?? undefined };
      }
      return {};
    }
    for (const target of writeTargets(name, rest)) {
      const reason = this.writeTarget(target, cwd);
      if (reason) return { reason };
    }
    return {};
  }

  private checkRemove(args: Word[], cwd: string | null): string | null {
    let recursive = false;
    let force = false;
    const targets: Word[] = [];
    let endOfOptions = false;
    for (const arg of args) {
      if (!endOfOptions && arg.value === "--") endOfOptions = true;
      else if (!endOfOptions && arg.value.startsWith("--")) {
        if (arg.value === "--recursive") recursive = true;
        if (arg.value === "--force") force = true;
        if (arg.value === "--no-preserve-root") return "deletes with --no-preserve-root";
      } else if (!endOfOptions && arg.value.startsWith("-") && arg.value.length > 1) {
        if (/[rR]/.test(arg.value)) recursive = true;
        if (arg.value.includes("f")) force = true;
      } else targets.push(arg);
    }
    if (recursive && force) return `is a recursive force delete (rm -rf${targets.map((t) => ` ${t.value}`).join("")})`;
    for (const target of targets) {
      const path = this.resolveWord(target, cwd);
      if (path === null) return `deletes a path bosun cannot resolve (${target.value})`;
      if (isInside(this.workdir, path)) return `deletes the working directory or a folder above it (${target.value})`;
      if (!isInsideWorkdir(this.workdir, path) && !isScratchPath(path)) {
        return recursive ? `is a recursive delete outside the working directory (${target.value})` : `deletes outside the working directory (${target.value})`;
      }
    }
    return null;
  }

  private checkFind(args: Word[], cwd: string | null): string | null {
    const values = args.map((word) => word.value);
    const deletes = values.includes("-delete") || values.some((value, i) => (value === "-exec" || value === "-execdir") && /^(rm|shred)$/.test(basename(values[i + 1] ?? "")));
    if (!deletes) return null;
    const roots = args.filter((word, i) => !word.value.startsWith("-") && (i === 0 || !args[i - 1]!.value.startsWith("-")) && !/[()!;{}]/.test(word.value));
    for (const root of roots.length > 0 ? roots : [{ kind: "word", value: ".", expands: false } as Word]) {
      const path = this.resolveWord(root, cwd);
      if (path === null || (!isInsideWorkdir(this.workdir, path) && !isScratchPath(path))) return `deletes files found outside the working directory (find ${root.value} … -delete)`;
    }
    return null;
  }

  /** A path a command writes to: dangerous when outside the workdir (scratch and /dev/null are fine). */
  private writeTarget(target: Word, cwd: string | null): string | null {
    if (isHarmless(target.value)) return null;
    const path = this.resolveWord(target, cwd);
    if (path === null) return `writes to a path bosun cannot resolve (${target.value})`;
    if (isInsideWorkdir(this.workdir, path) || isScratchPath(path)) return null;
    return `writes outside the working directory (${target.value})`;
  }

  /** The absolute path a word names, or null when it depends on a variable or substitution. */
  private resolveWord(word: Word, cwd: string | null): string | null {
    let value = word.value;
    if (word.expands) {
      value = value.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, this.home);
      if (/[$`]/.test(value)) return null;
    }
    if (value === "~" || value.startsWith("~/")) return resolve(this.home, value.slice(2));
    if (value.startsWith("/")) return resolve(value);
    if (cwd === null) return null;
    // A glob stays inside the folder it starts in; check that folder.
    const globAt = value.search(/[*?[]/);
    const literal = globAt === -1 ? value : dirname(value.slice(0, globAt) + "x");
    return resolve(cwd, literal);
  }
}

function isHarmless(target: string): boolean {
  return HARMLESS_TARGETS.some((dev) => target === dev || target.startsWith(`${dev}/`));
}

function checkGit(args: string[]): string | null {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += args[i] === "-C" || args[i] === "-c" ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === "push") {
    if (rest.some((arg) => arg === "-f" || arg.startsWith("--force") || arg === "--mirror" || /^-[a-zA-Z]*f/.test(arg) || /^\+/.test(arg))) {
      return "force-pushes with git (git push --force rewrites the remote history)";
    }
    if (rest.some((arg) => arg === "--delete" || arg === "-d" || /^:[^:]/.test(arg))) return "deletes a remote branch with git push";
  }
  if (sub === "reset" && rest.includes("--hard")) return "discards uncommitted changes (git reset --hard)";
  if (sub === "clean" && rest.some((arg) => arg === "--force" || /^-[a-zA-Z]*f/.test(arg))) return "deletes untracked files (git clean -f)";
  if (sub === "branch" && rest.some((arg) => arg === "-D" || (arg.startsWith("-") && arg.includes("D")))) return "force-deletes a git branch (git branch -D)";
  if (sub === "checkout" && rest.some((arg) => arg === "-f" || arg === "--force")) return "discards local changes (git checkout --force)";
  if (sub === "filter-branch" || sub === "filter-repo") return `rewrites git history (git ${sub})`;
  return null;
}

/** The paths a known file-writing command writes to. */
function writeTargets(name: string, words: Word[]): Word[] {
  const operands = words.filter((word) => !word.value.startsWith("-") || word.value === "-");
  switch (name) {
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
    case "scp": {
      const targetDir = words.findIndex((word) => word.value === "-t" || word.value === "--target-directory");
      if (targetDir !== -1 && words[targetDir + 1]) return [words[targetDir + 1]!];
      const inline = words.find((word) => word.value.startsWith("--target-directory="));
      if (inline) return [{ ...inline, value: inline.value.slice("--target-directory=".length) }];
      return operands.length >= 2 ? [operands[operands.length - 1]!] : [];
    }
    case "tee":
    case "touch":
    case "mkdir":
    case "rmdir":
    case "unlink":
    case "truncate":
      return operands;
    case "chmod":
    case "chown":
    case "chgrp":
      return operands.slice(1);
    case "sed":
    case "perl": {
      if (!words.some((word) => /^-[a-zA-Z]*i/.test(word.value) || word.value.startsWith("--in-place"))) return [];
      const hasScriptFlag = words.some((word) => word.value === "-e" || word.value === "-f");
      return hasScriptFlag ? operands.filter((word, i) => i > 0 || !words.some((w, j) => (w.value === "-e" || w.value === "-f") && words[j + 1] === word)) : operands.slice(1);
    }
    case "curl": {
      const at = words.findIndex((word) => word.value === "-o" || word.value === "--output");
      return at !== -1 && words[at + 1] ? [words[at + 1]!] : [];
    }
    case "wget": {
      const at = words.findIndex((word) => word.value === "-O" || word.value === "--output-document");
      return at !== -1 && words[at + 1] ? [words[at + 1]!] : [];
    }
    default:
      return [];
  }
}

function pipesDownloadIntoShell(command: string): string | null {
  const download = String.raw`\b(curl|wget|fetch|iwr|Invoke-WebRequest)\b`;
  const interpreter = `(${[...INTERPRETERS].join("|")})\\b`;
  if (new RegExp(`${download}[^|;&]*\\|\\s*(sudo\\s+)?(\\S*/)?${interpreter}`).test(command)) return "pipes a download into a shell (curl … | sh)";
  if (new RegExp(`\\b(${[...SHELLS].join("|")})\\b[^;&|]*(<\\(|\\$\\(|\`)\\s*${download}`).test(command)) return "runs a downloaded script in a shell";
  return null;
}

/** The inside of `$(…)` and backticks (not nested), to be checked like commands of their own. */
function substitutions(command: string): string[] {
  const found: string[] = [];
  for (const match of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) found.push(match[1] ?? match[2] ?? "");
  return found.filter((inner) => inner.trim() !== "");
}

function splitCommands(tokens: Token[]): Token[][] {
  const commands: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === "op" && SEPARATORS.has(token.value)) commands.push([]);
    else commands[commands.length - 1]!.push(token);
  }
  return commands.filter((command) => command.length > 0);
}

/** Splits a command line into words and operators, as a POSIX shell would (without expanding). */
export function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  let word = "";
  let inWord = false;
  let expands = false;
  const endWord = () => {
    if (inWord) tokens.push({ kind: "word", value: word, expands });
    word = "";
    inWord = false;
    expands = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "\\" && i + 1 < command.length) {
      if (command[i + 1] !== "\n") word += command[i + 1];
      inWord = true;
      i++;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end === -1 ? undefined : end);
      inWord = true;
      i = end === -1 ? command.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && j + 1 < command.length) word += command[++j];
        else {
          if (command[j] === "$" || command[j] === "`") expands = true;
          word += command[j];
        }
      }
      inWord = true;
      i = j;
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "#" && !inWord) {
      const end = command.indexOf("\n", i);
      i = end === -1 ? command.length : end - 1;
    } else if ("><".includes(c) || ";&|\n()".includes(c)) {
      // A word made only of digits right before > is a file descriptor (2>file), not a word.
      const fd = inWord && /^\d+$/.test(word) && c === ">";
      if (fd) {
        word = "";
        inWord = false;
      } else endWord();
      const op = readOperator(command, i);
      i += op.length - 1;
      if (/^>&|^<&/.test(op) || op === ">&") {
        // duplication (2>&1, >&-): the next word is a descriptor, not a file
        const next = /^[0-9-]+/.exec(command.slice(i + 1))?.[0];
        if (next) i += next.length;
        continue;
      }
      tokens.push({ kind: "op", value: op });
    } else {
      if (c === "$" || c === "`") expands = true;
      word += c;
      inWord = true;
    }
  }
  endWord();
  return tokens;
}

function readOperator(command: string, at: number): string {
  for (const op of ["&>>", "&&", "||", "|&", ">>", ">|", ">&", "<&", "&>", "<<<", "<<", ";;"]) {
    if (command.startsWith(op, at)) return op;
  }
  return command[at]!;
}

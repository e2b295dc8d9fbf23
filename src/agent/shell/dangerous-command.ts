import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { isInside } from "../../kernel/fs/path-inside.js";
import { realPathOrSelf } from "../../kernel/fs/stat.js";
import { invocationOf } from "./command-invocation.js";
import { commandWrites } from "./command-writes.js";
import { gitDanger } from "./git-command.js";
import { shellInput } from "./shell-input.js";
import { OUTPUT_REDIRECTS, parseScript, type Pipeline, type SimpleCommand, type Stage } from "./shell-syntax.js";
import { derivedWord, type Word } from "./shell-words.js";
import { isInsideWorkdir, realLocation, scratchFolders } from "../tools/paths.js";

/** What the checker finds in a shell command: why it is dangerous, and where outside the working folder it writes. */
export interface CommandAnalysis {
  /** Why the command is dangerous for reasons other than where it writes, or null. */
  danger: string | null;
  /** Why it writes outside the working folder (the first such write), or null. */
  outsideWrite: string | null;
  /**
   * The absolute paths outside the working folder that it writes, where they really are (the
   * symlinks of their nearest existing ancestor followed); not the temp folder or /dev/null.
   * Deduplicated, in order of appearance; empty when none could be resolved.
   */
  writes: string[];
}

/** Where a command runs, and what counts as outside. */
export interface AnalyzeOptions {
  /** The working folder (the project): "outside" is always judged against it. */
  workdir: string;
  /** Where the command starts, an absolute path; default the workdir. */
  cwd?: string;
  /** The home folder, for `~` and `$HOME`; default the user's. */
  home?: string;
  /** Folders where writing is routine and never reported; default the temp folders. */
  scratch?: readonly string[];
}

/**
 * Reads a shell command for danger and for the places outside the working folder it writes.
 * Pure (but for following symlinks) and conservative: it reads the command the way a shell
 * splits it (quotes, `;`, `&&`, `|`, subshells, redirections, here-documents,
 * `cd`/`pushd`/`popd`), and when it cannot tell what a command runs or where it points (a
 * variable, a command substitution) it says so rather than guessing that it is safe.
 *
 * Dangerous: recursive force deletes and recursive deletes outside the workdir, deleting the
 * workdir or a folder above it, a delete bosun cannot resolve; `git push --force`, `git reset
 * --hard`, `git clean -f`, `git branch -D`, history rewrites; a download or any generated text
 * piped into a shell; a command whose name bosun cannot resolve (`$CMD …`); disk tools (mkfs,
 * fdisk, parted, wipefs, dd to a device, shred); sudo/su; machine shutdown; the fork bomb.
 * Writes outside the workdir (other than to the temp folder and /dev/null) are reported apart.
 * `bash -c`, `sh -c`, `eval`, `$(…)`, scripts fed to a shell on its input and `find -exec` are
 * read too. Interpreter one-liners (`python3 -c`, `node -e`) are not.
 */
export function analyzeCommand(command: string, options: AnalyzeOptions): CommandAnalysis {
  const analyzer = new Analyzer(options.workdir, options.home ?? homedir(), options.scratch ?? scratchFolders());
  analyzer.script(command, { cwd: options.cwd ?? options.workdir, previous: null, stack: [] }, 0);
  return analyzer.result();
}

/**
 * Whether a shell command is dangerous enough to ask the user even in full-access mode, and why:
 * the danger `analyzeCommand` finds or, failing that, its write outside the working folder.
 */
export function detectDangerousCommand(command: string, workdir: string, home: string = homedir()): string | null {
  const found = analyzeCommand(command, { workdir, home });
  return found.danger ?? found.outsideWrite;
}

/** The folder the shell is in (null once bosun cannot tell), the one before it, and the pushd stack. */
interface ShellState {
  cwd: string | null;
  previous: string | null;
  stack: (string | null)[];
}

const fork = (state: ShellState): ShellState => ({ ...state, stack: [...state.stack] });

const HARMLESS_TARGETS = ["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/fd"];
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash"]);
const INTERPRETERS = new Set([...SHELLS, "python", "python3", "perl", "ruby", "node", "php"]);
const DISK_TOOLS = new Set(["fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs", "mkswap", "shred", "diskutil", "badblocks"]);
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const FIND_DELETERS = new Set(["rm", "shred", "unlink", "rmdir"]);
const FORK_BOMB = /:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/;
const MAX_DEPTH = 4;

class Analyzer {
  private danger: string | null = null;
  private outsideWrite: string | null = null;
  private readonly writes: string[] = [];
  private readonly scratch: string[];

  constructor(
    private readonly workdir: string,
    private readonly home: string,
    scratch: readonly string[],
  ) {
    this.scratch = scratch.flatMap((dir) => [dir, realPathOrSelf(dir)]);
  }

  result(): CommandAnalysis {
    return { danger: this.danger, outsideWrite: this.outsideWrite, writes: [...this.writes] };
  }

  /** Checks a script run by a shell whose state (folder) it starts from. */
  script(text: string, state: ShellState, depth: number): void {
    if (depth > MAX_DEPTH) return this.flag("nests shells too deeply to check");
    if (FORK_BOMB.test(text)) this.flag("is a fork bomb");
    const piped = pipesDownloadIntoShell(text);
    if (piped) this.flag(piped);
    this.pipelines(parseScript(text), state, depth);
  }

  private flag(reason: string): void {
    this.danger ??= reason;
  }

  private pipelines(pipelines: Pipeline[], state: ShellState, depth: number): void {
    for (const pipeline of pipelines) {
      // the stages of a pipeline, and a command sent to the background, run in child shells
      const own = pipeline.stages.length === 1 && !pipeline.background;
      pipeline.stages.forEach((stage, i) => this.stage(stage, own ? state : fork(state), depth, pipeline.stages[i - 1] ?? null));
    }
  }

  private stage(stage: Stage, state: ShellState, depth: number, feed: Stage | null): void {
    if (stage.kind === "simple") return this.simple(stage, state, depth, feed);
    for (const redirect of stage.redirects) {
      for (const inner of redirect.target.substitutions) this.script(inner, fork(state), depth + 1);
      if (OUTPUT_REDIRECTS.has(redirect.op)) this.write(redirect.target, state.cwd);
    }
    this.pipelines(stage.body, fork(state), depth);
  }

  private simple(command: SimpleCommand, state: ShellState, depth: number, feed: Stage | null): void {
    // substitutions run first, in the shell's folder
    for (const word of [...command.words, ...command.redirects.map((redirect) => redirect.target)]) {
      for (const inner of word.substitutions) this.script(inner, fork(state), depth + 1);
    }
    if (command.casePattern) return;
    const invocation = invocationOf(command.words);
    const cwd = invocation.chdir ? this.resolve(invocation.chdir, state.cwd) : state.cwd;
    // what it writes, in the order written: the shell's redirections and the program's own targets
    const targets: { word: Word; cwd: string | null }[] = command.redirects.filter((redirect) => OUTPUT_REDIRECTS.has(redirect.op)).map((redirect) => ({ word: redirect.target, cwd: state.cwd }));
    if (invocation.elevatedBy) this.flag(`runs a command as another user (${invocation.elevatedBy})`);
    const { name, program, args } = invocation;
    if (name?.expands) this.flag(`runs a command whose name bosun cannot resolve (${shown(name.value)})`);
    else if (name) {
      // eval runs in this shell (a cd in it lasts); env -C starts the program elsewhere
      this.program(program, args, command, invocation.chdir ? { ...fork(state), cwd } : state, depth, feed);
      if (program === "cd" || program === "pushd" || program === "popd") this.changeDirectory(program, args, state);
      targets.push(...commandWrites(program, args).map((word) => ({ word, cwd })));
    }
    targets.sort((a, b) => a.word.start - b.word.start);
    for (const target of targets) this.write(target.word, target.cwd);
  }

  /** The dangers particular to one program (its writes are read apart). */
  private program(program: string, args: Word[], command: SimpleCommand, state: ShellState, depth: number, feed: Stage | null): void {
    const values = args.map((word) => word.value);
    if (SHELLS.has(program)) return this.shell(program, args, command, state, depth, feed);
    if (program === "eval") return this.script(values.join(" "), state, depth + 1);
    if (program === "rm") return this.remove(args, state.cwd);
    if (program === "find") return this.find(args, state, depth);
    if (program === "git") {
      const danger = gitDanger(args);
      if (danger) this.flag(danger);
    }
    if (POWER.has(program) || (program === "init" && (values[0] === "0" || values[0] === "6"))) this.flag("shuts down or restarts the machine");
    if (program.startsWith("mkfs") || DISK_TOOLS.has(program)) this.flag(`runs a disk tool (${program})`);
    if (program === "dd") {
      const device = values.find((value) => value.startsWith("of=/dev/") && !isHarmless(value.slice(3)));
      if (device) this.flag(`writes to a device with dd (${device.slice(3)})`);
    }
  }

  /** A shell: the script it is given with -c, or the one it reads on its input. */
  private shell(program: string, args: Word[], command: SimpleCommand, state: ShellState, depth: number, feed: Stage | null): void {
    const input = shellInput(program, args, command.redirects, feed);
    if (input.kind === "script") return this.script(input.text, fork(state), depth + 1);
    if (input.kind === "generated") this.flag(`pipes generated text into a shell (${input.shown})`);
  }

  private changeDirectory(program: string, args: Word[], state: ShellState): void {
    const operands = args.filter((word) => !/^-[LPe@]+$/.test(word.value) && word.value !== "--");
    const target = operands.find((word) => word.value !== "-n");
    const keep = operands.some((word) => word.value === "-n");
    const move = (to: string | null): void => {
      state.previous = state.cwd;
      state.cwd = to;
    };
    if (program === "cd") {
      if (!target) return move(this.home);
      return move(target.value === "-" ? state.previous : this.resolve(target, state.cwd, false));
    }
    if (target && /^[+-]\d+$/.test(target.value)) {
      // rotating the stack: bosun does not follow where that leads
      if (program === "popd") state.stack.pop();
      return keep ? undefined : move(null);
    }
    if (program === "pushd") {
      if (!target) {
        const top = state.stack.pop();
        if (top !== undefined) {
          state.stack.push(state.cwd);
          move(top);
        }
        return;
      }
      const to = this.resolve(target, state.cwd, false);
      if (keep) state.stack.push(to);
      else {
        state.stack.push(state.cwd);
        move(to);
      }
      return;
    }
    const top = state.stack.pop();
    if (top !== undefined && !keep) move(top);
  }

  private remove(args: Word[], cwd: string | null): void {
    let recursive = false;
    let force = false;
    const targets: Word[] = [];
    let endOfOptions = false;
    for (const arg of args) {
      if (!endOfOptions && arg.value === "--") endOfOptions = true;
      else if (!endOfOptions && arg.value.startsWith("--")) {
        if (arg.value === "--recursive") recursive = true;
        if (arg.value === "--force") force = true;
        if (arg.value === "--no-preserve-root") this.flag("deletes with --no-preserve-root");
      } else if (!endOfOptions && arg.value.startsWith("-") && arg.value.length > 1) {
        if (/[rR]/.test(arg.value)) recursive = true;
        if (arg.value.includes("f")) force = true;
      } else targets.push(arg);
    }
    if (recursive && force) this.flag(`is a recursive force delete (rm -rf${targets.map((t) => ` ${shown(t.value)}`).join("")})`);
    for (const target of targets) {
      const path = this.resolve(target, cwd);
      if (path === null) {
        this.flag(`deletes a path bosun cannot resolve (${shown(target.value)})`);
        continue;
      }
      // a pattern (`dir/*`) deletes what is in its folder, not the folder
      if (isInside(this.workdir, path) && !(target.glob && path === resolve(this.workdir))) this.flag(`deletes the working directory or a folder above it (${shown(target.value)})`);
      if (this.record(path, `deletes outside the working directory (${shown(target.value)})`) && recursive) {
        this.flag(`is a recursive delete outside the working directory (${shown(target.value)})`);
      }
    }
  }

  private find(args: Word[], state: ShellState, depth: number): void {
    let i = 0;
    while (i < args.length && /^-([HLP]|D|O\d*)$/.test(args[i]!.value)) i += args[i]!.value === "-D" ? 2 : 1;
    const roots: Word[] = [];
    for (; i < args.length && !/^[-(!),]/.test(args[i]!.value); i++) roots.push(args[i]!);
    if (roots.length === 0) roots.push(derivedWord(".", args[0] ?? { start: 0, expands: false }));
    const commands: Word[][] = [];
    for (; i < args.length; i++) {
      if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[i]!.value)) continue;
      const end = args.findIndex((word, j) => j > i && (word.value === ";" || word.value === "+"));
      commands.push(args.slice(i + 1, end === -1 ? undefined : end));
      i = end === -1 ? args.length : end;
    }
    const deletes = args.some((word) => word.value === "-delete") || commands.some((words) => FIND_DELETERS.has(invocationOf(words).program));
    for (const root of roots) {
      const path = this.resolve(root, state.cwd);
      const outside = path === null ? true : this.record(path, `deletes outside the working directory (find ${shown(root.value)} … -delete)`, deletes);
      if (deletes && outside) this.flag(`deletes files found outside the working directory (find ${shown(root.value)} … -delete)`);
      // the command -exec runs on each file found: {} is somewhere below this root
      for (const words of commands) {
        const below = `${root.value.replace(/\/+$/, "")}/*`;
        const own = words.map((word) => (word.value.includes("{}") ? { ...word, value: word.value.replaceAll("{}", below), expands: word.expands || root.expands, glob: true } : word));
        this.simple({ kind: "simple", words: own, redirects: [], casePattern: false }, fork(state), depth + 1, null);
      }
    }
  }

  /** A path the command writes to: reported when outside the workdir (scratch and /dev/null are fine). */
  private write(target: Word, cwd: string | null): void {
    // a process substitution (>(cmd)) is a pipe to a command, checked on its own
    if (isHarmless(target.value) || /^[<>]\(/.test(target.value)) return;
    const path = this.resolve(target, cwd);
    if (path === null) {
      this.outsideWrite ??= `writes to a path bosun cannot resolve (${shown(target.value)})`;
      return;
    }
    this.record(path, `writes outside the working directory (${target.value === "." ? path : shown(target.value)})`);
  }

  /** Notes a written path; returns whether it is outside the workdir (and not scratch). */
  private record(path: string, reason: string, written = true): boolean {
    if (isHarmless(path)) return false;
    const real = realLocation(path) ?? path;
    if (isInsideWorkdir(this.workdir, path) || this.scratch.some((dir) => isInside(real, dir))) return false;
    if (!written) return true;
    this.outsideWrite ??= reason;
    if (!this.writes.includes(real)) this.writes.push(real);
    return true;
  }

  /** The absolute path a word names, or null when it depends on a variable or substitution. */
  private resolve(word: Word, cwd: string | null, globs = true): string | null {
    let value = word.value;
    if (word.expands) {
      value = value.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, this.home);
      if (cwd !== null) value = value.replace(/^(\$PWD|\$\{PWD\})(?=\/|$)/, cwd);
      if (/[$`]/.test(value)) return null;
    }
    if (word.glob) {
      if (!globs) return null;
      // a pattern stays inside the folder it starts in; that folder is what is written
      value = dirname(value.slice(0, value.search(/[*?[]/)) + "x");
    }
    if (value === "~" || value.startsWith("~/")) return resolve(this.home, value.slice(2));
    if (value.startsWith("/")) return resolve(value);
    if (cwd === null) return null;
    return resolve(cwd, value);
  }
}

function isHarmless(target: string): boolean {
  return HARMLESS_TARGETS.some((dev) => target === dev || target.startsWith(`${dev}/`));
}

/** A word for a message: long ones are cut. */
function shown(value: string): string {
  return value.length > 80 ? `${value.slice(0, 79)}…` : value;
}

function pipesDownloadIntoShell(command: string): string | null {
  const download = String.raw`\b(curl|wget|fetch|iwr|Invoke-WebRequest)\b`;
  const interpreter = `(${[...INTERPRETERS].join("|")})\\b`;
  if (new RegExp(`${download}[^|;&]*\\|\\s*(sudo\\s+)?(\\S*/)?${interpreter}`).test(command)) return "pipes a download into a shell (curl … | sh)";
  if (new RegExp(`\\b(${[...SHELLS].join("|")})\\b[^;&|]*(<\\(|\\$\\(|\`)\\s*${download}`).test(command)) return "runs a downloaded script in a shell";
  return null;
}

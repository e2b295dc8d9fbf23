import { execFile, spawn, type ChildProcess } from "node:child_process";
import { UserError } from "../../kernel/errors.js";
import { statOrUndefined } from "../../kernel/fs/stat.js";
import { GitTooOldError } from "./errors.js";

/**
 * Variables that point git at another repository, work tree or index than the folder it runs in
 * (a hook or `git rebase --exec` sets them for its children). bosun always means the folder it
 * names, so they are left out; the config variables (`GIT_CONFIG_*`) are the user's and stay.
 */
const REPOSITORY_VARIABLES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_PREFIX",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_NAMESPACE",
];

/**
 * Put before `diff` when it compares with a work tree: `git diff` writes a refreshed index back
 * when it meets files whose stat data changed but content did not, GIT_OPTIONAL_LOCKS=0 or not;
 * with autoRefreshIndex off it still compares their content (`--numstat` and patches leave them
 * out) but writes nothing.
 */
export const READ_ONLY_DIFF = ["-c", "diff.autoRefreshIndex=false", "diff"] as const;

/** The most git may print on stdout for one command (a patch with binary files can be large). */
const MAX_OUTPUT = 256 * 1024 * 1024;

/** How long a command that met another git's lock file is tried again, and how often. */
const LOCK_RETRY_MS = 3_000;
const LOCK_RETRY_STEP_MS = 40;

/**
 * A git command failed. Carries the command and the first line git wrote on stderr, which is
 * the line that says why ("fatal: …"); the message is one line for the CLI edge.
 */
export class GitError extends UserError {
  override name = "GitError";
  constructor(
    /** git's arguments, without `git`. */
    readonly args: readonly string[],
    readonly cwd: string,
    /** git's exit code, or null when it did not start or was killed. */
    readonly gitExitCode: number | null,
    /** git's first line on stderr (without `fatal: `/`error: `), or what stopped it from starting. */
    readonly stderrLine: string,
  ) {
    super(`git ${args.join(" ")} failed in ${cwd}: ${stderrLine || `exit code ${gitExitCode}`}`);
  }
}

/** git is not installed, or not on PATH. */
export class GitMissingError extends UserError {
  override name = "GitMissingError";
  constructor() {
    super('git is not installed (or not on PATH): install git, or run the task with isolation "none"');
  }
}

export interface GitRun {
  cwd: string;
  /** Exit codes that are answers rather than failures (`rev-parse --verify -q` exits 1 for "no such commit"). */
  okCodes?: readonly number[];
  /** Try again for a while when another git at work in the repository got in the way (see isLockContention). */
  retryOnLock?: boolean;
}

export interface GitResult {
  stdout: string;
  /** git's exit code (0, or one of `okCodes`). */
  code: number;
  stderr: string;
}

/**
 * The environment git runs with: the user's, without the variables that would point it at
 * another repository, with English messages (bosun reads a few of them) and no optional locks,
 * so that reading a repository (`git status`, `git diff`) never rewrites its index.
 */
export function gitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env, LC_ALL: "C", LANGUAGE: "C", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" };
  for (const name of REPOSITORY_VARIABLES) delete clean[name];
  return clean;
}

/** Runs git with an argument list (never a shell) and returns its output; any other exit is a GitError. */
export async function runGit(args: readonly string[], options: GitRun): Promise<GitResult> {
  const deadline = Date.now() + LOCK_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    const result = await execGit(args, options.cwd);
    if (result.code !== null && (result.code === 0 || options.okCodes?.includes(result.code))) return { stdout: result.stdout, code: result.code, stderr: result.stderr };
    if (options.retryOnLock && isLockContention(result.stderr) && Date.now() < deadline) {
      // Another git (often a second bosun adding its own worktree) holds the lock: it lets go within milliseconds.
      await sleep(LOCK_RETRY_STEP_MS * Math.min(attempt, 5) * (0.5 + Math.random()));
      continue;
    }
    throw new GitError(args, options.cwd, result.code, result.startError ?? firstLine(result.stderr));
  }
}

/**
 * Streams one git command's stdout into another's stdin (`git diff --binary | git apply`), without
 * a shell and without holding the stream in memory. Fails with the first command that failed.
 */
export async function pipeGit(from: { args: readonly string[]; cwd: string }, to: { args: readonly string[]; cwd: string }): Promise<void> {
  const env = gitEnv();
  const source = spawn("git", from.args, { cwd: from.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const sink = spawn("git", to.args, { cwd: to.cwd, env, stdio: ["pipe", "ignore", "pipe"] });
  source.stdout.pipe(sink.stdin);
  // The sink may stop reading early (it failed): its failure is reported, not the broken pipe.
  sink.stdin.on("error", () => {});
  // A source that could not start ends the sink's input, so the sink does not wait for it.
  source.once("error", () => sink.stdin.end());
  const [sourceEnd, sinkEnd] = await Promise.all([ended(source), ended(sink)]);
  if (sourceEnd.code !== 0) throw new GitError(from.args, from.cwd, sourceEnd.code, sourceEnd.startError ?? firstLine(sourceEnd.stderr));
  if (sinkEnd.code !== 0) throw new GitError(to.args, to.cwd, sinkEnd.code, sinkEnd.startError ?? firstLine(sinkEnd.stderr));
}

let versionCheck: Promise<void> | undefined;

/**
 * The oldest git with `git worktree add --lock --reason` (2.33; `--lock` alone is older, and so is
 * `git worktree lock --reason`), which also lists locks and missing folders in
 * `git worktree list --porcelain` (2.31).
 */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 33];

/** Checks once per process that git is installed and new enough for task worktrees. */
export function requireGitVersion(): Promise<void> {
  versionCheck ??= gitVersion().then((version) => {
    if (!versionAtLeast(version, MIN_GIT_VERSION)) {
      throw new GitTooOldError(version, MIN_GIT_VERSION);
    }
  });
  // A failed check is not remembered: git may be installed a moment later.
  versionCheck.catch(() => (versionCheck = undefined));
  return versionCheck;
}

/** `git version` as numbers (`git version 2.39.5` → [2, 39, 5]). */
export async function gitVersion(): Promise<number[]> {
  const result = await execGit(["version"], process.cwd());
  if (result.startError === "ENOENT") throw new GitMissingError();
  if (result.code !== 0) throw new GitError(["version"], process.cwd(), result.code, result.startError ?? firstLine(result.stderr));
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(result.stdout);
  if (!match) throw new GitError(["version"], process.cwd(), 0, `unexpected answer ${JSON.stringify(result.stdout.trim())}`);
  return match.slice(1).map((part) => Number(part ?? 0));
}

export function versionAtLeast(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < minimum.length; i++) {
    const have = version[i] ?? 0;
    if (have !== minimum[i]) return have > minimum[i]!;
  }
  return true;
}

/**
 * Whether git failed because of another git at work in the same repository, which passes:
 * a lock file it needed was taken (`Unable to create '….lock': File exists`, `could not lock
 * config file`), or it read the administrative folder of a worktree another `git worktree add`
 * was still creating (`failed to read .git/worktrees/<name>/commondir`, seen with git 2.39 when
 * two adds run at once). Other failures do not pass.
 */
export function isLockContention(stderr: string): boolean {
  return /Unable to create '[^']*\.lock': File exists|could not lock config file|cannot lock ref '[^']*': Unable to create|failed to read [^\n]*worktrees\/[^\n]*\/(commondir|gitdir)/.test(stderr);
}

/**
 * The line of git's stderr that says why it failed: the first `fatal: ` or `error: ` line (without
 * that prefix), else the first line (git may say what it was doing first: "Preparing worktree…").
 */
export function firstLine(stderr: string): string {
  const lines = stderr.split("\n").filter((text) => text.trim() !== "");
  const line = lines.find((text) => /^(fatal|error): /.test(text)) ?? lines[0] ?? "";
  return line.replace(/^(fatal|error): /, "").trim();
}

interface RawResult {
  code: number | null;
  stdout: string;
  stderr: string;
  startError?: string;
}

function execGit(args: readonly string[], cwd: string): Promise<RawResult> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, env: gitEnv(), encoding: "utf8", maxBuffer: MAX_OUTPUT }, (error, stdout, stderr) => {
      if (!error) return resolve({ code: 0, stdout, stderr });
      const code = (error as { code?: unknown }).code;
      if (typeof code === "number") return resolve({ code, stdout, stderr });
      // A string code is Node's: git did not start (ENOENT), or its cwd is missing, or output overflowed.
      const startError = typeof code === "string" ? (code === "ENOENT" && !cwdExists(cwd) ? `folder ${cwd} does not exist` : code) : error.message;
      resolve({ code: null, stdout, stderr, startError });
    });
  });
}

function ended(child: ChildProcess): Promise<RawResult> {
  return new Promise((resolve) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", (error: NodeJS.ErrnoException) => resolve({ code: null, stdout: "", stderr, startError: error.code ?? error.message }));
    child.once("close", (code) => resolve({ code, stdout: "", stderr }));
  });
}

function cwdExists(cwd: string): boolean {
  return statOrUndefined(cwd)?.isDirectory() ?? false;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

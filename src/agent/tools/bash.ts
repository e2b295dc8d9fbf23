import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { z } from "zod";
import { describeError } from "../../errors.js";
import { analyzeCommand } from "../dangerous-command.js";
import { visibleLine } from "../terminal-text.js";
import { resolveToolPath, showPath } from "./paths.js";
import { ToolError, type AgentTool, type SpillStore, type ToolContext, type ToolResult } from "./tool.js";

export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;
export const MAX_BASH_TIMEOUT_SECONDS = 600;
/** Output up to this many characters goes to the model whole; beyond it, head + tail + a file. */
export const MAX_BASH_INLINE_CHARS = 30_000;
const HEAD_CHARS = 20_000;
const TAIL_CHARS = 8_000;
/** After SIGTERM, a process group gets this long before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** After the shell exits, how long to wait for background children holding its output open. */
const DRAIN_MS = 2_000;
/** How many of the output's last lines the user sees under the call's result. */
export const BASH_TAIL_LINES = 4;

const inputSchema = z
  .object({
    command: z.string().min(1).describe("The shell command (bash -c); runs in the working directory with no input"),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_BASH_TIMEOUT_SECONDS)
      .optional()
      .describe(`Stop the command after this many seconds; default ${DEFAULT_BASH_TIMEOUT_SECONDS}`),
    cwd: z.string().optional().describe("Folder to run in, relative to the working directory; default the working directory"),
  })
  .strict();

export type BashInput = z.infer<typeof inputSchema>;

/**
 * How commands are started; the default runs them locally. Each command gets its own process
 * group so that a timeout or Ctrl-C stops everything it started.
 */
export interface ProcessOperations {
  shell(): string;
}

export const localProcessOperations: ProcessOperations = {
  shell: () => (existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh"),
};

export function createBashTool(processes: ProcessOperations = localProcessOperations): AgentTool<BashInput> {
  return {
    name: "bash",
    description:
      `Run a shell command and get its combined output and exit code. Times out after ${DEFAULT_BASH_TIMEOUT_SECONDS} s by default ` +
      `(timeout_seconds up to ${MAX_BASH_TIMEOUT_SECONDS}); the command and everything it started are then stopped. ` +
      `Output over ${MAX_BASH_INLINE_CHARS} characters is cut to its start and end and saved whole to a file you can read. ` +
      "Commands get no input: use non-interactive flags.",
    inputSchema,
    access: "execute",
    describe: (input) => `$ ${input.command.length > 200 ? `${input.command.slice(0, 200)}…` : input.command}`,
    danger: (input, workdir) => {
      // "outside" is judged against the workdir, wherever in (or out of) it the command starts
      const found = analyzeCommand(input.command, { workdir, cwd: input.cwd ? resolveToolPath(workdir, input.cwd) : workdir });
      return found.danger ?? found.outsideWrite;
    },
    async execute(input, context) {
      const cwd = input.cwd ? resolveToolPath(context.workdir, input.cwd) : context.workdir;
      if (!existsSync(cwd)) throw new ToolError(`folder ${showPath(context.workdir, cwd)} does not exist`);
      return runCommand(processes.shell(), input.command, cwd, (input.timeout_seconds ?? DEFAULT_BASH_TIMEOUT_SECONDS) * 1000, context);
    },
  };
}

type Ending = { kind: "exit"; code: number | null; signal: NodeJS.Signals | null } | { kind: "timeout" } | { kind: "aborted" };

async function runCommand(shell: string, command: string, cwd: string, timeoutMs: number, context: ToolContext): Promise<ToolResult> {
  if (context.signal.aborted) throw new ToolError("aborted before the command started");
  const output = new OutputCollector(context.spill, `bash-${context.callId}.txt`);
  const env = { ...context.env, GIT_TERMINAL_PROMPT: "0", PAGER: "cat", GIT_PAGER: "cat" };
  // One stream for both outputs, as in a terminal: the model sees errors where they happened.
  const child = spawn(shell, ["-c", `exec 2>&1\n${command}`], { cwd, env: env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => output.add(chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => output.add(chunk));

  let stopReason: "timeout" | "aborted" | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (reason: "timeout" | "aborted") => {
    if (stopReason) return;
    stopReason = reason;
    signalGroup(child.pid, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = () => stop("aborted");
  context.signal.addEventListener("abort", onAbort, { once: true });

  const ending = await new Promise<Ending>((resolve) => {
    child.once("error", (error) => {
      output.add(`failed to start ${shell}: ${error.message}\n`);
      resolve({ kind: "exit", code: null, signal: null });
    });
    child.once("exit", (code, signal) => {
      // Background children may keep the pipes open; give them a moment, then stop listening.
      const drained = Promise.all([closed(child.stdout), closed(child.stderr)]);
      const deadline = new Promise((done) => setTimeout(done, DRAIN_MS).unref());
      void Promise.race([drained, deadline]).then(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve(stopReason ? { kind: stopReason } : { kind: "exit", code, signal });
      });
    });
  });
  clearTimeout(timer);
  clearTimeout(killTimer);
  context.signal.removeEventListener("abort", onAbort);
  if (stopReason) signalGroup(child.pid, "SIGKILL"); // anything that ignored SIGTERM and outlived the shell

  const text = await output.finish();
  const status =
    ending.kind === "timeout"
      ? `[stopped: timed out after ${timeoutMs / 1000} s]`
      : ending.kind === "aborted"
        ? "[stopped: cancelled by the user]"
        : ending.signal
          ? `[killed by ${ending.signal}]`
          : `[exit code ${ending.code ?? "unknown"}]`;
  const summary = ending.kind === "exit" ? (ending.signal ? `killed by ${ending.signal}` : `exit ${ending.code}`) : ending.kind === "timeout" ? "timed out" : "cancelled";
  return {
    output: `${text}${text && !text.endsWith("\n") ? "\n" : ""}${status}`,
    isError: ending.kind !== "exit",
    summary: output.spillPath ? `${summary}, output saved to ${output.spillPath}` : summary,
    ...(output.spillPath ? { spillFile: output.spillPath } : {}),
    outputTail: output.lastLines(BASH_TAIL_LINES),
  };
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function closed(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    if ((stream as { closed?: boolean }).closed) return resolve();
    stream.once("close", () => resolve());
  });
}

/**
 * Keeps what the model will see (the start and the end) in memory and, once the output outgrows
 * the inline limit, streams all of it to a spill file, so a command that prints gigabytes costs
 * neither memory nor context. A spill file that cannot be written (a full disk, a FIFO in its
 * place) costs only the middle of the output: the model is told why it was not saved.
 */
class OutputCollector {
  private head = "";
  private tail = "";
  private total = 0;
  private file: ReturnType<SpillStore["open"]> | null = null;
  private unsaved: string | null = null;
  spillPath: string | null = null;

  constructor(
    private readonly spill: SpillStore,
    private readonly name: string,
  ) {}

  add(chunk: string): void {
    this.total += chunk.length;
    if (this.file || this.unsaved) {
      this.save(() => this.file?.write(chunk));
      this.tail = (this.tail + chunk).slice(-TAIL_CHARS);
      return;
    }
    if (this.head.length + chunk.length <= MAX_BASH_INLINE_CHARS) {
      this.head += chunk;
      return;
    }
    const all = this.head + chunk;
    this.save(() => {
      this.file = this.spill.open(this.name);
      this.spillPath = this.file.path;
      this.file.write(all);
    });
    this.head = all.slice(0, HEAD_CHARS);
    this.tail = all.slice(HEAD_CHARS).slice(-TAIL_CHARS);
  }

  /**
   * The last `count` lines that are not blank, each whole and as a terminal shows it (without
   * control sequences), so that redaction, which runs on what is returned, sees the text the
   * user will: a line cut at its start, or broken up by colour codes, could hold a secret it would
   * not recognize.
   */
  lastLines(count: number): string[] {
    let text = this.head;
    if (this.total > this.head.length) {
      // The output outgrew the head (saved to a file or not): its end is in the tail, whose
      // window starts wherever it fell. Drop that first, partial, line.
      const cut = this.tail.indexOf("\n");
      text = cut < 0 ? "" : this.tail.slice(cut + 1);
    }
    return text
      .split("\n")
      .map(visibleLine)
      .filter((line) => line.trim() !== "")
      .slice(-count);
  }

  async finish(): Promise<string> {
    if (!this.file && !this.unsaved) return this.head;
    await this.file?.close().catch((error: unknown) => this.giveUpSaving(error));
    const omitted = this.total - this.head.length - this.tail.length;
    const whole = this.unsaved ? `could not be saved: ${this.unsaved}` : `is in ${this.spillPath}: read it with the read tool (offset/limit) or grep it`;
    return `${this.head}\n… [${omitted} characters omitted; the whole output (${this.total} characters) ${whole}] …\n${this.tail}`;
  }

  // Runs in the output stream's data handler: a failure must not escape it.
  private save(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.giveUpSaving(error);
    }
  }

  private giveUpSaving(error: unknown): void {
    this.unsaved ??= describeError(error);
    const file = this.file;
    this.file = null;
    this.spillPath = null;
    void file?.close().catch(() => undefined);
  }
}

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { z } from "zod";
import { analyzeCommand } from "../shell/dangerous-command.js";
import { mayWrite, writeGrant } from "../sandbox/sandbox.js";
import { sandboxNote } from "../sandbox/sandbox-notes.js";
import { launchCommand } from "../sandbox/sandboxed-command.js";
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_OUTPUT_BYTES } from "../sandbox/sandbox-settings.js";
import { signalGroup, type BackgroundJobs } from "./background-jobs.js";
import { MAX_BASH_INLINE_CHARS, OutputCollector } from "./output-collector.js";
import { resolveToolPath, showPath } from "./paths.js";
import { ToolError, type AgentTool, type ToolContext, type ToolResult } from "./tool.js";

export { MAX_BASH_INLINE_CHARS } from "./output-collector.js";
export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;
export const MAX_BASH_TIMEOUT_SECONDS = 600;
/** After SIGTERM, a process group gets this long before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** After the shell exits, how long to wait for its output to be read to the end. */
const DRAIN_MS = 2_000;
/** How long a background command runs before its call returns with what it printed so far. */
export const BACKGROUND_WAIT_MS = 3_000;
/** Where a sandboxed command may always write: its private /tmp. */
const SANDBOX_SCRATCH = ["/tmp"];
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
    writable: z
      .array(z.string().min(1))
      .max(16)
      .optional()
      .describe("Files or folders outside the working directory this command must write; the user is asked to allow them for this call. Only after a write failed with 'Read-only file system'"),
    background: z
      .boolean()
      .optional()
      .describe(
        `Keep the command running after this call (a server, a watcher) until the run ends; the user is always asked. Do not end it with &: the command itself stays running. The call returns what it printed in its first ${BACKGROUND_WAIT_MS / 1000} s; the rest goes to a file`,
      ),
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
  const cwdOf = (input: BashInput, workdir: string) => (input.cwd ? resolveToolPath(workdir, input.cwd) : workdir);
  return {
    name: "bash",
    description:
      `Run a shell command and get its combined output and exit code. Times out after ${DEFAULT_BASH_TIMEOUT_SECONDS} s by default ` +
      `(timeout_seconds up to ${MAX_BASH_TIMEOUT_SECONDS}); when it ends, everything it started is stopped too (see background). ` +
      `Output over ${MAX_BASH_INLINE_CHARS} characters is cut to its start and end and saved whole to a file you can read. ` +
      "Commands get no input: use non-interactive flags. They may run in a sandbox: only the working directory and /tmp are writable, and the network may be off.",
    inputSchema,
    access: "execute",
    describe: (input) => `$ ${input.command.length > 200 ? `${input.command.slice(0, 200)}…` : input.command}${input.background ? " (background)" : ""}`,
    danger(input, workdir, sandbox) {
      const analysis = analyzeCommand(input.command, { workdir, cwd: cwdOf(input, workdir) });
      // Inside bubblewrap, a write outside the writable folders cannot happen unasked: it is a sandbox need.
      return sandbox?.bwrap ? analysis.danger : (analysis.danger ?? analysis.outsideWrite);
    },
    sandboxNeeds(input, workdir, sandbox) {
      const wanted = (input.writable ?? []).map((path) => resolveToolPath(workdir, path));
      // Inside bubblewrap only the call's own /tmp is scratch space (/var/tmp and the host's temp folder are read-only).
      if (sandbox?.bwrap) wanted.push(...analyzeCommand(input.command, { workdir, cwd: cwdOf(input, workdir), scratch: SANDBOX_SCRATCH }).writes);
      const write = sandbox ? [...new Set(wanted.filter((path) => !mayWrite(sandbox, path)).map(writeGrant))] : [];
      if (write.length === 0 && !input.background) return null;
      return { ...(write.length > 0 ? { write } : {}), ...(input.background ? { background: true } : {}) };
    },
    async execute(input, context) {
      const cwd = cwdOf(input, context.workdir);
      if (!existsSync(cwd)) throw new ToolError(`folder ${showPath(context.workdir, cwd)} does not exist`);
      if (input.background && !context.jobs) throw new ToolError("this session cannot keep a command running after its call; run it without background");
      return runCommand(processes.shell(), input, cwd, context);
    },
  };
}

type Ending = { kind: "exit"; code: number | null; signal: NodeJS.Signals | null } | { kind: "timeout" } | { kind: "aborted" } | { kind: "background" };

/** The shell's first line: the file-size limit for what the command writes (bash counts KiB, POSIX shells 512-byte blocks). */
function fileLimitLine(shell: string, bytes: number): string {
  const block = basename(shell) === "bash" ? 1024 : 512;
  return `ulimit -f ${Math.max(1, Math.floor(bytes / block))} 2>/dev/null\n`;
}

async function runCommand(shell: string, input: BashInput, cwd: string, context: ToolContext): Promise<ToolResult> {
  if (context.signal.aborted) throw new ToolError("aborted before the command started");
  const { sandbox } = context;
  const timeoutMs = (input.timeout_seconds ?? DEFAULT_BASH_TIMEOUT_SECONDS) * 1000;
  const output = new OutputCollector(context.spill, `bash-${context.callId}.txt`, { callBytes: sandbox?.limits.outputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, budget: sandbox?.spill ?? null });
  const env = { ...context.env, GIT_TERMINAL_PROMPT: "0", PAGER: "cat", GIT_PAGER: "cat" };
  // One stream for both outputs, as in a terminal: the model sees errors where they happened.
  const script = `${fileLimitLine(shell, sandbox?.limits.fileBytes ?? DEFAULT_MAX_FILE_BYTES)}exec 2>&1\n${input.command}`;
  const launch = launchCommand([shell, "-c", script], cwd, env, sandbox, context.granted?.write ?? []);
  const child = spawn(launch.file, launch.args, { cwd, env: launch.env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
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
  const background = input.background === true && context.jobs !== undefined;
  const timer = background ? undefined : setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = () => stop("aborted");
  context.signal.addEventListener("abort", onAbort, { once: true });

  const exited = new Promise<Ending>((resolve) => {
    child.once("error", (error) => {
      output.add(`failed to start ${launch.file}: ${error.message}\n`);
      resolve({ kind: "exit", code: null, signal: null });
    });
    child.once("exit", (code, signal) => {
      // What the shell left behind in its process group ends with it (only `background` may outlive its call).
      signalGroup(child.pid, "SIGKILL");
      const drained = Promise.all([closed(child.stdout), closed(child.stderr)]);
      const deadline = new Promise((done) => setTimeout(done, DRAIN_MS).unref());
      void Promise.race([drained, deadline]).then(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve(stopReason ? { kind: stopReason } : { kind: "exit", code, signal });
      });
    });
  });
  const ending = background ? await Promise.race([exited, delay(BACKGROUND_WAIT_MS).then((): Ending => ({ kind: "background" }))]) : await exited;
  clearTimeout(timer);
  clearTimeout(killTimer);
  context.signal.removeEventListener("abort", onAbort);
  if (ending.kind === "background") return keepRunning(child.pid!, input, output, exited, context.jobs!);
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
  const failed = ending.kind !== "exit" || ending.code !== 0;
  const note = sandboxNote(text, sandbox, failed, ending.kind === "exit" ? ending.signal : null);
  const summary = ending.kind === "exit" ? (ending.signal ? `killed by ${ending.signal}` : `exit ${ending.code}`) : ending.kind === "timeout" ? "timed out" : "cancelled";
  return {
    output: `${text}${text && !text.endsWith("\n") ? "\n" : ""}${status}${note ? `\n${note}` : ""}`,
    isError: ending.kind !== "exit",
    summary: output.spillPath ? `${summary}, output saved to ${output.spillPath}` : summary,
    ...(output.spillPath ? { spillFile: output.spillPath } : {}),
    outputTail: output.lastLines(BASH_TAIL_LINES),
  };
}

/**
 * A background command still running when its call returns: the model gets what it printed so
 * far, the rest keeps going to a spill file, and the run's jobs end it when the run ends.
 */
async function keepRunning(pid: number, input: BashInput, output: OutputCollector, exited: Promise<Ending>, jobs: BackgroundJobs): Promise<ToolResult> {
  const soFar = output.snapshot();
  const file = output.keepSaving();
  jobs.add({ pid, description: input.command.slice(0, 80), onStopped: () => void output.finish() });
  void exited.then(() => jobs.ended(pid));
  const where = file ? `its output goes on in ${file}` : "its further output could not be saved";
  return {
    output: `${soFar}${soFar && !soFar.endsWith("\n") ? "\n" : ""}[still running in the background (process group ${pid}); ${where}; it is stopped when this run ends]`,
    summary: "running in the background",
    ...(file ? { spillFile: file } : {}),
    outputTail: output.lastLines(BASH_TAIL_LINES),
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function closed(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    if ((stream as { closed?: boolean }).closed) return resolve();
    stream.once("close", () => resolve());
  });
}

/** How a command ended; output is capped, as only a short, redacted part of it is ever shown. */
export interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the command could not start (e.g. `ENOENT`). */
  startError?: string;
}

export interface RunOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  timeoutMs: number;
}

export type CommandRunner = (command: string, args: string[], options: RunOptions) => Promise<CommandResult>;

const MAX_CAPTURE = 64 * 1024;

/**
 * Runs an agent's own command (only ever `codex logout`, from a disconnect the user confirmed):
 * no stdin, output captured and capped, killed at the timeout.
 */
export const runCommand: CommandRunner = async (command, args, options) => {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const child = spawn(command, args, { env: options.env as NodeJS.ProcessEnv, cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const capture = (chunk: Buffer, text: string) => (text.length < MAX_CAPTURE ? text + chunk.toString("utf8") : text);
    child.stdout.on("data", (chunk: Buffer) => (stdout = capture(chunk, stdout)));
    child.stderr.on("data", (chunk: Buffer) => (stderr = capture(chunk, stderr)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ exitCode: null, stdout, stderr, timedOut, startError: error.code ?? "error" });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout, stderr, timedOut });
    });
  });
};

import { spawn } from "node:child_process";
import type { Env } from "../kernel/paths.js";

/** How one run of an agent's CLI ended; the output is kept only for the probe's parser. */
export interface ProbeRun {
  /** `exit`: it ended by itself; `stopped`: the probe had what it needed and ended it; the rest are failures. */
  outcome: "exit" | "stopped" | "timeout" | "too-much-output" | "not-started";
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why it could not start (an errno code), for `not-started`. */
  startError?: string;
  ms: number;
}

export interface ProbeRunOptions {
  bin: string;
  args: readonly string[];
  env: Env;
  cwd: string;
  timeoutMs: number;
  /** Bytes kept per stream; more ends the run (a CLI printing without end is not read forever). */
  maxOutputBytes?: number;
  /** Lines written to the CLI's stdin (a JSON-RPC client); without them stdin is /dev/null. */
  session?: (stdout: string, write: (line: string) => void) => void;
  /** Ends the run early (its whole process group) once the output holds what the probe needs. */
  doneWhen?: (stdout: string) => boolean;
  /**
   * Called with the output so far each time more arrives, and with a way to end the run: for a
   * probe that gets its answer elsewhere (a local server the CLI started) and then stops it.
   */
  watch?: (stdout: string, stop: () => void) => void;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/**
 * Runs an agent's CLI for a probe: in its own process group (killed whole at the timeout, with
 * whatever it started), stdin from /dev/null unless the probe talks to it, each stream bounded.
 * Never throws: every way a run can go wrong is an outcome the report can name.
 */
export function runProbe(options: ProbeRunOptions): Promise<ProbeRun> {
  const started = Date.now();
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.bin, [...options.args], {
        env: options.env as NodeJS.ProcessEnv,
        cwd: options.cwd,
        stdio: [options.session ? "pipe" : "ignore", "pipe", "pipe"],
        detached: true,
      });
    } catch (error) {
      resolve({ outcome: "not-started", code: null, signal: null, stdout: "", stderr: "", startError: (error as NodeJS.ErrnoException).code ?? "error", ms: 0 });
      return;
    }
    const out = { stdout: "", stderr: "", bytes: 0 };
    let outcome: ProbeRun["outcome"] | null = null;
    let startError: string | undefined;
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      // Whatever the CLI left running in its group goes with it.
      killGroup(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ outcome: outcome ?? "exit", code, signal, stdout: out.stdout, stderr: out.stderr, ...(startError ? { startError } : {}), ms: Date.now() - started });
    };
    let grace: NodeJS.Timeout | undefined;
    const end = (why: ProbeRun["outcome"]) => {
      if (outcome === null) outcome = why;
      killGroup(child.pid);
      // A process that left the group may still hold the pipes open: stop waiting for them soon.
      grace ??= setTimeout(() => finish(null, "SIGKILL"), 1_000);
    };
    const timer = setTimeout(() => end("timeout"), options.timeoutMs);
    // Once the run is over there is nothing left to stop (and no grace timer to start).
    const stop = () => {
      if (!settled) end("stopped");
    };
    const write = (line: string) => {
      if (child.stdin?.writable) child.stdin.write(line.endsWith("\n") ? line : `${line}\n`);
    };
    child.stdin?.on("error", () => undefined);
    const take = (stream: "stdout" | "stderr") => (chunk: string) => {
      if (outcome !== null) return;
      out.bytes += Buffer.byteLength(chunk);
      if (out.bytes > max * 2 || out[stream].length + chunk.length > max) return end("too-much-output");
      out[stream] += chunk;
      if (stream !== "stdout") return;
      options.session?.(out.stdout, write);
      options.watch?.(out.stdout, stop);
      if (options.doneWhen?.(out.stdout)) end("stopped");
    };
    child.stdout!.setEncoding("utf8").on("data", take("stdout"));
    child.stderr!.setEncoding("utf8").on("data", take("stderr"));
    if (options.session) options.session("", write);
    child.on("error", (error: NodeJS.ErrnoException) => {
      startError = error.code ?? "error";
      if (outcome === null) outcome = "not-started";
    });
    child.on("close", finish);
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** A run that failed as a run (not what it printed), in words for the report; null when it ran. */
export function runFailure(run: ProbeRun, timeoutMs: number): string | null {
  switch (run.outcome) {
    case "timeout":
      return `did not answer within ${Math.round(timeoutMs / 100) / 10} s (stopped)`;
    case "too-much-output":
      return "printed far more than expected (stopped)";
    case "not-started":
      return `could not be started (${run.startError ?? "error"})`;
    default:
      return null;
  }
}

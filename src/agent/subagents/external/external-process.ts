import { spawn, type ChildProcess } from "node:child_process";

/** A command to start: its program, arguments, environment and folder. */
export interface ExternalCommand {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
}

/** How the process ended: its exit code or signal, or why it could not start. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the program could not be started (not found, not executable). */
  spawnError?: string;
  /** The last lines it wrote to stderr (at most `STDERR_LINES`). */
  stderrTail: string[];
}

/** The longest stdout line kept: a longer one is cut and reported as unreadable, never buffered without end. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
const STDERR_LINES = 20;
/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3000;

/**
 * An agent CLI run headless: started in a process group of its own, stdin closed, its stdout
 * handed over a line at a time, its stderr's last lines kept. `stop()` ends the whole group
 * (SIGTERM, then SIGKILL after `KILL_GRACE_MS`), so the tools the CLI started end with it.
 */
export class ExternalProcess {
  readonly ended: Promise<ProcessEnd>;
  private readonly child: ChildProcess;
  private killTimer: NodeJS.Timeout | null = null;
  private exited = false;

  constructor(command: ExternalCommand, onLine: (line: string) => void) {
    const stderrTail: string[] = [];
    this.child = spawn(command.file, command.args, { cwd: command.cwd, env: command.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        onLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
      if (pending.length > MAX_LINE_CHARS) {
        onLine(pending.slice(0, 200));
        pending = "";
      }
    });
    let errPending = "";
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (chunk: string) => {
      errPending += chunk;
      const lines = errPending.split("\n");
      errPending = lines.pop() ?? "";
      for (const line of lines) keepTail(stderrTail, line);
      if (errPending.length > 64 * 1024) errPending = errPending.slice(-4096);
    });
    // Whatever the CLI left running in its group (a command, a server) ends with it, and lets go of the pipes.
    this.child.once("exit", () => {
      if (this.child.pid !== undefined) signalGroup(-this.child.pid, "SIGKILL");
    });
    this.ended = new Promise((resolve) => {
      this.child.once("error", (error) => {
        this.exited = true;
        this.clearKill();
        resolve({ code: null, signal: null, spawnError: error.message, stderrTail });
      });
      this.child.once("close", (code, signal) => {
        this.exited = true;
        this.clearKill();
        if (pending.trim() !== "") onLine(pending);
        if (errPending.trim() !== "") keepTail(stderrTail, errPending);
        resolve({ code, signal, stderrTail });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Ends the process group: SIGTERM now, SIGKILL if it is still there after the grace time. */
  stop(): void {
    if (this.exited || this.killTimer || this.child.pid === undefined) return;
    const group = -this.child.pid;
    signalGroup(group, "SIGTERM");
    this.killTimer = setTimeout(() => signalGroup(group, "SIGKILL"), KILL_GRACE_MS);
    this.killTimer.unref();
  }

  private clearKill(): void {
    if (this.killTimer) clearTimeout(this.killTimer);
    this.killTimer = null;
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch {
    // The group is gone already.
  }
}

function keepTail(tail: string[], line: string): void {
  if (line.trim() === "") return;
  tail.push(line.length > 500 ? `${line.slice(0, 499)}…` : line);
  if (tail.length > STDERR_LINES) tail.shift();
}

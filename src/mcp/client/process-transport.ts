import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { visibleLine } from "../../kernel/terminal-text.js";

/** How bosun starts a server that speaks MCP on its stdin and stdout. */
export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Told the process id as soon as the process exists (its owner stops the group when bosun exits). */
  onSpawned?(pid: number): void;
}

/** How the process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One message (one line) larger than this is not a message a tool should send: the server is stopped. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How much of the end of the server's stderr is kept for the error line. */
const STDERR_KEPT_BYTES = 8 * 1024;
/** How long an exit waits for the rest of the server's stderr. */
const STDERR_GRACE_MS = 200;
/** Lines that are not JSON-RPC (a banner, log lines on the wrong stream) a server may write before it counts as not speaking MCP. */
const MAX_STRAY_LINES = 100;
/** After stdin is closed, how long the server has to leave on its own before its process group gets SIGTERM, then SIGKILL. */
const LEAVE_MS = 200;
const TERM_GRACE_MS = 1_500;

/**
 * MCP over a child process's stdio, as the SDK's stdio transport speaks it (one JSON-RPC message
 * a line), with what bosun needs around it: the process runs in a process group of its own (and
 * its own session, away from the terminal), so stopping it ends everything it started (`npx`
 * and the server below it); its stderr is kept, bounded, for the line that says why it failed;
 * lines on stdout that are not JSON-RPC are kept as a sample and, past a limit, make the server
 * fail (it does not speak MCP); a message over MAX_MESSAGE_BYTES stops it.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private stderrTail = "";
  private stray: string[] = [];
  private strayCount = 0;
  private exited: ProcessExit | null = null;
  private stopping: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  /** Set when bosun stopped the server for what it sent (too much garbage, a message too large). */
  private refusal: string | null = null;

  constructor(private readonly spec: ProcessSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | null {
    return this.exited;
  }

  /** Why bosun stopped the server for what it wrote on stdout, or null. */
  get refused(): string | null {
    return this.refusal;
  }

  /** The last non-empty line of its stderr, as plain text (no colours), at most 300 characters. */
  lastStderrLine(): string | null {
    const lines = this.stderrTail.split(/\r?\n/).map((line) => visibleLine(line).trim()).filter(Boolean);
    const last = lines.at(-1);
    return last === undefined ? null : last.length > 300 ? `${last.slice(0, 299)}…` : last;
  }

  /** The first line it wrote on stdout that is not JSON-RPC, at most 120 characters, or null. */
  firstStrayLine(): string | null {
    const first = this.stray[0];
    if (first === undefined) return null;
    const line = visibleLine(first).trim();
    return line.length > 120 ? `${line.slice(0, 119)}…` : line;
  }

  /**
   * Starts the process; resolves once it runs (a command that cannot be started rejects). Called
   * again (the SDK's client calls it when it connects, after the pool started the process early),
   * it gives the same promise.
   */
  start(): Promise<void> {
    this.starting ??= this.spawn();
    return this.starting;
  }

  private spawn(): Promise<void> {
    const child = spawn(this.spec.command, this.spec.args, { cwd: this.spec.cwd, env: this.spec.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    this.child = child;
    if (child.pid !== undefined) this.spec.onSpawned?.(child.pid);
    child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_KEPT_BYTES);
    });
    // A server that leaves while bosun writes to it: the exit says why, not EPIPE.
    child.stdin.on("error", () => undefined);
    // What it said last on stderr may still be in the pipe when it exits: the close waits for the
    // end of its stderr, but not for long (a process it left behind may hold the pipe open).
    let stderrEnded = false;
    child.stderr.once("end", () => (stderrEnded = true));
    child.on("exit", (code, signal) => {
      this.exited = { code, signal };
      if (stderrEnded) return this.onclose?.();
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        this.onclose?.();
      };
      const timer = setTimeout(close, STDERR_GRACE_MS);
      child.stderr.once("end", close);
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => {
        this.exited ??= { code: null, signal: null };
        reject(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.exited || this.stopping) return Promise.reject(new Error("the server's process is not running"));
    return new Promise((resolve) => {
      if (child.stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else child.stdin.once("drain", () => resolve());
    });
  }

  /**
   * Stops the server: stdin closed (a server leaves when its input ends), then SIGTERM to its
   * process group, then SIGKILL to whatever of the group is left; resolves once the group is
   * gone. Safe to call more than once.
   */
  close(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  /**
   * Stops a server that never finished its start, at once: SIGKILL to its process group (it has
   * nothing to save: it never answered `initialize`). Resolves once it has exited.
   */
  kill(): Promise<void> {
    this.stopping ??= (async () => {
      const child = this.child;
      if (!child?.pid) return;
      signalGroup(child.pid, "SIGKILL");
      if (!this.exited) await this.exitWithin(TERM_GRACE_MS);
      child.stdout.destroy();
      child.stderr.destroy();
    })();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const pid = child.pid;
    child.stdin.end();
    if (!this.exited) await this.exitWithin(LEAVE_MS);
    if (groupAlive(pid)) {
      signalGroup(pid, "SIGTERM");
      const until = Date.now() + TERM_GRACE_MS;
      while (groupAlive(pid) && Date.now() < until) await sleep(20);
      signalGroup(pid, "SIGKILL");
    }
    if (!this.exited) await this.exitWithin(TERM_GRACE_MS);
    child.stdout.destroy();
    child.stderr.destroy();
  }

  private exitWithin(ms: number): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Splits stdout into lines; each is a JSON-RPC message or stray text. */
  private read(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.pending).toString("utf8");
      this.pending.length = 0;
      this.pendingBytes = 0;
      this.line(line.replace(/\r$/, ""));
      start = newline + 1;
      if (this.refusal) return;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_MESSAGE_BYTES) this.refuse(`it sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`);
    }
  }

  private line(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage | null = null;
    try {
      message = jsonRpcMessage(JSON.parse(line));
    } catch {
      // not JSON: below
    }
    if (!message) {
      this.strayCount++;
      if (this.stray.length < 3) this.stray.push(line.slice(0, 1_000));
      if (this.strayCount > MAX_STRAY_LINES) this.refuse(`it writes text that is not MCP on stdout ("${this.firstStrayLine()}"); a server started by a command may write only JSON-RPC messages there (logs belong on stderr)`);
      return;
    }
    this.onmessage?.(message);
  }

  /** Stops a server for what it wrote; the connection reads `refused` for the reason. */
  private refuse(reason: string): void {
    this.refusal ??= reason;
    this.pending.length = 0;
    this.pendingBytes = 0;
    this.child?.stdout.pause();
    void this.close();
  }
}

/**
 * A parsed line as a JSON-RPC message, or null: an object of JSON-RPC 2.0 with a method (a
 * request or a notification) or an id (a response). The SDK's client checks each message's
 * fields itself; this only tells MCP from what else a server writes (a log line in JSON too).
 */
function jsonRpcMessage(value: unknown): JSONRPCMessage | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (record.jsonrpc !== "2.0") return null;
  return typeof record.method === "string" || typeof record.id === "string" || typeof record.id === "number" ? (value as JSONRPCMessage) : null;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Whether any process of the group is left (signal 0 only checks). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

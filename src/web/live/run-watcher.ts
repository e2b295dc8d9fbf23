import { mkdirSync, watch, type FSWatcher } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { lineReader, parseRunMessage, type RunCommand, type RunControlState } from "../../app/run-control/protocol.js";
import { readRunRecords, type RunRecord } from "../../app/run-control/run-records.js";

/** A command without the number its reply comes back under. */
export type RunRequest = RunCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

/** A `bosun run` the dashboard is connected to, and its latest state (null until the first arrives). */
export interface WatchedRun {
  record: RunRecord;
  state: RunControlState | null;
}

/** A run did not answer a command in time, or went away before it did. */
export class RunGoneError extends Error {
  override name = "RunGoneError";
}

/** How long a command waits for the run's reply. */
const REPLY_MS = 5_000;
/** How often the runs folder is read again, in case a change was not seen. */
const SCAN_MS = 2_000;

interface Connection {
  run: WatchedRun;
  socket: Socket;
  seq: number;
  replies: Map<number, (reply: { ok: boolean; message: string }) => void>;
  /** Waiting for the next state. */
  states: (() => void)[];
}

/**
 * The running `bosun run` processes of this bosun home, as the dashboard sees them: it finds their
 * records in the runs folder (as they come and go), connects to each one's control socket, keeps
 * its latest state, tells it how many pages are open (a run without a terminal asks its questions
 * there only while one is), and passes on the page's commands. `onChange` is told whenever a run's
 * state changes, it appears, or it goes away.
 */
export class RunWatcher {
  private readonly connections = new Map<number, Connection>();
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pages = 0;
  private stopped = false;

  constructor(
    private readonly dir: string,
    private readonly onChange: (run: WatchedRun, previous: RunControlState | null, gone: boolean) => void,
  ) {}

  start(): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.watcher = watch(this.dir, { persistent: false }, () => this.scan());
      this.watcher.on("error", () => undefined);
    } catch {
      // a folder that cannot be made or watched: the interval covers it
    }
    this.timer = setInterval(() => this.scan(), SCAN_MS);
    this.timer.unref();
    this.scan();
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    for (const connection of this.connections.values()) connection.socket.destroy();
    this.connections.clear();
  }

  /** Every connected run whose state has arrived. */
  runs(): WatchedRun[] {
    return [...this.connections.values()].map((connection) => connection.run).filter((run) => run.state !== null);
  }

  /** The run working on this session now (or the one that last did, while its process lives). */
  forSession(session: string): WatchedRun | null {
    return this.runs().find((run) => run.state?.turn?.session === session) ?? null;
  }

  /** How many pages are open; every run is told. */
  setPages(count: number): void {
    if (count === this.pages) return;
    this.pages = count;
    for (const connection of this.connections.values()) this.write(connection, { type: "pages", id: 0, count });
  }

  /** Sends a command to the run of process `pid` and waits for its reply. */
  send(pid: number, request: RunRequest): Promise<{ ok: boolean; message: string }> {
    const connection = this.connections.get(pid);
    if (!connection) return Promise.reject(new RunGoneError(`bosun run ${pid} is not running any more`));
    return new Promise((resolve, reject) => {
      const id = ++connection.seq;
      const timer = setTimeout(() => {
        connection.replies.delete(id);
        reject(new RunGoneError(`bosun run ${pid} did not answer within ${REPLY_MS / 1000} s`));
      }, REPLY_MS);
      connection.replies.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.write(connection, { ...request, id } as RunCommand);
    });
  }

  /** Resolves once the next state of the run of process `pid` has arrived, or after `ms`, or when it ends. */
  nextState(pid: number, ms: number): Promise<void> {
    const connection = this.connections.get(pid);
    if (!connection) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      connection.states.push(done);
    });
  }

  private scan(): void {
    if (this.stopped) return;
    const { live } = readRunRecords(this.dir);
    for (const record of live) {
      const known = this.connections.get(record.pid);
      if (!known || known.run.record.socket !== record.socket) this.connect(record);
    }
  }

  private connect(record: RunRecord): void {
    this.connections.get(record.pid)?.socket.destroy();
    const socket = createConnection(record.socket);
    const connection: Connection = { run: { record, state: null }, socket, seq: 0, replies: new Map(), states: [] };
    this.connections.set(record.pid, connection);
    socket.setEncoding("utf8");
    this.write(connection, { type: "pages", id: 0, count: this.pages });
    socket.on(
      "data",
      lineReader(
        (line) => this.receive(connection, line),
        () => socket.destroy(),
      ),
    );
    socket.on("error", () => undefined);
    socket.on("close", () => {
      for (const reply of connection.replies.values()) reply({ ok: false, message: `bosun run ${record.pid} ended` });
      connection.replies.clear();
      for (const wake of connection.states.splice(0)) wake();
      if (this.connections.get(record.pid) !== connection) return;
      this.connections.delete(record.pid);
      if (connection.run.state) this.onChange(connection.run, connection.run.state, true);
    });
  }

  private receive(connection: Connection, line: string): void {
    const message = parseRunMessage(line);
    if (!message) return;
    if (message.type === "reply") {
      const reply = connection.replies.get(message.id);
      connection.replies.delete(message.id);
      reply?.({ ok: message.ok, message: message.message });
      return;
    }
    const previous = connection.run.state;
    connection.run = { ...connection.run, state: message.state };
    this.onChange(connection.run, previous, false);
    for (const wake of connection.states.splice(0)) wake();
  }

  private write(connection: Connection, command: RunCommand): void {
    // Written while still connecting, it goes out once connected.
    if (!connection.socket.destroyed) connection.socket.write(`${JSON.stringify(command)}\n`);
  }
}

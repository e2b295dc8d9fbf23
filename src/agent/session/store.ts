import { randomBytes } from "node:crypto";
import { closeSync, fsync, fsyncSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { UserError } from "../../kernel/errors.js";
import { tryAcquireLock, type HeldLock } from "../../kernel/fs/file-lock.js";
import { asFolderError } from "../../kernel/fs/folder-error.js";
import { ensurePrivateDirs } from "../../kernel/fs/private-dir.js";
import { readRegularFile } from "../../kernel/fs/regular-file.js";
import { Redactor } from "../../kernel/redact/secrets.js";
import { listSessionIds, SESSION_ID_PATTERN, sessionFile, summarizeSessionFile, type SessionSummary } from "./list.js";
import {
  applySessionEvent,
  emptySessionState,
  parseSessionFile,
  replaySession,
  SESSION_FORMAT_VERSION,
  type NewSessionEvent,
  type ParsedSession,
  type SessionEvent,
  type SessionHeader,
  type SessionState,
} from "./format.js";
import { createSpillStore } from "./spill-store.js";
import type { SpillStore } from "../tools/tool.js";

/** A session file larger than this is refused rather than read into memory. */
const MAX_SESSION_BYTES = 256 * 1024 * 1024;

export class UnknownSessionError extends UserError {
  override name = "UnknownSessionError";
  constructor(
    readonly id: string,
    readonly candidates: string[] = [],
  ) {
    super(
      candidates.length > 1
        ? `session id ${JSON.stringify(id)} is ambiguous (${candidates.slice(0, 5).join(", ")}${candidates.length > 5 ? ", …" : ""}); give more of it`
        : `no session ${JSON.stringify(id)}; bosun sessions lists them`,
    );
  }
}

export class SessionBusyError extends UserError {
  override name = "SessionBusyError";
  constructor(
    readonly id: string,
    readonly holderPid: number | null,
  ) {
    super(`session ${id} is in use by another bosun${holderPid ? ` (process ${holderPid})` : ""}; wait for it to finish`);
  }
}

/** What one session line sink does: append a line, make appended lines durable, let go. */
interface SessionSink {
  write(line: string): void;
  sync(): void;
  close(): void;
}

/**
 * One conversation: its header, the state its events add up to, and where new events go. Every
 * event is redacted before it is applied or written, so neither the model nor the file ever holds
 * a known secret.
 */
export class Session {
  constructor(
    readonly header: SessionHeader,
    readonly state: SessionState,
    readonly spill: SpillStore,
    private readonly sink: SessionSink | null,
    private readonly redactor: Redactor,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get id(): string {
    return this.header.id;
  }

  get messages(): SessionState["messages"] {
    return this.state.messages;
  }

  /** Adds an event: redacted, timestamped, applied to the state and appended to the file. */
  append(event: NewSessionEvent): SessionEvent {
    const stamped = this.redactor.deep({ ...event, at: this.now().toISOString() } as SessionEvent);
    applySessionEvent(this.state, stamped);
    this.sink?.write(JSON.stringify(stamped) + "\n");
    return stamped;
  }

  /** Makes everything appended so far durable (called at the end of each turn). */
  sync(): void {
    this.sink?.sync();
  }

  close(): void {
    this.sink?.close();
  }
}

export type { SessionSummary };

export interface NewSession {
  workdir: string;
  model: SessionHeader["model"];
  bosunVersion: string;
}

/** Where sessions live: files in the data folder, or memory (sub-agents, tests). */
export interface SessionStore {
  create(details: NewSession): Session;
  /** Opens a session to continue it (exact id or a unique prefix). */
  open(id: string): Session;
  list(): SessionSummary[];
}


/** The first line of a new session. */
export function newSessionHeader(details: NewSession, now: Date): SessionHeader {
  return {
    type: "header",
    version: SESSION_FORMAT_VERSION,
    id: newSessionId(now),
    createdAt: now.toISOString(),
    workdir: details.workdir,
    model: details.model,
    bosun: details.bosunVersion,
  };
}

export function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/**
 * Sessions as JSONL files: `<dir>/<id>.jsonl`, with spilled outputs in `<dir>/<id>/`. Appends are
 * plain writes (one line each) and an fsync at each turn end; a process holds `<id>.lock` while it
 * appends, so two runs never interleave lines in one file.
 */
export class FileSessionStore implements SessionStore {
  constructor(
    readonly dir: string,
    private readonly redactor: Redactor = new Redactor([]),
    private readonly now: () => Date = () => new Date(),
  ) {}

  create(details: NewSession): Session {
    // The sessions folder lives in bosun's data folder: both are private.
    ensurePrivateDirs(dirname(this.dir), basename(this.dir));
    const header = newSessionHeader(details, this.now());
    const id = header.id;
    const lock = this.lock(id);
    let fd: number | undefined;
    try {
      fd = openSync(this.file(id), "wx", 0o600);
      const sink = fileSink(fd, lock, this.dir);
      sink.write(JSON.stringify(this.redactor.deep(header)) + "\n");
      sink.sync();
      return new Session(header, emptySessionState(), this.spillFor(id), sink, this.redactor, this.now);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      lock.release();
      throw asFolderError(error, this.dir);
    }
  }

  open(idOrPrefix: string): Session {
    const id = this.resolveId(idOrPrefix);
    const lock = this.lock(id);
    try {
      const file = this.file(id);
      const bytes = readRegularFile(file, MAX_SESSION_BYTES);
      const parsed = parseSessionFile(file, bytes.toString("utf8"));
      const fd = openSync(file, "r+");
      // A torn last line is dropped before anything is appended after it.
      ftruncateSync(fd, parsed.validBytes);
      if (parsed.validBytes > 0 && bytes[parsed.validBytes - 1] !== 0x0a) writeSync(fd, "\n", parsed.validBytes);
      closeSync(fd);
      const appendFd = openSync(file, "a");
      return new Session(parsed.header, replaySession(parsed.events), this.spillFor(id), fileSink(appendFd, lock, this.dir), this.redactor, this.now);
    } catch (error) {
      lock.release();
      throw asFolderError(error, this.dir);
    }
  }

  /** Reads a session without opening it for writing (for `bosun sessions show`). */
  read(idOrPrefix: string): ParsedSession & { file: string } {
    const id = this.resolveId(idOrPrefix);
    const file = this.file(id);
    return { ...parseSessionFile(file, readRegularFile(file, MAX_SESSION_BYTES).toString("utf8")), file };
  }

  list(redact?: (text: string) => string): SessionSummary[] {
    const summaries: SessionSummary[] = [];
    for (const id of this.ids()) {
      const summary = summarizeSessionFile(this.file(id), redact);
      if (summary) summaries.push(summary);
    }
    return summaries.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
  }

  /** Session ids on disk, unsorted; cheap (one readdir). */
  ids(): string[] {
    return listSessionIds(this.dir);
  }

  resolveId(idOrPrefix: string): string {
    if (!SESSION_ID_PATTERN.test(idOrPrefix)) throw new UnknownSessionError(idOrPrefix);
    const ids = this.ids();
    if (ids.includes(idOrPrefix)) return idOrPrefix;
    const matches = ids.filter((id) => id.startsWith(idOrPrefix)).sort();
    if (matches.length === 1) return matches[0]!;
    throw new UnknownSessionError(idOrPrefix, matches);
  }

  file(id: string): string {
    return sessionFile(this.dir, id);
  }

  private spillFor(id: string): SpillStore {
    return createSpillStore(join(this.dir, id), this.redactor);
  }

  private lock(id: string): HeldLock {
    let attempt: ReturnType<typeof tryAcquireLock>;
    try {
      attempt = tryAcquireLock(join(this.dir, `${id}.lock`));
    } catch (error) {
      throw asFolderError(error, this.dir);
    }
    if ("lock" in attempt) return attempt.lock;
    throw new SessionBusyError(id, attempt.holder?.pid ?? null);
  }
}

/** Sessions that live only as long as the process: sub-agents and tests. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly redactor: Redactor = new Redactor([]),
    /** Where spilled outputs go; a fresh temp folder per session by default. */
    private readonly spillDir?: (id: string) => string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  create(details: NewSession): Session {
    const header = newSessionHeader(details, this.now());
    const id = header.id;
    const dir = this.spillDir ? this.spillDir(id) : join(tmpdir(), `bosun-spill-${id}`);
    const session = new Session(header, emptySessionState(), createSpillStore(dir, this.redactor), null, this.redactor, this.now);
    this.sessions.set(id, session);
    return session;
  }

  open(id: string): Session {
    const session = this.sessions.get(id);
    if (!session) throw new UnknownSessionError(id);
    return session;
  }

  list(): SessionSummary[] {
    return [...this.sessions.values()].map((session) => ({
      id: session.id,
      file: null,
      createdAt: session.header.createdAt,
      updatedAt: session.header.createdAt,
      model: session.header.model,
      workdir: session.header.workdir,
      title: "",
      bytes: 0,
    }));
  }
}

/**
 * Appends lines to a session file. Each line is one synchronous write (a crash leaves at most a
 * torn last line). The fsync at a turn's end runs in the background, overlapping the next model
 * call instead of delaying it; closing waits for it and makes the tail durable. An fsync error
 * surfaces at the next `sync` or `close`.
 */
function fileSink(fd: number, lock: HeldLock, dir: string): SessionSink {
  let open = true;
  let closed = false;
  let unsynced = false;
  let inFlight = 0;
  let failure: NodeJS.ErrnoException | null = null;
  const rethrow = () => {
    if (!failure) return;
    const error = failure;
    failure = null;
    throw asFolderError(error, dir);
  };
  const finish = () => {
    if (closed || inFlight > 0) return;
    closed = true;
    try {
      if (unsynced) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  return {
    write(line) {
      if (!open) return;
      try {
        writeSync(fd, line);
      } catch (error) {
        throw asFolderError(error, dir);
      }
      unsynced = true;
    },
    sync() {
      rethrow();
      if (!open || !unsynced) return;
      unsynced = false;
      inFlight++;
      fsync(fd, (error) => {
        inFlight--;
        if (error) failure ??= error;
        if (!open) finish();
      });
    },
    close() {
      if (!open) return;
      open = false;
      lock.release();
      finish();
      rethrow();
    },
  };
}

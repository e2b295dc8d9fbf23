import { closeSync, fsyncSync, linkSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { UserError } from "../errors.js";
import { nonRegularKind, NotRegularFileError, readRegularFile } from "./regular-file.js";
import { isMissingPathError } from "./stat.js";

/** What a lock file says about its holder. */
export interface LockHolder {
  pid: number;
  host: string;
  acquiredAt: string;
}

/** The lock is held by a live process and did not come free in time. */
export class LockHeldError extends UserError {
  override name = "LockHeldError";
  constructor(
    readonly file: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      holder
        ? `${file} is held by process ${holder.pid} on ${holder.host} since ${holder.acquiredAt}; wait for it to finish, or delete the file if that process is gone`
        : `${file} is held by another process; wait for it to finish, or delete the file if no bosun is running`,
    );
  }

  /** The holder's process id (null when the lock file says nothing readable). */
  get pid(): number | null {
    return this.holder?.pid ?? null;
  }

  /** When the holder took the lock (ISO time), or null. */
  get since(): string | null {
    return this.holder?.acquiredAt ?? null;
  }
}

export interface LockOptions {
  /** How long to wait for a held lock, in ms (default 30 s). */
  timeoutMs?: number;
  /** An empty or unreadable lock older than this is taken to be left by a crash (default 5 s). */
  garbledAfterMs?: number;
  /** Answers whether a pid is alive on this host (injectable for tests). */
  isAlive?: (pid: number) => boolean;
  now?: () => number;
}

/** A held lock; `release` removes the file only if it is still this process's lock. */
export interface HeldLock {
  file: string;
  holder: LockHolder;
  release(): void;
}

const POLL_MS = 50;
const MAX_LOCK_BYTES = 4096;

/**
 * Takes an exclusive lock file (created with O_EXCL, holding `{pid, host, acquiredAt}`),
 * synchronously, waiting up to the timeout. A lock whose pid is dead on this host, or that is
 * empty or garbled and older than a few seconds, is reclaimed.
 */
export function acquireLockSync(file: string, options: LockOptions = {}): HeldLock {
  const deadline = (options.now ?? Date.now)() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const attempt = tryAcquireLock(file, options);
    if ("lock" in attempt) return attempt.lock;
    if ((options.now ?? Date.now)() >= deadline) throw new LockHeldError(file, attempt.holder);
    sleepSync(POLL_MS);
  }
}

/** The same, waiting without blocking the event loop. */
export async function acquireLock(file: string, options: LockOptions = {}): Promise<HeldLock> {
  const deadline = (options.now ?? Date.now)() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const attempt = tryAcquireLock(file, options);
    if ("lock" in attempt) return attempt.lock;
    if ((options.now ?? Date.now)() >= deadline) throw new LockHeldError(file, attempt.holder);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** One attempt: the lock, or who holds it (null when the file says nothing readable). */
export function tryAcquireLock(file: string, options: LockOptions = {}): { lock: HeldLock } | { holder: LockHolder | null } {
  const holder: LockHolder = { pid: process.pid, host: hostname(), acquiredAt: new Date((options.now ?? Date.now)()).toISOString() };
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const current = inspectLock(file);
    if (current === "gone") return tryAcquireLock(file, options);
    if (isStale(current, options)) {
      reclaim(file, current.ino);
      return tryAcquireLock(file, options);
    }
    return { holder: current.holder };
  }
  try {
    writeSync(fd, JSON.stringify(holder) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { lock: { file, holder, release: () => releaseLock(file, holder) } };
}

interface LockState {
  holder: LockHolder | null;
  ino: number;
  ageMs: number;
}

// A lock is always a small regular file: anything else at its path (a FIFO, whose read would
// block forever, a folder, a symlink) is not a lock anyone holds, and is reported.
function inspectLock(file: string): LockState | "gone" {
  try {
    const info = lstatSync(file);
    if (!info.isFile()) throw new NotRegularFileError(file, nonRegularKind(info));
    let holder: LockHolder | null = null;
    try {
      holder = parseHolder(readLockText(file));
    } catch {
      holder = null;
    }
    return { holder, ino: info.ino, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if (isMissingPathError(error)) return "gone";
    throw error;
  }
}

function isStale(state: LockState, options: LockOptions): boolean {
  if (!state.holder) return state.ageMs > (options.garbledAfterMs ?? 5_000);
  if (state.holder.host !== hostname()) return false;
  return !(options.isAlive ?? isProcessAlive)(state.holder.pid);
}

// Two processes may judge the same stale lock at once. Each moves it aside under a private name
// and checks it moved the file it judged (same inode); if it took a fresh lock instead, it puts
// that lock back.
function reclaim(file: string, judgedIno: number): void {
  const aside = `${file}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (isMissingPathError(error)) return;
    throw error;
  }
  if (statSync(aside).ino !== judgedIno) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone else holds a new lock by now; the moved-aside one was theirs and is lost.
    }
  }
  unlinkSync(aside);
}

function releaseLock(file: string, holder: LockHolder): void {
  let current: LockHolder | null;
  try {
    current = parseHolder(readLockText(file));
  } catch (error) {
    if (isMissingPathError(error)) throw new Error(`lock ${file} was removed by someone else before release`);
    throw error;
  }
  if (!current || current.pid !== holder.pid || current.acquiredAt !== holder.acquiredAt || current.host !== holder.host) {
    throw new Error(`lock ${file} was taken over by another process before release`);
  }
  unlinkSync(file);
}

function readLockText(file: string): string {
  return readRegularFile(file, MAX_LOCK_BYTES).toString("utf8");
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.acquiredAt === "string") {
      return { pid: value.pid, host: value.host, acquiredAt: value.acquiredAt };
    }
  } catch {
    // garbled: handled by the caller as "no readable holder"
  }
  return null;
}

/** Whether a process is alive: signal 0 checks without sending anything; EPERM means it exists but is someone else's. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { saveCacheFile } from "../../kernel/fs/cache-file.js";
import { ensurePrivateDirs } from "../../kernel/fs/private-dir.js";
import type { BosunPaths } from "../../kernel/paths.js";

/** Where running `bosun run` processes say how to reach them: `<state>/runs/<pid>.json`. */
export function runsDir(paths: Pick<BosunPaths, "state">): string {
  return join(paths.state, "runs");
}

/** What a running `bosun run` writes about itself for the dashboard. */
export interface RunRecord {
  pid: number;
  /** The unix socket of its control channel. */
  socket: string;
  startedAt: number;
  bosun: string;
}

/** A unix socket's path must fit in `sun_path` (108 bytes on Linux, 104 on macOS, with its NUL). */
const MAX_SOCKET_PATH = 100;

/**
 * Where this process's control socket goes: beside its record (in the private runs folder), or,
 * when that path is too long for a socket, in a private (0700) folder of its own under the
 * system's temp folder; `cleanup` removes what was made for it.
 */
export function socketPlace(dir: string, pid: number): { socket: string; cleanup(): void } {
  // The state folder above it is bosun's own too: private, never left to the umask.
  ensurePrivateDirs(dirname(dir), basename(dir));
  const beside = join(dir, `${pid}.sock`);
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) return { socket: beside, cleanup: () => rmSync(beside, { force: true }) };
  const own = mkdtempSync(join(tmpdir(), "bosun-run-"));
  return { socket: join(own, "control.sock"), cleanup: () => rmSync(own, { recursive: true, force: true }) };
}

export function writeRunRecord(dir: string, record: RunRecord): string {
  const file = join(dir, `${record.pid}.json`);
  saveCacheFile(file, `${JSON.stringify(record)}\n`);
  return file;
}

/**
 * The records of the runs that are alive, and the files of those that are not (a run killed
 * before it could remove its record): the dashboard connects to the first and leaves the rest
 * alone; `bosun run` removes the stale ones when it starts.
 */
export function readRunRecords(dir: string): { live: RunRecord[]; stale: string[] } {
  const live: RunRecord[] = [];
  const stale: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { live, stale };
  }
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    const file = join(dir, name);
    const record = readRecord(file);
    if (record && alive(record.pid)) live.push(record);
    else stale.push(file);
  }
  return { live, stale };
}

/** Removes the records (and sockets beside them) of runs that are gone. */
export function removeStaleRuns(dir: string): void {
  for (const file of readRunRecords(dir).stale) {
    rmSync(file, { force: true });
    rmSync(file.replace(/\.json$/, ".sock"), { force: true });
  }
}

function readRecord(file: string): RunRecord | null {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<RunRecord>;
    if (typeof value.pid !== "number" || typeof value.socket !== "string" || typeof value.startedAt !== "number") return null;
    return { pid: value.pid, socket: value.socket, startedAt: value.startedAt, bosun: String(value.bosun ?? "") };
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

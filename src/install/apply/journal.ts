import { hostname } from "node:os";
import { join } from "node:path";
import { NotRegularFileError } from "../../kernel/fs/regular-file.js";
import { InstallFileError } from "../install-errors.js";
import { errorCode, readFileText, tryUnlink, type InstallFs } from "./install-fs.js";
import { isRecord } from "../records/manifest.js";
import { JOURNAL_DIR, statePath, stateRel, type InstallRoot } from "../records/root.js";
import { normalizeRelPath } from "../plan/safe-path.js";

/**
 * One line of a run's journal: an undo record written before the change it describes.
 * `mkdir`/`create`: the path did not exist (undo: remove it); `intent`: the same for many new
 * folders and files at once, declared before any of them is made (undo: remove those that
 * exist, files first, folders deepest first, only when empty); `stash`: the original was moved,
 * hard-linked or copied to stash slot `n` (undo: put it back); `move`: a managed file moved
 * (undo: move it back); `rmdir`: an empty folder was removed (undo: recreate it with its mode);
 * `commit`: the run is complete and is never undone; `rolled-back`: the changes recorded above
 * it were undone (a damaged journal's, kept for you to look at) and are never undone again.
 */
export type JournalRecord =
  | { op: "begin"; runId: string; startedAt: string; pid: number; host: string; runtime: string; scope: string; pack: string; bosunVersion: string }
  | { op: "mkdir"; path: string }
  | { op: "intent"; dirs: string[]; files: string[] }
  | { op: "create"; path: string }
  | { op: "stash"; path: string; n: number; how: "rename" | "link" | "copy" }
  | { op: "move"; from: string; to: string }
  | { op: "rmdir"; path: string; mode: number }
  | { op: "commit"; at: string }
  | { op: "rolled-back"; at: string };

/** `2026-11-30T12-00-00-000Z-<8 random hex>`: sorts by time, unique even within one millisecond. */
export function newRunId(now: Date, random: () => string): string {
  return `${now.toISOString().replace(/[:.]/g, "-")}-${random()}`;
}

export function journalDir(root: InstallRoot): string {
  return statePath(root, JOURNAL_DIR);
}

export function journalRel(root: InstallRoot, runId: string): string {
  return `${stateRel(root, JOURNAL_DIR)}/${runId}.jsonl`;
}

/** The run's undo log, appended before each change (one write each; fsynced at start and commit). */
export class JournalWriter {
  readonly records: JournalRecord[] = [];
  private fd: number | null = null;
  private stashCount = 0;
  readonly file: string;
  readonly stashDir: string;
  private stashDirMade = false;

  constructor(
    private readonly fs: InstallFs,
    readonly root: InstallRoot,
    readonly runId: string,
  ) {
    this.file = join(journalDir(root), `${runId}.jsonl`);
    this.stashDir = join(journalDir(root), runId);
  }

  /** Creates the journal (and its folder) and writes its first line, durably. */
  open(begin: Extract<JournalRecord, { op: "begin" }>): void {
    try {
      this.fs.mkdirSync(journalDir(this.root), { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
    this.fd = this.fs.openSync(this.file, "wx", 0o600);
    this.append(begin);
    this.fs.fsyncSync(this.fd);
  }

  get isOpen(): boolean {
    return this.fd !== null;
  }

  append(record: JournalRecord): void {
    if (this.fd === null) throw new Error("journal is not open");
    this.records.push(record);
    this.fs.writeSync(this.fd, JSON.stringify(record) + "\n");
  }

  /** A fresh slot in the run's stash folder, for an original about to be replaced or removed. */
  nextStash(): { n: number; path: string } {
    if (!this.stashDirMade) {
      try {
        this.fs.mkdirSync(this.stashDir, { mode: 0o700 });
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error;
      }
      this.stashDirMade = true;
    }
    const n = ++this.stashCount;
    return { n, path: join(this.stashDir, String(n)) };
  }

  commit(at: string): void {
    this.append({ op: "commit", at });
    this.fs.fsyncSync(this.fd as number);
  }

  close(): void {
    if (this.fd !== null) {
      const fd = this.fd;
      this.fd = null;
      this.fs.closeSync(fd);
    }
  }
}

export function beginRecord(root: InstallRoot, runId: string, startedAt: string, pack: string, bosunVersion: string): Extract<JournalRecord, { op: "begin" }> {
  return { op: "begin", runId, startedAt, pid: process.pid, host: hostname(), runtime: root.runtime, scope: root.scope, pack, bosunVersion };
}

/** A journal's records, and where the last line that could not be read is (null: every line was read). */
export interface ParsedJournal {
  records: JournalRecord[];
  /** The damaged line (1-based) and how many records came before it. */
  damaged: { line: number; before: number } | null;
}

/**
 * Parses a journal. A torn last line (a crash mid-write) is dropped: its change never started.
 * Any other line that is not a well-formed record (an unknown op, a missing field, a path that
 * is not relative and inside the root) is damaged: its change, whatever it was, is unknown.
 */
export function parseJournal(text: string): ParsedJournal {
  const lines = text.split("\n");
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] as string).trim() === "") last--;
  const records: JournalRecord[] = [];
  let damaged: ParsedJournal["damaged"] = null;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const record = journalRecord(line);
    if (record) records.push(record);
    else if (index < last) damaged = { line: index + 1, before: records.length };
  });
  return { records, damaged };
}

const STASH_HOWS: ReadonlySet<unknown> = new Set(["rename", "link", "copy"]);

/** One line as a record, or null when it is not one bosun writes (undoing it could go wrong). */
function journalRecord(line: string): JournalRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return isRecord(value) && wellFormed(value) ? (value as JournalRecord) : null;
}

function wellFormed(value: Record<string, unknown>): boolean {
  switch (value.op) {
    case "begin":
      return true;
    case "commit":
    case "rolled-back":
      return typeof value.at === "string";
    case "mkdir":
    case "create":
      return insideRel(value.path);
    case "intent":
      return Array.isArray(value.dirs) && value.dirs.every(insideRel) && Array.isArray(value.files) && value.files.every(insideRel);
    case "stash":
      return insideRel(value.path) && Number.isInteger(value.n) && (value.n as number) >= 1 && STASH_HOWS.has(value.how);
    case "move":
      return insideRel(value.from) && insideRel(value.to);
    case "rmdir":
      return insideRel(value.path) && Number.isInteger(value.mode) && (value.mode as number) >= 0 && (value.mode as number) <= 0o7777;
    default:
      return false;
  }
}

/**
 * A relative path inside the root, exactly as bosun writes it; of any length, since bosun journals
 * its backups (`bosun-backups/<run>/<path>`) and temp files (`<path>.bosun-tmp`) too.
 */
function insideRel(path: unknown): boolean {
  try {
    return normalizeRelPath(path, "journal", false) === path;
  } catch {
    return false;
  }
}

/** Removes a run's journal file and stash folder (best effort: leftovers are pruned later). */
export function removeJournal(fs: InstallFs, root: InstallRoot, runId: string): void {
  const dir = journalDir(root);
  const stash = join(dir, runId);
  try {
    for (const name of fs.readdirSync(stash)) fs.unlinkSync(join(stash, name));
    fs.rmdirSync(stash);
  } catch {
    // no stash folder, or already gone
  }
  try {
    fs.unlinkSync(join(dir, `${runId}.jsonl`));
  } catch {
    // already gone
  }
}

/** A journal found on disk: complete (committed) or left by a run that did not finish. */
export interface FoundJournal {
  runId: string;
  file: string;
  committed: boolean;
  /**
   * What is left to undo: every record, or for a damaged journal those after its damaged line;
   * none recorded before a `rolled-back` line.
   */
  records: JournalRecord[];
  /** An uncommitted journal's damaged line (1-based), and how many changes were recorded after it; null when every line was read. */
  damaged: { line: number; changes: number } | null;
}

/**
 * The journals of a root, oldest first. A folder or special file named like a journal, or a
 * committed journal with a damaged line, stops the run (InstallFileError): nothing is changed
 * until you fix it. An uncommitted one with a damaged line is returned with what can be undone.
 */
export function listJournals(fs: InstallFs, root: InstallRoot): FoundJournal[] {
  let names: string[];
  try {
    names = fs.readdirSync(journalDir(root));
  } catch {
    return [];
  }
  const found: FoundJournal[] = [];
  for (const name of names.filter((entry) => entry.endsWith(".jsonl")).sort()) {
    const file = join(journalDir(root), name);
    let text: string | null;
    try {
      text = readFileText(fs, file);
    } catch (error) {
      if (error instanceof NotRegularFileError) throw new InstallFileError(file, `is a ${error.kind}, not one of bosun's journals`, `move it out of ${JOURNAL_DIR}/, then run again`);
      throw error;
    }
    // Gone since it was listed: a run that finished meanwhile pruned it.
    if (text === null) continue;
    const { records, damaged } = parseJournal(text);
    const committed = records.some((record) => record.op === "commit");
    if (damaged && committed) {
      throw new InstallFileError(file, `line ${damaged.line} is damaged`, "the run it records was committed and is never undone, so it is only a record: delete it, then run again");
    }
    const tail = damaged ? records.slice(damaged.before) : records;
    const undone = tail.findLastIndex((record) => record.op === "rolled-back");
    found.push({
      runId: name.slice(0, -".jsonl".length),
      file,
      committed,
      records: tail.slice(undone + 1),
      damaged: damaged && { line: damaged.line, changes: tail.filter((record) => record.op !== "begin" && record.op !== "rolled-back").length },
    });
  }
  return found;
}

/**
 * Records at the end of a journal that what it lists has been undone, so that no later run undoes
 * it again (a file made since at one of its paths is not the run's). The journal is rewritten
 * whole, through a temp file and a rename, with its lines as they were, less a torn last one.
 */
export function markRolledBack(fs: InstallFs, file: string, at: string): void {
  const text = readFileText(fs, file) ?? "";
  const end = text.lastIndexOf("\n") + 1;
  const last = text.slice(end);
  const kept = last.trim() === "" || journalRecord(last) === null ? text.slice(0, end) : `${text}\n`;
  const temp = `${file}.bosun-tmp`;
  tryUnlink(fs, temp);
  const fd = fs.openSync(temp, "wx", 0o600);
  try {
    fs.writeSync(fd, kept + JSON.stringify({ op: "rolled-back", at } satisfies JournalRecord) + "\n");
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** Keeps the newest `keep` committed journals and removes older ones (and any leftover stash). */
export function pruneJournals(fs: InstallFs, root: InstallRoot, keep: number): void {
  const committed = listJournals(fs, root).filter((journal) => journal.committed);
  for (const journal of committed) {
    const stash = join(journalDir(root), journal.runId);
    if (fs.lstatSync(stash, { throwIfNoEntry: false })) {
      try {
        for (const name of fs.readdirSync(stash)) fs.unlinkSync(join(stash, name));
        fs.rmdirSync(stash);
      } catch {
        // retried on the next run
      }
    }
  }
  for (const journal of committed.slice(0, Math.max(0, committed.length - keep))) removeJournal(fs, root, journal.runId);
}

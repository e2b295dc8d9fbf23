import { constants, type Stats } from "node:fs";
import { sep } from "node:path";
import { installedStatKey, packStatKey } from "../plan/classify.js";
import type { DesiredFile } from "../plan/desired.js";
import { requireLazily } from "../../kernel/fs/require.js";
import { errorCode, type InstallFs } from "./install-fs.js";
import type { JournalWriter } from "./journal.js";
import type { PlannedAction } from "../plan/plan-types.js";
import { BACKUP_DIR, isReservedPath, stateRel, type InstallRoot } from "../records/root.js";
import { RootGuard } from "../plan/safe-path.js";
import { PackChangedError } from "../plan/rendered-copy.js";

export { PackChangedError };

/** What happened to an action (for the report and the journal's reader). */
export type ActionOutcome = "done" | "missing" | "removed" | "skipped-not-empty" | "left-in-place" | "kept";

/**
 * Carries out one root's planned actions, writing the journal's undo record before each change:
 * files written fresh, replaced atomically (the original kept in the run's stash as a hard link
 * until the run commits), removed by moving them into the stash, backups of your edits put in
 * `bosun-backups/<run>/` (never pruned), folders removed only when empty.
 */
export class RootExecutor {
  private readonly guard: RootGuard;
  private readonly knownDirs = new Set<string>([""]);
  /** New folders and files declared in the journal's intent record: no record of their own. */
  private readonly declaredDirs = new Set<string>();
  private readonly declaredFiles = new Set<string>();
  /** Each file written: its `size:ctime:mtime:inode` (the manifest's stat cache) and the hash of its bytes. */
  readonly written = new Map<string, { stat: string; sha256: string }>();
  readonly outcomes = new Map<number, ActionOutcome>();
  readonly backups: string[] = [];
  /** Folders this run created (outside bosun's own files) and removed: the manifest records which are bosun's. */
  readonly madeDirs = new Set<string>();
  readonly removedDirs = new Set<string>();

  constructor(
    private readonly fs: InstallFs,
    readonly root: InstallRoot,
    readonly journal: JournalWriter,
  ) {
    this.guard = new RootGuard(root.dir, fs);
  }

  /**
   * Declares, in one journal line, the new files of this run (bosun's files where nothing was)
   * and the folders they need, before any of them is made: a fresh install writes one undo record,
   * not one per file.
   */
  declareNewFiles(actions: readonly PlannedAction[]): void {
    const files: string[] = [];
    const dirs: string[] = [];
    const seen = new Set<string>();
    for (const action of actions) {
      if (action.type !== "write-file" || action.blocked || action.resolution) continue;
      for (let slash = action.rel.indexOf("/"); slash !== -1; slash = action.rel.indexOf("/", slash + 1)) {
        const dir = action.rel.slice(0, slash);
        if (seen.has(dir)) continue;
        seen.add(dir);
        const info = this.fs.lstatSync(this.path(dir), { throwIfNoEntry: false });
        if (!info) dirs.push(dir);
        else if (info.isDirectory()) this.knownDirs.add(dir);
        else break;
      }
      files.push(action.rel);
    }
    if (files.length === 0) return;
    this.journal.append({ op: "intent", dirs, files });
    for (const dir of dirs) this.declaredDirs.add(dir);
    for (const file of files) this.declaredFiles.add(file);
  }

  apply(action: PlannedAction): void {
    const type = action.resolution === "remove" ? (action.onRemove ?? "backup-and-remove") : action.resolution === "keep" ? "keep" : action.type;
    switch (type) {
      case "write-file":
        return this.write(action, false);
      case "replace-file":
        return this.write(action, true);
      case "backup-and-replace":
        this.backup(action.rel);
        return this.write(action, true);
      case "remove-managed":
        return this.remove(action);
      case "backup-and-remove":
        this.backup(action.rel);
        return this.remove(action);
      case "move-managed":
        return this.move(action);
      case "remove-empty-dir":
        return this.removeEmptyDir(action);
      case "rewrite-json":
      case "rewrite-toml":
        return this.rewrite(action);
      case "backup-and-rewrite":
        // A settings conflict answered "remove": your file as it was goes to the backups first.
        this.backup(action.rel);
        return this.rewrite(action);
      default:
        this.outcomes.set(action.index, "kept");
    }
  }

  /**
   * Writes bosun's own file (manifest, state), or removes it (null). Always through a temp file
   * and a rename, a new one too: another bosun reading it without the lock sees it whole or not
   * at all.
   */
  writeStateFile(rel: string, text: string | null): void {
    const path = this.path(rel);
    const exists = this.fs.lstatSync(path, { throwIfNoEntry: false });
    if (text === null) {
      if (exists) this.stash(rel, "rename");
      return;
    }
    if (exists) return this.replaceWith(rel, true, (fd) => void this.writeAll(fd, Buffer.from(text, "utf8")), 0o644);
    const temp = tempRel(rel);
    this.journal.append({ op: "create", path: rel });
    this.journal.append({ op: "create", path: temp });
    this.fillFile(this.path(temp), (fd) => this.writeAll(fd, Buffer.from(text, "utf8")), 0o644);
    this.fs.renameSync(this.path(temp), path);
  }

  private write(action: PlannedAction, replacing: boolean): void {
    const file = action.desired as DesiredFile;
    this.ensureParents(action.rel);
    let sha256 = file.sha256;
    let stat: string | undefined;
    // A new file is created exclusively (it was absent when planned: if it appeared since, the
    // run stops and rolls back); its stat is taken from the open descriptor.
    const fill = (fd: number) => {
      sha256 = this.writeContent(fd, file);
      if (!replacing) stat = installedStatKey(this.fs.fstatSync(fd));
    };
    this.replaceWith(action.rel, replacing && Boolean(this.fs.lstatSync(this.path(action.rel), { throwIfNoEntry: false })), fill, file.mode);
    // A rename changes the file's ctime: its stat is taken after.
    stat ??= installedStatKey(this.fs.lstatSync(this.path(action.rel)) as Stats);
    this.written.set(action.rel, { stat, sha256: sha256 as string });
    this.outcomes.set(action.index, "done");
  }

  /**
   * New content at `rel`: a fresh file when there is none; otherwise the original is hard-linked
   * into the stash and a sibling temp file is renamed over it, so a reader never sees half a file.
   */
  private replaceWith(rel: string, exists: boolean, fill: (fd: number) => void, mode: number): void {
    const path = this.path(rel);
    if (!exists) {
      if (!this.declaredFiles.has(rel)) this.journal.append({ op: "create", path: rel });
      this.fillFile(path, fill, mode);
      return;
    }
    this.stash(rel, "link");
    const temp = tempRel(rel);
    this.journal.append({ op: "create", path: temp });
    this.fillFile(this.path(temp), fill, mode);
    this.fs.renameSync(this.path(temp), path);
  }

  private fillFile(path: string, fill: (fd: number) => void, mode: number): void {
    const fd = this.fs.openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      fill(fd);
    } finally {
      this.fs.closeSync(fd);
    }
  }

  /**
   * Writes the desired bytes and answers their hash. A copy the load read is written from its
   * bytes (hashed then); another is streamed from the pack in one pass: when its hash was known at
   * planning, the pack file must still have the stat it had then, else the bytes are hashed as
   * they go.
   */
  private writeContent(fd: number, file: DesiredFile): string {
    if (file.source.kind === "bytes") {
      this.writeAll(fd, file.source.bytes);
      return file.sha256 as string;
    }
    if (file.source.kind === "file" && file.source.bytes !== null && file.sha256 !== null) {
      this.writeAll(fd, file.source.bytes);
      return file.sha256;
    }
    if (file.source.kind === "render") {
      // Made now if planning did not need the bytes (the hash was the manifest's); hashed as written.
      const bytes = file.source.bytes();
      this.writeAll(fd, bytes);
      return (requireLazily("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(bytes).digest("hex");
    }
    const hash = file.sha256 === null ? (requireLazily("node:crypto") as typeof import("node:crypto")).createHash("sha256") : null;
    const source = this.fs.openSync(file.source.path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (hash === null && packStatKey(this.fs.fstatSync(source)) !== file.source.statKey) throw new PackChangedError(file.source.path);
      const buffer = this.buffer(file.source.size);
      for (;;) {
        const read = this.fs.readSync(source, buffer, 0, buffer.length, null);
        if (read === 0) break;
        const chunk = buffer.subarray(0, read);
        hash?.update(chunk);
        this.writeAll(fd, chunk);
      }
    } finally {
      this.fs.closeSync(source);
    }
    return hash ? hash.digest("hex") : (file.sha256 as string);
  }

  private copyBuffer: Buffer | undefined;

  private buffer(size: number): Buffer {
    const wanted = Math.min(Math.max(size, 64 * 1024), 1024 * 1024);
    if (!this.copyBuffer || this.copyBuffer.length < wanted) this.copyBuffer = Buffer.allocUnsafe(wanted);
    return this.copyBuffer;
  }

  private writeAll(fd: number, bytes: Uint8Array): void {
    let offset = 0;
    while (offset < bytes.length) offset += this.fs.writeSync(fd, bytes, offset, bytes.length - offset);
  }

  private remove(action: PlannedAction): void {
    if (!this.fs.lstatSync(this.path(action.rel), { throwIfNoEntry: false })) {
      this.outcomes.set(action.index, "missing");
      return;
    }
    this.stash(action.rel, "rename");
    this.outcomes.set(action.index, "removed");
  }

  private move(action: PlannedAction): void {
    const to = action.toRel as string;
    if (!this.fs.lstatSync(this.path(action.rel), { throwIfNoEntry: false })) {
      this.outcomes.set(action.index, "missing");
      return;
    }
    if (this.fs.lstatSync(this.path(to), { throwIfNoEntry: false })) throw new Error(`${to} appeared while bosun was installing; nothing was moved over it`);
    this.ensureParents(to);
    this.journal.append({ op: "move", from: action.rel, to });
    this.fs.renameSync(this.path(action.rel), this.path(to));
    this.outcomes.set(action.index, "done");
  }

  /**
   * Removes a folder only when it is empty right now (re-checked here), never recursively, never
   * through a symlink, and only strictly inside the root; anything unexpected leaves it in place.
   */
  private removeEmptyDir(action: PlannedAction): void {
    const path = this.path(action.rel);
    const info = this.fs.lstatSync(path, { throwIfNoEntry: false });
    if (!info) return void this.outcomes.set(action.index, "missing");
    if (!info.isDirectory()) return void this.outcomes.set(action.index, "left-in-place");
    try {
      const real = this.fs.realpathSync(path);
      const realRoot = this.fs.realpathSync(this.root.dir);
      if (!real.startsWith(realRoot + sep)) return void this.outcomes.set(action.index, "left-in-place");
      if (this.fs.readdirSync(path).length > 0) return void this.outcomes.set(action.index, "skipped-not-empty");
    } catch {
      return void this.outcomes.set(action.index, "left-in-place");
    }
    this.journal.append({ op: "rmdir", path: action.rel, mode: info.mode & 0o7777 });
    try {
      this.fs.rmdirSync(path);
      this.knownDirs.delete(action.rel);
      this.removedDirs.add(action.rel);
      this.outcomes.set(action.index, "removed");
    } catch (error) {
      this.outcomes.set(action.index, errorCode(error) === "ENOTEMPTY" ? "skipped-not-empty" : "left-in-place");
    }
  }

  private rewrite(action: PlannedAction): void {
    const exists = Boolean(this.fs.lstatSync(this.path(action.rel), { throwIfNoEntry: false }));
    if (action.text === null || action.text === undefined) {
      if (exists) this.stash(action.rel, "rename");
      this.outcomes.set(action.index, exists ? "removed" : "missing");
      return;
    }
    const text = action.text;
    this.ensureParents(action.rel);
    // A config keeps its mode (it may be private).
    const mode = exists ? this.fs.lstatSync(this.path(action.rel)).mode & 0o7777 : 0o644;
    this.replaceWith(action.rel, exists, (fd) => this.writeAll(fd, Buffer.from(text, "utf8")), mode);
    if (exists) this.fs.chmodSync(this.path(action.rel), mode);
    this.outcomes.set(action.index, "done");
  }

  /** Moves (or hard-links) the original into the run's stash, after journaling where it went. */
  private stash(rel: string, how: "rename" | "link"): void {
    const slot = this.journal.nextStash();
    this.journal.append({ op: "stash", path: rel, n: slot.n, how });
    if (how === "rename") {
      this.fs.renameSync(this.path(rel), slot.path);
      return;
    }
    try {
      this.fs.linkSync(this.path(rel), slot.path);
    } catch (error) {
      const code = errorCode(error);
      if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP" && code !== "EMLINK") throw error;
      this.fs.copyFileSync(this.path(rel), slot.path);
    }
  }

  /** A copy of your version in `bosun-backups/<run>/<path>` (a symlink is copied as the link itself). */
  private backup(rel: string): void {
    const backupRel = `${stateRel(this.root, BACKUP_DIR)}/${this.journal.runId}/${rel}`;
    const source = this.path(rel);
    const info = this.fs.lstatSync(source, { throwIfNoEntry: false });
    if (!info) return;
    this.ensureParents(backupRel);
    this.journal.append({ op: "create", path: backupRel });
    if (info.isSymbolicLink()) this.fs.symlinkSync(this.fs.readlinkSync(source), this.path(backupRel));
    else {
      try {
        this.fs.linkSync(source, this.path(backupRel));
      } catch {
        this.fs.copyFileSync(source, this.path(backupRel));
      }
    }
    this.backups.push(backupRel);
  }

  /** Creates missing folders on the way to `rel`, top down, journaling each one. */
  private ensureParents(rel: string): void {
    const parent = rel.slice(0, Math.max(rel.lastIndexOf("/"), 0));
    if (this.knownDirs.has(parent)) return;
    for (let slash = rel.indexOf("/"); slash !== -1; slash = rel.indexOf("/", slash + 1)) {
      const dir = rel.slice(0, slash);
      if (this.knownDirs.has(dir)) continue;
      const info = this.fs.lstatSync(this.path(dir), { throwIfNoEntry: false });
      if (!info) {
        if (!this.declaredDirs.has(dir)) this.journal.append({ op: "mkdir", path: dir });
        this.fs.mkdirSync(this.path(dir));
        if (!isReservedPath(this.root, dir)) this.madeDirs.add(dir);
      } else if (!info.isDirectory()) {
        const checked = this.guard.check(`${dir}/x`);
        if (!checked.ok) throw new Error(checked.problem);
      }
      this.knownDirs.add(dir);
    }
  }

  /** The absolute path of `rel`, checked again at the moment of writing. */
  private path(rel: string): string {
    const checked = this.guard.check(rel);
    if (!checked.ok) throw new Error(`${rel}: ${checked.problem}`);
    return checked.path;
  }
}

const TEMP_SUFFIX = ".bosun-tmp";
const MAX_NAME_BYTES = 255;

/**
 * The sibling a new version is written to before it is renamed over `rel`: `<name>.bosun-tmp`,
 * the name cut (at a character) so that it fits in a file system's 255 bytes, as `<name>` does.
 */
function tempRel(rel: string): string {
  const slash = rel.lastIndexOf("/");
  const name = [...rel.slice(slash + 1)];
  while (Buffer.byteLength(name.join("")) + TEMP_SUFFIX.length > MAX_NAME_BYTES) name.pop();
  return `${rel.slice(0, slash + 1)}${name.join("")}${TEMP_SUFFIX}`;
}

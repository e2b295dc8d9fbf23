import { constants, type BigIntStats } from "node:fs";
import { sep } from "node:path";
import { installedStatKey } from "./classify.js";
import type { DesiredFile } from "./desired.js";
import { requireLazily } from "../fs/require.js";
import { errorCode, type InstallFs } from "./install-fs.js";
import type { JournalWriter } from "./journal.js";
import type { PlannedAction } from "./plan-types.js";
import { BACKUP_DIR, stateRel, type InstallRoot } from "./root.js";
import { RootGuard } from "./safe-path.js";

/** What happened to an action (for the report and the journal's reader). */
export type ActionOutcome = "done" | "missing" | "removed" | "skipped-not-empty" | "left-in-place" | "kept";

/** The pack's bytes changed between planning and writing: bosun stops rather than install something unchecked. */
export class PackChangedError extends Error {
  override name = "PackChangedError";
  constructor(readonly path: string) {
    super(`${path} changed while bosun was installing it; run bosun install again`);
  }
}

/**
 * Carries out one root's planned actions, writing the journal's undo record before each change:
 * files written fresh, replaced atomically (the original kept in the run's stash as a hard link
 * until the run commits), removed by moving them into the stash, backups of your edits put in
 * `bosun-backups/<run>/` (never pruned), folders removed only when empty.
 */
export class RootExecutor {
  private readonly guard: RootGuard;
  private readonly knownDirs = new Set<string>([""]);
  /** `size:ctime:mtime:inode` of each file written, for the manifest's stat cache. */
  readonly writtenStats = new Map<string, string>();
  readonly outcomes = new Map<number, ActionOutcome>();
  readonly backups: string[] = [];

  constructor(
    private readonly fs: InstallFs,
    readonly root: InstallRoot,
    readonly journal: JournalWriter,
  ) {
    this.guard = new RootGuard(root.dir, fs);
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
      default:
        this.outcomes.set(action.index, "kept");
    }
  }

  /** Writes bosun's own file (manifest, state) atomically, or removes it (null). */
  writeStateFile(rel: string, text: string | null): void {
    const path = this.path(rel);
    const exists = this.fs.lstatSync(path, { throwIfNoEntry: false });
    if (text === null) {
      if (exists) this.stash(rel, "rename");
      return;
    }
    this.replaceWith(rel, Boolean(exists), (fd) => void this.fs.writeSync(fd, text), 0o644);
  }

  private write(action: PlannedAction, replacing: boolean): void {
    const file = action.desired as DesiredFile & { sha256: string };
    this.ensureParents(action.rel);
    const exists = Boolean(this.fs.lstatSync(this.path(action.rel), { throwIfNoEntry: false }));
    this.replaceWith(action.rel, replacing && exists, (fd) => this.writeContent(fd, file), file.mode);
    const info = this.fs.lstatSync(this.path(action.rel), { bigint: true }) as unknown as BigIntStats;
    this.writtenStats.set(action.rel, installedStatKey(info));
    this.outcomes.set(action.index, "done");
  }

  /**
   * New content at `rel`: a fresh file when there is none; otherwise the original is hard-linked
   * into the stash and a sibling temp file is renamed over it, so a reader never sees half a file.
   */
  private replaceWith(rel: string, exists: boolean, fill: (fd: number) => void, mode: number): void {
    const path = this.path(rel);
    if (!exists) {
      this.journal.append({ op: "create", path: rel });
      this.fillFile(path, fill, mode);
      return;
    }
    this.stash(rel, "link");
    const temp = `${rel}.bosun-tmp`;
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

  /** The desired bytes; a copy is streamed from the pack and checked against the planned hash. */
  private writeContent(fd: number, file: DesiredFile & { sha256: string }): void {
    if (file.source.kind === "bytes") {
      this.writeAll(fd, file.source.bytes);
      return;
    }
    const hash = (requireLazily("node:crypto") as typeof import("node:crypto")).createHash("sha256");
    const source = this.fs.openSync(file.source.path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const buffer = Buffer.allocUnsafe(Math.min(Math.max(file.source.size, 1), 1024 * 1024));
      for (;;) {
        const read = this.fs.readSync(source, buffer, 0, buffer.length, null);
        if (read === 0) break;
        const chunk = buffer.subarray(0, read);
        hash.update(chunk);
        this.writeAll(fd, chunk);
      }
    } finally {
      this.fs.closeSync(source);
    }
    if (hash.digest("hex") !== file.sha256) throw new PackChangedError(file.source.path);
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
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (this.knownDirs.has(dir)) continue;
      const info = this.fs.lstatSync(this.path(dir), { throwIfNoEntry: false });
      if (!info) {
        this.journal.append({ op: "mkdir", path: dir });
        this.fs.mkdirSync(this.path(dir));
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

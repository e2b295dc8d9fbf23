import { join } from "node:path";
import { readRegularFile, UnusableFileError } from "../../kernel/fs/regular-file.js";
import { ABSENT, inspectPath, type Inspection } from "./classify.js";
import { parseConfig } from "../config/json-hooks.js";
import { parseToml } from "../config/toml-block.js";
import { sha256 } from "../apply/file-hash.js";
import { errorCode, type InstallFs } from "../apply/install-fs.js";
import type { Manifest } from "../records/manifest.js";
import { RootGuard } from "./safe-path.js";
import { succeedPack } from "./succession.js";

/** An inspection, or why the path may not even be looked at. */
export type Looked = Inspection & { problem?: string };

const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * The root as the plan sees it: the disk, read without following symlinks and only through
 * paths the guard accepts, with the changes planned so far laid over it (removed paths, moved
 * files, rewritten configs). Planning never writes.
 */
export class TreeView {
  readonly guard: RootGuard;
  private readonly overlay = new Map<string, { kind: "absent" } | { kind: "moved"; from: string } | { kind: "text"; text: string | null }>();
  private readonly looked = new Map<string, Looked>();
  private owners: Map<string, string> | null = null;

  constructor(
    readonly dir: string,
    readonly fs: InstallFs,
    /** The manifest as planned so far (moves carry entries along). */
    readonly manifest: Manifest,
    private readonly original: Manifest,
  ) {
    this.guard = new RootGuard(dir, fs);
  }

  /** What is at a path now, with the planned changes applied. */
  look(rel: string): Looked {
    const planned = this.overlay.get(rel);
    if (planned?.kind === "absent") return ABSENT;
    if (planned?.kind === "text") return planned.text === null ? ABSENT : { kind: "file", hash: sha256(planned.text), statKey: null, mode: 0o644 };
    if (planned?.kind === "moved") return this.lookOnDisk(planned.from);
    // A folder planned away takes everything under it.
    for (const [path, change] of this.overlay) if (change.kind === "absent" && rel.startsWith(path + "/")) return ABSENT;
    return this.lookOnDisk(rel);
  }

  private lookOnDisk(rel: string): Looked {
    const known = this.looked.get(rel);
    if (known) return known;
    const checked = this.guard.check(rel);
    const result: Looked = !checked.ok
      ? { ...ABSENT, kind: "other", problem: checked.problem }
      : checked.absent
        ? ABSENT
        : inspectPath(this.fs, checked.path, { hash: this.original.files[rel], stat: this.original.fileStats[rel] });
    this.looked.set(rel, result);
    return result;
  }

  /** A text file's content (null when absent), or why it cannot be read. */
  readText(rel: string): { exists: boolean; text: string | null; error: string | null } {
    const planned = this.overlay.get(rel);
    if (planned?.kind === "text") return { exists: planned.text !== null, text: planned.text, error: null };
    const looked = this.look(rel);
    if (looked.problem) return { exists: false, text: null, error: looked.problem };
    if (looked.kind === "absent") return { exists: false, text: null, error: null };
    if (looked.kind !== "file") return { exists: true, text: null, error: `is a ${looked.kind === "symlink" ? "symlink" : looked.kind === "dir" ? "folder" : "special file"}, not a regular file` };
    const from = planned?.kind === "moved" ? planned.from : rel;
    // Read without following a symlink or blocking: a link or a FIFO swapped in since it was looked at is refused.
    try {
      return { exists: true, text: readRegularFile(join(this.dir, from), MAX_CONFIG_BYTES, { fs: this.fs, followSymlinks: false }).toString("utf8"), error: null };
    } catch (error) {
      return { exists: true, text: null, error: error instanceof UnusableFileError ? error.problem : `cannot be read (${errorCode(error) ?? String(error)})` };
    }
  }

  readJson(rel: string): { exists: boolean; text: string | null; value: unknown; error: string | null } {
    const read = this.readText(rel);
    if (read.text === null) return { ...read, value: undefined };
    const parsed = parseConfig(read.text);
    return parsed.ok ? { ...read, value: parsed.value } : { ...read, value: undefined, error: `${parsed.problem} at line ${parsed.line}` };
  }

  readToml(rel: string): { exists: boolean; text: string | null; value: unknown; error: string | null } {
    const read = this.readText(rel);
    if (read.text === null) return { ...read, value: undefined };
    const parsed = parseToml(read.text);
    return parsed.ok ? { ...read, value: parsed.value } : { ...read, value: undefined, error: `${parsed.problem} at line ${parsed.line}` };
  }

  /**
   * A folder's entries, by their directory-entry type (nothing is opened or hashed); a symlink is
   * listed as such and never entered; entries planned away are left out.
   */
  list(relDir: string): { name: string; kind: "file" | "dir" | "symlink" | "other" }[] {
    const looked = this.look(relDir);
    if (looked.kind !== "dir") return [];
    let entries: import("node:fs").Dirent[];
    try {
      entries = this.fs.readdirSync(join(this.dir, this.diskPathOf(relDir)), { withFileTypes: true });
    } catch {
      return [];
    }
    return entries
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .filter((entry) => this.overlay.get(`${relDir}/${entry.name}`)?.kind !== "absent")
      .map((entry) => ({ name: entry.name, kind: entry.isFile() ? "file" : entry.isDirectory() ? "dir" : entry.isSymbolicLink() ? "symlink" : "other" }));
  }

  /** Planned: the path goes away (with everything under it, for a folder). */
  remove(rel: string): void {
    this.overlay.set(rel, { kind: "absent" });
    this.dropEntry(rel);
  }

  /** Planned: the file moves; its manifest entry goes with it. */
  move(from: string, to: string): void {
    const source = this.overlay.get(from);
    this.overlay.set(to, source?.kind === "moved" ? source : source?.kind === "text" ? source : { kind: "moved", from });
    this.overlay.set(from, { kind: "absent" });
    const hash = this.manifest.files[from];
    if (hash !== undefined) {
      this.manifest.files[to] = hash;
      for (const pack of Object.values(this.manifest.packs)) if (pack.files.includes(from)) pack.files = [...pack.files.filter((rel) => rel !== from), to];
      delete this.manifest.files[from];
      this.owners = null;
    }
  }

  /** Planned: pack `to` takes the place of pack `from` (succession.ts). */
  succeed(from: string, to: string): void {
    succeedPack(this.manifest, from, to);
    this.owners = null;
  }

  /** Planned: a config file's next text (null: deleted). */
  rewrite(rel: string, text: string | null): void {
    this.overlay.set(rel, { kind: "text", text });
  }

  /** Planned: the manifest no longer lists the path. */
  dropEntry(rel: string): void {
    if (!(rel in this.manifest.files)) return;
    delete this.manifest.files[rel];
    for (const pack of Object.values(this.manifest.packs)) if (pack.files.includes(rel)) pack.files = pack.files.filter((path) => path !== rel);
    this.owners = null;
  }

  /** The pack that owns a path in the manifest as planned so far. */
  ownerOf(rel: string): string | undefined {
    if (!this.owners) {
      this.owners = new Map();
      for (const [name, pack] of Object.entries(this.manifest.packs)) for (const path of pack.files) this.owners.set(path, name);
    }
    return this.owners.get(rel);
  }

  /** Where a planned path's bytes are on disk now (a moved file is still at its old place). */
  diskPathOf(rel: string): string {
    const planned = this.overlay.get(rel);
    return planned?.kind === "moved" ? planned.from : rel;
  }
}

import { isUtf8 } from "node:buffer";
import { lstatSync, readdirSync, readFileSync, type Stats } from "node:fs";
import { join, sep } from "node:path";
import { sha256 } from "../apply/file-hash.js";
import { installedStatKey, packStatKey } from "../plan/classify.js";
import { scanPathVars, scanText, type PathVarUse } from "../plan/path-vars.js";
import { isKnownTemplateName } from "../plan/template-vars.js";
import type { LoadCache } from "./load-cache.js";
import { PackError } from "./pack-error.js";
import { compileTemplate, type Template } from "./template.js";

/** A file of the pack that is copied (or rendered, when it is a template) into a runtime. */
export interface PackFile {
  /** Relative to its artifact's folder (a skill's files), to `files/`, or to the pack. */
  rel: string;
  path: string;
  size: number;
  /** 0o755 when the pack file is executable, else 0o644. */
  mode: number;
  /** `size:mtime:inode`: unchanged means the bytes need not be read again. */
  statKey: string;
  template: Template | null;
  /** The path variables its text uses (null: none, or binary): only such files are rewritten. */
  pathVars: PathVarUse | null;
  /**
   * The bytes this load read and their SHA-256, kept for the install to write and record without
   * reading or hashing the file again (null: not read, its parse came from the load cache, or too
   * big to keep; then it is copied from the pack, its stat checked first).
   */
  loaded: LoadedBytes | null;
}

/** A pack file's bytes as the load read them, and their SHA-256. */
export interface LoadedBytes {
  bytes: Buffer;
  sha256: string;
}

/** The default limit on one pack file's size (`bosun.json` `install.max_pack_file_bytes`). */
export const DEFAULT_MAX_PACK_FILE_BYTES = 64 * 1024 * 1024;
const MAX_PACK_FILES = 20_000;
/** The bytes a load keeps for the install (larger files, and files past the total, are read again when written). */
const KEEP_FILE_BYTES = 4 * 1024 * 1024;
const KEEP_TOTAL_BYTES = 256 * 1024 * 1024;

/** One load: the pack folder, its template globs, the limits, the file count so far, and what was looked at. */
export interface LoadContext {
  root: string;
  isTemplate: (rel: string) => boolean;
  maxFileBytes: number;
  count: { files: number };
  watch: Map<string, string | null>;
  /** The first pack file whose text uses `{pack-dir}` (the pack must then have `files/`). */
  packDirUser: { file: string; line: number } | null;
  /** What earlier loads parsed (load-cache.ts); null: parse everything. */
  cache: LoadCache | null;
  /** The bytes kept so far (`PackFile.loaded`). */
  kept: { bytes: number };
}

/** What a copied file's bytes parse to; `template` says whether it was read as one (pack.json `templates` may change). */
interface ParsedFile {
  template: boolean;
  compiled: Template | null;
  pathVars: PathVarUse | null;
}

/** Notes the first user of `{pack-dir}`. */
export function notePathVars(ctx: LoadContext, file: string, use: PathVarUse | null): PathVarUse | null {
  if (use?.packDirLine != null && !ctx.packDirUser) ctx.packDirUser = { file, line: use.packDirLine };
  return use;
}

/**
 * The names in a pack folder, sorted; a name that is not UTF-8 or holds a control character is
 * refused (runtimes and shells cannot be trusted with it).
 */
export function entryNames(dir: string): string[] {
  return readdirSync(dir, { encoding: "buffer" })
    .map((raw) => {
      const name = raw.toString("utf8");
      if (!isUtf8(raw)) throw new PackError(join(dir, name), "its file name is not valid UTF-8; rename it");
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(name)) throw new PackError(join(dir, JSON.stringify(name)), "its file name holds a control character; rename it");
      return name;
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The names in the pack's folder `rel` (entryNames), told to the digest cache so the pack digest
 * that follows the load lists nothing again.
 */
export function listedNames(ctx: LoadContext, rel: string): string[] {
  const names = entryNames(join(ctx.root, rel));
  ctx.cache?.digests.noteListing(ctx.root, rel, names);
  return names;
}

/** Refuses a pack file over the size limit. */
export function checkSize(ctx: Pick<LoadContext, "maxFileBytes">, path: string, info: Stats): void {
  if (info.size > ctx.maxFileBytes) throw new PackError(path, `is ${info.size} bytes, over the limit of ${ctx.maxFileBytes} for one pack file; make it smaller, or raise bosun.json install.max_pack_file_bytes`);
}

/**
 * Every file under `<root>/<base>` (dot-files skipped unless `dotFiles`); symlinks and special
 * files are refused. Each file's text is checked for path variables (binary files are copied as they are).
 */
export function listFiles(ctx: LoadContext, base: string, dotFiles = false): PackFile[] {
  const { root, count } = ctx;
  const out: PackFile[] = [];
  // A path under the walked folder; names from a directory listing need no normalizing.
  const baseDir = join(root, base);
  const under = (rel: string) => (rel === "" ? baseDir : sep === "/" ? `${baseDir}/${rel}` : join(baseDir, rel));
  const walk = (relDir: string) => {
    for (const name of listedNames(ctx, relDir ? `${base}/${relDir}` : base)) {
      if (name.startsWith(".") && !dotFiles) continue;
      const rel = relDir ? `${relDir}/${name}` : name;
      const path = under(rel);
      // Looked at before it is read or listed: a change after that changes its key.
      const info = lstatSync(path);
      ctx.watch.set(`${base}/${rel}`, installedStatKey(info));
      if (info.isDirectory()) {
        ctx.cache?.digests.noteFolder(root, `${base}/${rel}`, info);
        walk(rel);
      }
      else if (info.isFile()) {
        if (++count.files > MAX_PACK_FILES) throw new PackError(root, `has more than ${MAX_PACK_FILES} files`);
        checkSize(ctx, path, info);
        const { parsed, loaded } = parseFile(ctx, `${base}/${rel}`, path, info);
        notePathVars(ctx, path, parsed.pathVars);
        out.push({ rel, path, size: info.size, mode: info.mode & 0o111 ? 0o755 : 0o644, statKey: packStatKey(info), template: parsed.compiled, pathVars: parsed.pathVars, loaded });
      } else throw new PackError(path, info.isSymbolicLink() ? "is a symlink; a pack holds real folders and files only" : "is not a regular file");
    }
  };
  walk("");
  return out;
}

/**
 * A copied file's template (when it is one) and path variables: from the cache when its bytes
 * were parsed before (nothing read), else parsed from its bytes, which are kept with their hash.
 */
function parseFile(ctx: LoadContext, packRel: string, path: string, info: Stats): { parsed: ParsedFile; loaded: LoadedBytes | null } {
  const template = ctx.isTemplate(packRel);
  const usable = (value: ParsedFile | undefined): value is ParsedFile => value?.template === template && "compiled" in value && "pathVars" in value;
  const known = ctx.cache?.byStat<ParsedFile>(ctx.root, "file", packRel, info);
  if (usable(known)) return { parsed: known, loaded: null };
  const bytes = readFileSync(path);
  const cached = ctx.cache?.byBytes<ParsedFile>(ctx.root, "file", packRel, info, bytes);
  const loaded = keepBytes(ctx, bytes, cached?.hash);
  if (usable(cached?.value)) return { parsed: cached.value, loaded };
  let parsed: ParsedFile;
  if (template) {
    const text = decodeText(path, bytes);
    parsed = { template, compiled: compileTemplate(text, path, isKnownTemplateName), pathVars: scanText(text, path) };
  } else parsed = { template, compiled: null, pathVars: scanPathVars(bytes, path) };
  if (cached) ctx.cache?.put(ctx.root, "file", packRel, cached.hash, parsed);
  return { parsed, loaded };
}

/** The bytes just read, with their hash, while the load's budget lasts (`PackFile.loaded`). */
function keepBytes(ctx: LoadContext, bytes: Buffer, hash: string | undefined): LoadedBytes | null {
  if (bytes.length > KEEP_FILE_BYTES || ctx.kept.bytes + bytes.length > KEEP_TOTAL_BYTES) return null;
  ctx.kept.bytes += bytes.length;
  return { bytes, sha256: hash ?? sha256(bytes) };
}

/** A pack file's text; bytes that are not UTF-8 are a `PackError`. */
export function readText(file: string): string {
  return decodeText(file, readFileSync(file));
}

/** Bytes read from a pack file as its text; bytes that are not UTF-8 are a `PackError`. */
export function decodeText(file: string, bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new PackError(file, "is not valid UTF-8 text");
  return bytes.toString("utf8");
}

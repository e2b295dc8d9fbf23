import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isText } from "./import-text.js";
import type { Skipped } from "./import-report.js";

/** A file the imported pack will hold: its path in the pack, its bytes, and whether it is executable. */
export interface OutFile {
  rel: string;
  bytes: Buffer;
  executable: boolean;
}

export interface WalkOptions {
  /** The folder's path relative to the runtime folder (for the report and the manifest check). */
  rel: string;
  /** Text rewrite applied to UTF-8 files. */
  rewrite: (text: string) => string;
  /** Paths (relative to the runtime folder) bosun installed for a pack: left out. */
  owned: ReadonlyMap<string, string>;
  skipped: Skipped[];
}

/**
 * Every regular file under `dir`, dot-files too, with its text rewritten; symlinks and special
 * files are left out (the report says so), as are files bosun installed for a pack.
 */
export function walkFolder(dir: string, into: string, options: WalkOptions): OutFile[] {
  const out: OutFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const rel = `${options.rel}/${name}`;
    const target = into ? `${into}/${name}` : name;
    const info = lstatSync(path);
    if (info.isDirectory()) out.push(...walkFolder(path, target, { ...options, rel }));
    else if (!info.isFile()) options.skipped.push({ what: rel, why: info.isSymbolicLink() ? "a symlink (a pack holds regular files only)" : "not a regular file" });
    else if (options.owned.has(rel)) options.skipped.push({ what: rel, why: `installed by bosun (pack ${options.owned.get(rel)})` });
    else out.push(readOut(path, target, info.mode, options.rewrite));
  }
  return out;
}

/** One file, its text rewritten (binary files as they are). */
export function readOut(path: string, rel: string, mode: number, rewrite: (text: string) => string): OutFile {
  const bytes = readFileSync(path);
  const text = isText(bytes) ? bytes.toString("utf8") : null;
  const rewritten = text === null ? bytes : Buffer.from(rewrite(text));
  return { rel, bytes: rewritten, executable: (mode & 0o111) !== 0 };
}

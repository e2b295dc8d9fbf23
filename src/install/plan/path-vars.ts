import { isUtf8 } from "node:buffer";
import { relative } from "node:path";
import type { InstallScope } from "../../runtimes/kit/install-types.js";
import { PackError } from "../pack/pack-error.js";

/** The path variables a pack's text may use: the pack's support folder, and the runtime's folder. */
export const TEXT_PATH_VARS = ["{pack-dir}", "{config-dir}"] as const;
export type TextPathVar = (typeof TEXT_PATH_VARS)[number];

/** A token that looks like one of bosun's variables (checked in text; anything else stays text, like `{phase-dir}`). */
const RESERVED_TOKEN = /\{(?:pack|config|hook|bosun)-[a-z0-9-]*\}/g;
const PREFIXES = ["{pack-", "{config-", "{hook-", "{bosun-"].map((prefix) => Buffer.from(prefix));

/** Where a text file uses path variables: which ones, so the install knows what it must rewrite. */
export interface PathVarUse {
  vars: TextPathVar[];
  /** The first line that uses `{pack-dir}` (for "the pack has no files/" errors), or null. */
  packDirLine: number | null;
}

/**
 * The path variables in a pack file's bytes, or null when it has none (or is binary: a NUL byte
 * or not UTF-8, which is copied as it is). Only bytes holding one of the reserved prefixes are
 * decoded; a reserved-looking token that is not a text variable is a `PackError` with its line.
 */
export function scanPathVars(bytes: Buffer, file: string): PathVarUse | null {
  if (!PREFIXES.some((prefix) => bytes.includes(prefix))) return null;
  if (bytes.includes(0)) return null;
  if (!isUtf8(bytes)) return null;
  return scanText(bytes.toString("utf8"), file);
}

/** The same for text already read (a command or agent file); `firstLine` is the text's first line in the file. */
export function scanText(text: string, file: string, firstLine = 1): PathVarUse | null {
  const vars = new Set<TextPathVar>();
  let packDirLine: number | null = null;
  for (const match of text.matchAll(RESERVED_TOKEN)) {
    const token = match[0];
    const line = firstLine + countNewlines(text, match.index);
    if (!(TEXT_PATH_VARS as readonly string[]).includes(token)) {
      const hint = token === "{hook-dir}" || token === "{bosun-hook}" ? `${token} is for hook commands only; in text use ${TEXT_PATH_VARS.join(" or ")}` : `use ${TEXT_PATH_VARS.join(" or ")}`;
      throw new PackError(file, `unknown path variable ${token} (${hint})`, line);
    }
    vars.add(token as TextPathVar);
    if (token === "{pack-dir}" && packDirLine === null) packDirLine = line;
  }
  return vars.size === 0 ? null : { vars: [...vars], packDirLine };
}

/** What the text variables become for one runtime and scope. */
export type TextPathValues = Readonly<Record<TextPathVar, string>>;

/** Text with its path variables resolved. */
export function resolvePathVars(text: string, values: TextPathValues): string {
  return text.replaceAll("{pack-dir}", values["{pack-dir}"]).replaceAll("{config-dir}", values["{config-dir}"]);
}

/**
 * How a folder is written in installed text: for the global scope `~/…` when it is inside the
 * home folder (as `~/.claude/gsd-core/…` reads), else absolute; for the local scope
 * `./<path from the project folder>` (`./.claude/gsd-core`), so committed files work on every
 * machine and from any checkout.
 */
export function textPath(absolute: string, scope: InstallScope, paths: { home: string; cwd: string }): string {
  if (scope === "local") {
    const rel = relative(paths.cwd, absolute);
    if (rel === "") return ".";
    if (!rel.startsWith("..")) return `./${rel}`;
    return absolute;
  }
  if (absolute === paths.home) return "~";
  return absolute.startsWith(`${paths.home}/`) ? `~/${absolute.slice(paths.home.length + 1)}` : absolute;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

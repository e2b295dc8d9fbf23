import { readdirSync, type Dirent } from "node:fs";
import { extname, join } from "node:path";
import { isMissingPathError, statOrUndefined } from "../kernel/fs/stat.js";
import { ExtensionError } from "./extension-error.js";
import { assertPointName } from "./points.js";
import { pointDir, type ExtensionRoot } from "./roots.js";

export const EXTENSION_FILE_TYPES = [".js", ".mjs", ".ts"];

/** One extension file that will run at a point. */
export interface ExtensionFile {
  point: string;
  /** The file name without its extension: what overrides and ordering go by. */
  name: string;
  file: string;
  root: ExtensionRoot;
}

/**
 * The extension files for a point across all roots: a name found in a higher-priority root hides
 * the same name in lower ones, and the survivors run in file-name order whatever root they came
 * from, so `05_x` in a plugin runs before a built-in `10_y`.
 */
export function discoverExtensionFiles(point: string, roots: readonly ExtensionRoot[]): ExtensionFile[] {
  assertPointName(point);
  const byName = new Map<string, ExtensionFile>();
  for (const root of roots) {
    for (const found of filesInRoot(point, root)) {
      if (!byName.has(found.name)) byName.set(found.name, found);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function filesInRoot(point: string, root: ExtensionRoot): ExtensionFile[] {
  const dir = pointDir(root, point);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissingPathError(error)) return [];
    throw new ExtensionError(dir, point, `cannot list the folder (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const found = new Map<string, ExtensionFile>();
  for (const entry of entries) {
    const type = extname(entry.name);
    if (entry.name.startsWith(".") || !EXTENSION_FILE_TYPES.includes(type)) continue;
    const file = join(dir, entry.name);
    if (!entry.isFile() && !(entry.isSymbolicLink() && statOrUndefined(file)?.isFile())) continue;
    const name = entry.name.slice(0, -type.length);
    const twin = found.get(name);
    if (twin) {
      throw new ExtensionError(file, point, `has the same name as ${twin.file}; keep one of the two`);
    }
    found.set(name, { point, name, file, root });
  }
  return [...found.values()];
}

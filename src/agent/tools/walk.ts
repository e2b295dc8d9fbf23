import { join } from "node:path";
import type { FileOperations } from "./file-operations.js";

/** Folders never searched unless the pattern names them: version control and installed packages. */
export const SKIPPED_DIRS = [".git", "node_modules"];

/** The most entries one walk visits; a search that hits it says its result is incomplete. */
export const MAX_WALK_ENTRIES = 200_000;

export interface WalkResult {
  /** Files as paths relative to the start folder, with `/` separators, in sorted order. */
  files: string[];
  /** True when the walk stopped at MAX_WALK_ENTRIES or because it was aborted. */
  truncated: boolean;
}

/**
 * Lists the files under a folder, depth first in name order, without following symlinked folders
 * (a link loop cannot trap it). `include(dirPath)` decides whether to enter a folder.
 */
export async function walkFiles(
  files: FileOperations,
  root: string,
  options: { signal?: AbortSignal; enterDir?: (relativeDir: string, name: string) => boolean } = {},
): Promise<WalkResult> {
  const found: string[] = [];
  let visited = 0;
  const enter = options.enterDir ?? ((_dir: string, name: string) => !SKIPPED_DIRS.includes(name));
  const visit = async (relativeDir: string): Promise<boolean> => {
    let entries: { name: string; kind: string }[];
    try {
      entries = await files.readdir(relativeDir ? join(root, relativeDir) : root);
    } catch {
      return true; // unreadable folders are skipped, as find does with a warning
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++visited > MAX_WALK_ENTRIES || options.signal?.aborted) return false;
      const rel = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (entry.kind === "directory") {
        if (enter(relativeDir, entry.name) && !(await visit(rel))) return false;
      } else if (entry.kind === "file" || entry.kind === "symlink") {
        found.push(rel);
      }
    }
    return true;
  };
  const complete = await visit("");
  return { files: found, truncated: !complete };
}

/** Whether a pattern asks for something inside a normally skipped folder. */
export function patternNamesSkippedDir(pattern: string): boolean {
  return SKIPPED_DIRS.some((dir) => pattern.split("/").includes(dir));
}

import { join } from "node:path";
import type { RootStatus } from "../install/records/install-status.js";
import type { InstallFs } from "../install/apply/install-fs.js";

/** How a file bosun installed differs from what it wrote. */
export type FileChange = "edited" | "missing" | "replaced by a link" | "replaced by a folder" | "replaced by something that is not a file";

export interface IntactCheck {
  ok: boolean;
  files: { path: string; change: FileChange }[];
  /** Config entries bosun added (hooks, its TOML block) that are no longer there. */
  config: string[];
  /** What was wrong with bosun's own records in the root (a manifest that does not parse…). */
  problems: string[];
}

/**
 * Whether a root still holds what bosun installed, from the drift `bosun install --status`
 * computes; a changed file is told apart by what is there now (edited bytes, a symlink, a
 * folder), looked at without following links.
 */
export function intactCheck(status: RootStatus, fs: Pick<InstallFs, "lstatSync">): IntactCheck {
  const drift = status.drift ?? { modified: [], missing: [], config: [] };
  const files: IntactCheck["files"] = [];
  for (const rel of drift.missing) files.push({ path: rel, change: "missing" });
  for (const rel of drift.modified) files.push({ path: rel, change: changeAt(fs, join(status.dir, rel)) });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: files.length === 0 && drift.config.length === 0 && status.problems.length === 0, files, config: drift.config, problems: status.problems };
}

function changeAt(fs: Pick<InstallFs, "lstatSync">, path: string): FileChange {
  try {
    const info = fs.lstatSync(path, { throwIfNoEntry: false });
    if (!info) return "missing";
    if (info.isSymbolicLink()) return "replaced by a link";
    if (info.isDirectory()) return "replaced by a folder";
    return info.isFile() ? "edited" : "replaced by something that is not a file";
  } catch {
    return "edited";
  }
}

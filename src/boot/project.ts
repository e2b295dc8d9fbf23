import { dirname, join } from "node:path";
import { statOrUndefined } from "../fs/stat.js";

/** The project bosun is working in: the nearest folder with a `bosun.json` or a `.bosun/` folder. */
export interface Project {
  root: string;
  /** `<root>/.bosun`, whether or not it exists: project extensions and state live there. */
  dotDir: string;
}

/**
 * Walks up from `cwd` to the nearest project marker. The walk stops at a repository root (a folder
 * with `.git`) and never treats the home folder as a project, because `~/.bosun` is the legacy
 * user-data folder, not project settings.
 */
export function findProject(cwd: string, home: string): Project | null {
  let dir = cwd;
  for (;;) {
    if (dir !== home && (isFile(join(dir, "bosun.json")) || isDirectory(join(dir, ".bosun")))) {
      return { root: dir, dotDir: join(dir, ".bosun") };
    }
    const parent = dirname(dir);
    if (parent === dir || exists(join(dir, ".git"))) return null;
    dir = parent;
  }
}

function exists(path: string): boolean {
  return statOrUndefined(path) !== undefined;
}

function isFile(path: string): boolean {
  return statOrUndefined(path)?.isFile() ?? false;
}

function isDirectory(path: string): boolean {
  return statOrUndefined(path)?.isDirectory() ?? false;
}

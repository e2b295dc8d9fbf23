import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Project } from "./project.js";

/** Where "this project" is when bosun looks for earlier work here (`bosun run --continue`, `/sessions`). */
export interface ProjectScope {
  root: string;
  /** Work in folders below `root` counts too; not when `root` is the home folder itself. */
  nested: boolean;
}

/**
 * The bosun project (see `findProject`) when there is one, else the root of the git repository
 * around `cwd`, else `cwd` itself. The home folder is never a project root found by climbing (with
 * a dotfiles repository in it, every folder below would be one project), and in the home folder
 * itself only work done there counts.
 */
export function projectScope(cwd: string, home: string, project: Project | null): ProjectScope {
  if (project) return { root: project.root, nested: true };
  for (let dir = cwd; dir !== home; ) {
    if (existsSync(join(dir, ".git"))) return { root: dir, nested: true };
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { root: cwd, nested: cwd !== home };
}

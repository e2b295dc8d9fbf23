import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Project } from "./project.js";

/**
 * The folder that stands for "this project" when bosun looks for earlier work here (`bosun run
 * --continue`, `/sessions`): the bosun project (see `findProject`) when there is one, else the
 * root of the git repository around `cwd`, else `cwd` itself. The home folder is never a project
 * root: with a dotfiles repository in it, every folder below would otherwise be one project.
 */
export function projectRoot(cwd: string, home: string, project: Project | null): string {
  if (project) return project.root;
  for (let dir = cwd; dir !== home; ) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return cwd;
}

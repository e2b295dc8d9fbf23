import { findProject } from "./project.js";

/** Where "this project" is when bosun looks for earlier work here (`bosun run --continue`, `/sessions`). */
export interface ProjectScope {
  root: string;
  /** Work in folders below `root` counts too; not when `root` is the home folder, one above it, or a shared folder. */
  nested: boolean;
}

/**
 * The project root of `cwd` (see `findProject`): its git repository's root, else its bosun
 * project's, else `cwd` itself, the same root the instruction files are read from. Where `cwd`
 * is no place for a project (the home folder: with a dotfiles repository in it, every folder
 * below would be one project), only work done in `cwd` itself counts.
 */
export function projectScope(cwd: string, home: string): ProjectScope {
  const { root } = findProject(cwd, home);
  return root === null ? { root: cwd, nested: false } : { root, nested: true };
}

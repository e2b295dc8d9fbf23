import { dirname, join } from "node:path";
import { currentFileUser, untrustedBecause, type FileOwnership, type FileUser } from "./fs/file-trust.js";
import { isInside } from "./fs/path-inside.js";
import { lstatOrUndefined, realPathOrSelf, statOrUndefined } from "./fs/stat.js";
import type { ConfigWarning } from "./config/config-warning.js";

/** The project bosun is working in: the nearest folder with a `bosun.json` or a `.bosun/` folder. */
export interface Project {
  root: string;
  /** `<root>/.bosun`, whether or not it exists: project extensions and state live there. */
  dotDir: string;
}

/** Why the walk up from the working folder went no higher. */
export interface WalkStop {
  /**
   * `git`: `folder` has a `.git` (it is the repository root); `top`: `folder` is the top of the
   * file system. Otherwise `folder` is the first one not entered: `home` (the home folder or one
   * above it), `shared` (others may write in it), `device` (another file system), `unreadable`.
   */
  reason: "git" | "top" | "home" | "shared" | "device" | "unreadable";
  folder: string;
}

/** What the walk up from the working folder found. */
export interface ProjectLookup {
  /** The bosun project: the nearest folder with project config, when that config may be used. */
  project: Project | null;
  /** The root of the git repository around the working folder. */
  gitRoot: string | null;
  /**
   * Where this project's sessions and instruction files are: the git root, else the bosun
   * project's root, else the working folder itself. Null when the working folder is no place for
   * a project: the home folder or one above it, or a folder others may write in.
   */
  root: string | null;
  stop: WalkStop;
  /** Project config found but not used, and why. */
  warnings: ConfigWarning[];
}

/** One of `bosun.json`, `.bosun/` and `.bosun/bosun.json` that exists, with its owner, group and mode. */
export interface ProjectMarker extends FileOwnership {
  path: string;
}

/** What the walk needs to know about one folder. */
export interface FolderFacts {
  /** The file system the folder is on (`stat().dev`). */
  device: number;
  /** Others may write in it (`/tmp`, a shared drop folder): never a project, nor above one. */
  shared: boolean;
  hasGit: boolean;
  markers: ProjectMarker[];
}

/**
 * Walks up from `cwd` (see `lookUpProject`), reading the folders from disk. `user` is who the
 * project config must belong to (null where there are no uids).
 */
export function findProject(cwd: string, home: string, user: FileUser | null = currentFileUser()): ProjectLookup {
  return lookUpProject(cwd, [home, realPathOrSelf(home)], user, folderFacts);
}

/**
 * The one walk that decides where the project is, with the file system passed in as `facts`.
 * It goes up from `cwd` to the repository root (a folder with `.git`), as git does, and no
 * further than where the file system changes; it never reaches the home folder or a folder above
 * it, nor a folder others may write in: a project may be a subfolder of home, but `~/.bosun` is
 * the legacy user-data folder and `~/.git` is a dotfiles repository, and a `.bosun/`, `.git` or
 * `AGENTS.md` in a shared folder such as `/tmp` must not apply to everything below it.
 *
 * The nearest folder with project config on the way is the bosun project, unless that config
 * belongs to another user or others can write it (see `untrustedBecause`): anyone who can
 * change it could change what bosun runs. It is then reported, and there is no bosun project.
 */
export function lookUpProject(cwd: string, homes: string[], user: FileUser | null, facts: (dir: string) => FolderFacts | undefined): ProjectLookup {
  const notEntered = (dir: string, found: FolderFacts | undefined): WalkStop["reason"] | null => {
    if (found === undefined) return "unreadable";
    if (homes.some((home) => isInside(home, dir))) return "home";
    return found.shared ? "shared" : null;
  };
  let dir = cwd;
  let here = facts(dir);
  const refused = notEntered(dir, here);
  if (refused !== null || here === undefined) return { project: null, gitRoot: null, root: null, stop: { reason: refused ?? "unreadable", folder: dir }, warnings: [] };

  let project: Project | null = null;
  let warnings: ConfigWarning[] | null = null;
  const found = (gitRoot: string | null, stop: WalkStop): ProjectLookup => ({ project, gitRoot, root: gitRoot ?? project?.root ?? cwd, stop, warnings: warnings ?? [] });
  for (;;) {
    if (warnings === null && here.markers.length > 0) {
      warnings = here.markers.flatMap((marker) => unsafeMarkerWarning(marker, user));
      if (warnings.length === 0) project = { root: dir, dotDir: join(dir, ".bosun") };
    }
    if (here.hasGit) return found(dir, { reason: "git", folder: dir });
    const parent = dirname(dir);
    if (parent === dir) return found(null, { reason: "top", folder: dir });
    const above = facts(parent);
    const stop = above !== undefined && above.device !== here.device ? "device" : notEntered(parent, above);
    if (stop !== null || above === undefined) return found(null, { reason: stop ?? "unreadable", folder: parent });
    dir = parent;
    here = above;
  }
}

function unsafeMarkerWarning(marker: ProjectMarker, user: FileUser | null): ConfigWarning[] {
  const problem = untrustedBecause(marker, user);
  return problem ? [{ kind: "ignored-project", file: marker.path, line: null, key: null, message: `project config not used: it ${problem}`, suggestion: null }] : [];
}

function folderFacts(dir: string): FolderFacts | undefined {
  const info = statOrUndefined(dir);
  if (!info?.isDirectory()) return undefined;
  const markers: ProjectMarker[] = [];
  const mark = (path: string, kind: "file" | "dir"): boolean => {
    const found = statOrUndefined(path);
    if (!found || (kind === "file" ? !found.isFile() : !found.isDirectory())) return false;
    markers.push({ path, uid: found.uid, gid: found.gid, mode: found.mode });
    return true;
  };
  mark(join(dir, "bosun.json"), "file");
  if (mark(join(dir, ".bosun"), "dir")) mark(join(dir, ".bosun", "bosun.json"), "file");
  return { device: info.dev, shared: (info.mode & 0o002) !== 0, hasGit: hasEntry(join(dir, ".git")), markers };
}

/** A `.git` folder, a worktree's `.git` file, or a symlink: git takes each for a repository root. */
function hasEntry(path: string): boolean {
  try {
    return lstatOrUndefined(path) !== undefined;
  } catch {
    return false;
  }
}

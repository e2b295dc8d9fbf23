import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { statOrUndefined } from "../fs/stat.js";
import type { ConfigWarning } from "./config-warning.js";

/** The project bosun is working in: the nearest folder with a `bosun.json` or a `.bosun/` folder. */
export interface Project {
  root: string;
  /** `<root>/.bosun`, whether or not it exists: project extensions and state live there. */
  dotDir: string;
}

/** The project found, and the project config that was not used because it is not safe. */
export interface ProjectLookup {
  project: Project | null;
  warnings: ConfigWarning[];
}

/** One of `bosun.json`, `.bosun/` and `.bosun/bosun.json` that exists, with its owner, group and mode. */
export interface ProjectMarker {
  path: string;
  uid: number;
  gid: number;
  mode: number;
}

/** Who bosun runs as: the project config must be theirs. */
export interface ProjectUser {
  uid: number;
  /** The user's own (primary) group: a file only that group can write is still the user's. */
  gid: number;
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
 * Walks up from `cwd` to the nearest project marker (see `lookUpProject`), reading the folders
 * from disk. `user` is who the project config must belong to (null where there are no uids).
 */
export function findProject(cwd: string, home: string, user: ProjectUser | null = currentUser()): ProjectLookup {
  return lookUpProject(cwd, [home, realPath(home)], user, folderFacts);
}

/**
 * The walk, with the file system passed in as `facts`. It stops, as git does, at a repository root
 * (a folder with `.git`) and where the file system changes, and it never reaches the home folder
 * or above it, nor a folder others may write in: a project may be a subfolder of home, but `~/.bosun` is the legacy user-data
 * folder and a `.bosun/` in a shared folder such as `/tmp` must not apply to everything below.
 * A project config owned by another user, writable by others, or writable by a group other than
 * the user's own is not used (anyone who can write it could change what bosun runs); it is
 * reported instead. Files that only the user's own group can write are the norm where every user
 * has a group of their own and the umask is 002 (Debian's and Ubuntu's default).
 */
export function lookUpProject(cwd: string, homes: string[], user: ProjectUser | null, facts: (dir: string) => FolderFacts | undefined): ProjectLookup {
  let dir = cwd;
  let here = facts(dir);
  while (here && !here.shared && !homes.some((home) => isSameOrAncestor(dir, home))) {
    if (here.markers.length > 0) {
      const warnings = here.markers.flatMap((marker) => unsafeMarkerWarning(marker, user));
      return warnings.length > 0 ? { project: null, warnings } : { project: { root: dir, dotDir: join(dir, ".bosun") }, warnings: [] };
    }
    const parent = dirname(dir);
    if (here.hasGit || parent === dir) break;
    const above = facts(parent);
    if (above?.device !== here.device) break;
    dir = parent;
    here = above;
  }
  return { project: null, warnings: [] };
}

function unsafeMarkerWarning(marker: ProjectMarker, user: ProjectUser | null): ConfigWarning[] {
  let problem: string | null = null;
  const groupWritable = (marker.mode & 0o020) !== 0 && marker.gid !== user?.gid;
  const othersWritable = (marker.mode & 0o002) !== 0;
  if (user !== null && marker.uid !== user.uid) {
    problem = `it belongs to user ${marker.uid}, not to you (user ${user.uid}); chown it to yourself if you trust it`;
  } else if (groupWritable || othersWritable) {
    const who = (groupWritable ? [`group ${marker.gid}`] : []).concat(othersWritable ? ["others"] : []).join(" and ");
    problem = `it is writable by ${who} (mode ${(marker.mode & 0o777).toString(8).padStart(4, "0")}); chmod go-w it if you trust it`;
  }
  return problem ? [{ kind: "ignored-project", file: marker.path, line: null, key: null, message: `project config not used: ${problem}`, suggestion: null }] : [];
}

function isSameOrAncestor(dir: string, path: string): boolean {
  return dir === path || path.startsWith(dir.endsWith("/") ? dir : dir + "/");
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
  return { device: info.dev, shared: (info.mode & 0o002) !== 0, hasGit: statOrUndefined(join(dir, ".git")) !== undefined, markers };
}

function currentUser(): ProjectUser | null {
  return process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : null;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

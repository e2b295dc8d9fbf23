import { constants, type Stats } from "node:fs";
import { join } from "node:path";
import { displayPath, type BosunPaths } from "../kernel/paths.js";
import { describeError } from "../kernel/errors.js";
import { errorCode, lstatIfExists } from "./move.js";
import type { StartupAction, StartupContext, StartupFs, StartupNote, StartupStep, StepPlan } from "./types.js";

/**
 * bosun's own folders, each with the folders bosun makes in it. Folders that hold what the user
 * put there (plugins, agent profiles, extensions) are private through the folder above them.
 */
function ownFolders(paths: BosunPaths): { root: string; below: string[]; listed?: string }[] {
  return [
    { root: paths.config, below: [] },
    // runtimes/<id>/ holds bosun's own logins for each agent: every entry is one of bosun's folders.
    { root: paths.data, below: ["sessions", "runtimes", "bin"], listed: "runtimes" },
    { root: paths.cache, below: ["models-dev", "status"] },
    { root: paths.state, below: ["logs", "locks"] },
  ];
}

export const privateFoldersStep: StartupStep = {
  id: "40_private_folders",
  plan: planPrivateFolders,
};

/**
 * Plans making bosun's folders private (0700) where group or others have any access: folders made
 * under a 022 umask by older versions, or moved in by `10_legacy_layout` with their old mode. Only
 * real folders are changed: a symlink is not followed (nor is anything under it). Whatever this
 * step cannot change is a warning, never a failed start: a folder owned by someone else, one on a
 * read-only file system, a folder it cannot list. A folder of someone else's is not listed.
 */
export function planPrivateFolders(ctx: StartupContext): StepPlan {
  const { fs, paths } = ctx;
  const plan: StepPlan = { actions: [], notes: [] };
  const show = (path: string) => displayPath(path, paths.home);
  const warn = (message: string) => plan.notes.push({ level: "warn", message });
  const uid = process.getuid?.();
  const theirs = (info: Stats) => uid !== undefined && info.uid !== uid;
  const visit = (dir: string): Stats | undefined => {
    const info = lstatIfExists(fs, dir);
    if (!info?.isDirectory()) return undefined;
    if ((info.mode & 0o077) === 0) return info;
    if (theirs(info)) warn(`${show(dir)} (${octal(info.mode)}) is open to others but belongs to user ${info.uid}, not you; left alone: have its owner run chmod 700 on it`);
    // Checked here so that a read-only mount is not announced, and warned about, at every start.
    else if (onReadOnlyFileSystem(fs, dir)) warn(`${show(dir)} (${octal(info.mode)}) is open to others but on a read-only file system; left as it is: make it private where it is mounted from`);
    else plan.actions.push(makePrivate(fs, dir, info, show(dir)));
    return info;
  };
  const entries = (dir: string, info: Stats): string[] => {
    if (theirs(info)) {
      warn(`${show(dir)} belongs to user ${info.uid}, not you; the folders in it were not checked`);
      return [];
    }
    try {
      return fs.readdirSync(dir).sort();
    } catch (error) {
      warn(`${show(dir)} cannot be listed (${describeError(error)}); the folders in it were not checked`);
      return [];
    }
  };
  for (const { root, below, listed } of ownFolders(paths)) {
    if (!visit(root)) continue;
    for (const name of below) {
      const dir = join(root, name);
      const info = visit(dir);
      if (info && name === listed) for (const entry of entries(dir, info)) visit(join(dir, entry));
    }
  }
  return plan;
}

function onReadOnlyFileSystem(fs: StartupFs, dir: string): boolean {
  try {
    fs.accessSync(dir, constants.W_OK);
    return false;
  } catch (error) {
    return errorCode(error) === "EROFS";
  }
}

/** Errors that mean the mode cannot be changed here: a read-only file system, or not allowed to. */
const REFUSED = new Set(["EROFS", "EPERM", "EACCES"]);

/**
 * Changes the mode through a descriptor opened without following symlinks, after checking it is
 * still the folder that was planned: a folder swapped for a link meanwhile is left alone, and so
 * is one the file system will not change (a warning).
 */
function makePrivate(fs: StartupFs, dir: string, planned: Stats, shown: string): StartupAction {
  return {
    kind: "chmod",
    describe: `make ${shown} private (${octal(planned.mode)} → ${octal(privateMode(planned))})`,
    apply: () => {
      const changed: StartupNote[] = [{ level: "warn", message: `${shown} changed while bosun was making it private; left alone` }];
      const refused = (error: unknown): StartupNote[] => {
        if (!REFUSED.has(errorCode(error))) throw error;
        return [{ level: "warn", message: `left as it is: ${shown} could not be made private (${describeError(error)})` }];
      };
      let fd: number;
      try {
        fd = fs.openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      } catch (error) {
        // Now a symlink (ELOOP), not a folder, or gone.
        if (["ELOOP", "ENOTDIR", "ENOENT"].includes(errorCode(error))) return changed;
        return refused(error);
      }
      try {
        const now = fs.fstatSync(fd);
        if (now.ino !== planned.ino || now.dev !== planned.dev) return changed;
        fs.fchmodSync(fd, privateMode(now));
      } catch (error) {
        return refused(error);
      } finally {
        fs.closeSync(fd);
      }
      return [];
    },
  };
}

/** The mode without any group or other bits (setuid, setgid and sticky kept). */
function privateMode(info: Stats): number {
  return info.mode & 0o7700;
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(3, "0");
}

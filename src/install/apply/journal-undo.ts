import { errorCode, type InstallFs } from "./install-fs.js";
import type { JournalRecord } from "./journal.js";
import type { RestoreFailure } from "../install-errors.js";
import { JOURNAL_DIR, stateRel, type InstallRoot } from "../records/root.js";
import { RootGuard } from "../plan/safe-path.js";

/** A path an undo step would touch that does not stay inside the root on disk: the step is skipped. */
class OutsideRootError extends Error {
  constructor(
    readonly rel: string,
    problem: string,
  ) {
    super(problem);
  }
}

/**
 * Undoes a run, newest change first, and reports each path it could not put back. Every step
 * is safe to repeat: a change that never happened is skipped. Every path a step touches (the
 * stash slot too) is checked as the executor checks it: a folder on the way that is a symlink
 * out of the root, a file or a broken link fails that step, which then touches nothing, so a
 * journal in a cloned repository cannot make bosun remove or write anything outside it.
 */
export function undoJournal(fs: InstallFs, root: InstallRoot, runId: string, records: readonly JournalRecord[]): RestoreFailure[] {
  const failures: RestoreFailure[] = [];
  const guard = new RootGuard(root.dir, fs);
  const at = (rel: string) => {
    const checked = guard.check(rel);
    if (!checked.ok) throw new OutsideRootError(rel, checked.problem);
    return checked.path;
  };
  const attempt = (path: string, step: () => void) => {
    try {
      step();
    } catch (error) {
      if (error instanceof OutsideRootError) failures.push({ path: error.rel, error: error.message });
      else failures.push({ path, error: errorCode(error) ?? String((error as Error).message ?? error) });
    }
  };
  const stashRel = `${stateRel(root, JOURNAL_DIR)}/${runId}`;
  for (const record of [...records].reverse()) {
    // A step may put back a symlink (a stashed original): what the guard learned is forgotten.
    guard.reset();
    switch (record.op) {
      case "create":
        attempt(record.path, () => removeFile(fs, at(record.path)));
        break;
      case "stash":
        attempt(record.path, () => {
          const stash = at(`${stashRel}/${record.n}`);
          restoreStashed(fs, stash, at(record.path));
        });
        break;
      case "move":
        attempt(record.to, () => {
          const to = at(record.to);
          const from = at(record.from);
          if (fs.lstatSync(to, { throwIfNoEntry: false }) && !fs.lstatSync(from, { throwIfNoEntry: false })) fs.renameSync(to, from);
        });
        break;
      case "mkdir":
        attempt(record.path, () => {
          const path = at(record.path);
          if (fs.lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) fs.rmdirSync(path);
        });
        break;
      case "rmdir":
        attempt(record.path, () => {
          const path = at(record.path);
          if (fs.lstatSync(path, { throwIfNoEntry: false })) return;
          fs.mkdirSync(path);
          fs.chmodSync(path, record.mode);
        });
        break;
      case "intent":
        // Each path on its own: one that cannot be undone does not keep the others.
        for (const path of [...record.files].reverse()) attempt(path, () => removeFile(fs, at(path)));
        for (const path of [...record.dirs].sort((a, b) => b.split("/").length - a.split("/").length)) attempt(path, () => removeIntendedDir(fs, at(path)));
        break;
      case "begin":
      case "commit":
      case "rolled-back":
        break;
    }
  }
  return failures;
}

/** Removes what is at `path` unless it is a folder (a new file, or a link, is never followed). */
function removeFile(fs: InstallFs, path: string): void {
  const info = fs.lstatSync(path, { throwIfNoEntry: false });
  if (info && !info.isDirectory()) fs.unlinkSync(path);
}

/** Puts a stashed original back (a move; a copy across file systems only when it is a file: a link is never followed). Gone already: nothing to do. */
function restoreStashed(fs: InstallFs, stash: string, target: string): void {
  if (!fs.lstatSync(stash, { throwIfNoEntry: false })) return;
  try {
    fs.renameSync(stash, target);
  } catch (error) {
    if (errorCode(error) !== "EXDEV" || !fs.lstatSync(stash).isFile()) throw error;
    fs.copyFileSync(stash, target);
    fs.chmodSync(target, fs.lstatSync(stash).mode & 0o7777);
    fs.unlinkSync(stash);
  }
}

/** Removes a folder a run meant to make, while it is empty: one someone else filled meanwhile stays (with what they put there). */
function removeIntendedDir(fs: InstallFs, dir: string): void {
  if (!fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  try {
    fs.rmdirSync(dir);
  } catch (error) {
    if (errorCode(error) !== "ENOTEMPTY" && errorCode(error) !== "EEXIST") throw error;
  }
}

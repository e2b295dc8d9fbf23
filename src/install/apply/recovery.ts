import { join } from "node:path";
import { InstallFailedError, InstallFileError } from "../install-errors.js";
import { errorCode, exists, isNonFolder, type InstallFs } from "./install-fs.js";
import { journalDir, listJournals, markRolledBack, pruneJournals, removeJournal, type FoundJournal } from "./journal.js";
import { undoJournal } from "./journal-undo.js";
import type { InstallRoot } from "../records/root.js";

/**
 * Rolls back every interrupted run in this root (newest first) and tidies the stash a run killed
 * after its commit left behind; returns the ids of the runs rolled back.
 */
export function recoverInterrupted(fs: InstallFs, root: InstallRoot, keep: number, now: () => Date): string[] {
  const rolledBack: string[] = [];
  for (const journal of listJournals(fs, root).reverse()) {
    if (journal.committed) continue;
    // A damaged line: only what was recorded after it is undone (newest first, as any rollback
    // starts); its own change, and so everything before it, is left as it is, with the journal
    // and the stash, so nothing bosun moved aside is lost.
    const failures = undoJournal(fs, root, journal.runId, journal.records);
    const damaged = journal.damaged && damagedJournal(fs, root, journal, journal.damaged);
    if (failures.length > 0) {
      throw new InstallFailedError(
        damaged ?? new Error(`an interrupted install (${journal.runId}) could not be fully rolled back`),
        failures.map((failure) => ({ root: root.dir, failure })),
      );
    }
    if (damaged) {
      // Undone once: the runs after this one only say so (what you make there since is yours).
      if (journal.records.length > 0) markRolledBack(fs, journal.file, now().toISOString());
      throw damaged;
    }
    removeJournal(fs, root, journal.runId);
    rolledBack.push(journal.runId);
  }
  if (leftoverStash(fs, root)) pruneJournals(fs, root, keep);
  return rolledBack;
}

function damagedJournal(fs: InstallFs, root: InstallRoot, journal: FoundJournal, { line, changes }: { line: number; changes: number }): InstallFileError {
  const stash = join(journalDir(root), journal.runId);
  const then = exists(fs, stash) ? `what the run had moved aside is in ${stash}/: put back what you need, then delete the journal and that folder` : "delete the journal";
  return new InstallFileError(
    journal.file,
    `line ${line} is damaged, so bosun cannot tell what that interrupted run changed up to there`,
    `it undid the ${changes} change${changes === 1 ? "" : "s"} recorded after that line and left the rest as it is; ${then}, then run again`,
  );
}

/**
 * The journals of a root: `busy` when a run is at work, was killed, or left its stash (it needs
 * the lock and a look before anything else); `signature` changes whenever a run starts or ends.
 */
export function journalState(fs: InstallFs, root: InstallRoot): { busy: boolean; signature: string } {
  let names: string[];
  try {
    names = fs.readdirSync(journalDir(root)).sort();
  } catch (error) {
    // A file (or FIFO…) named bosun-journal; not when a folder above it is not a folder.
    if (errorCode(error) === "ENOTDIR" && isNonFolder(fs, journalDir(root))) {
      throw new InstallFileError(journalDir(root), "is not a folder", "bosun keeps its journals in a folder of that name: move it out of the way, then run again");
    }
    return { busy: false, signature: "" };
  }
  try {
    const busy = listJournals(fs, root).some((journal) => !journal.committed) || leftoverStash(fs, root);
    return { busy, signature: names.join("\n") };
  } catch (error) {
    // A journal bosun cannot use stops the run before anything is changed; anything else (a
    // run at work here) is looked at again under the lock.
    if (error instanceof InstallFileError) throw error;
    return { busy: true, signature: names.join("\n") };
  }
}

/** A committed run's stash folder still there (the run was killed while tidying up). */
export function leftoverStash(fs: InstallFs, root: InstallRoot): boolean {
  try {
    return fs.readdirSync(journalDir(root), { withFileTypes: true }).some((entry) => entry.isDirectory());
  } catch {
    return false;
  }
}

import { InstallFailedError } from "./install-errors.js";
import type { InstallFs } from "./install-fs.js";
import { journalDir, listJournals, pruneJournals, removeJournal, undoJournal } from "./journal.js";
import type { InstallRoot } from "./root.js";

/**
 * Rolls back every interrupted run in this root (newest first) and tidies the stash a run killed
 * after its commit left behind; returns the ids of the runs rolled back.
 */
export function recoverInterrupted(fs: InstallFs, root: InstallRoot, keep: number): string[] {
  const rolledBack: string[] = [];
  for (const journal of listJournals(fs, root).reverse()) {
    if (journal.committed) continue;
    const failures = undoJournal(fs, root, journal.runId, journal.records);
    if (failures.length > 0) {
      throw new InstallFailedError(
        new Error(`an interrupted install (${journal.runId}) could not be fully rolled back`),
        failures.map((failure) => ({ root: root.dir, failure })),
      );
    }
    removeJournal(fs, root, journal.runId);
    rolledBack.push(journal.runId);
  }
  if (leftoverStash(fs, root)) pruneJournals(fs, root, keep);
  return rolledBack;
}

/**
 * The journals of a root: `busy` when a run is at work, was killed, or left its stash (it needs
 * the lock and a look before anything else); `signature` changes whenever a run starts or ends.
 */
export function journalState(fs: InstallFs, root: InstallRoot): { busy: boolean; signature: string } {
  let names: string[];
  try {
    names = fs.readdirSync(journalDir(root)).sort();
  } catch {
    return { busy: false, signature: "" };
  }
  try {
    const busy = listJournals(fs, root).some((journal) => !journal.committed) || leftoverStash(fs, root);
    return { busy, signature: names.join("\n") };
  } catch {
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

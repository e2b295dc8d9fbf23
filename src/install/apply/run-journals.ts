import { join } from "node:path";
import { exists, tryRmdir, type InstallFs } from "./install-fs.js";
import type { RootExecutor } from "./executor.js";
import { journalDir, listJournals, pruneJournals, removeJournal } from "./journal.js";
import { undoJournal } from "./journal-undo.js";
import type { RestoreFailure } from "../install-errors.js";
import { MANIFEST_FILE, statePath, type InstallRoot } from "../records/root.js";

/**
 * A failed run's roots put back, the last one applied first: each root's journal undone (and
 * removed once nothing failed to come back; one never opened just removed). Returns every path
 * that could not be put back, with its root.
 */
export function rollBackRoots(fs: InstallFs, executors: readonly RootExecutor[], runId: string): { root: string; failure: RestoreFailure }[] {
  const failures: { root: string; failure: RestoreFailure }[] = [];
  for (const executor of [...executors].reverse()) {
    const { journal, root } = executor;
    if (!journal.isOpen && journal.records.length === 0) {
      removeJournal(fs, root, runId);
      tryRmdir(fs, journalDir(root));
      continue;
    }
    journal.close();
    const restored = undoJournal(fs, root, runId, journal.records);
    for (const failure of restored) failures.push({ root: root.dir, failure });
    if (restored.length === 0) removeJournal(fs, root, runId);
    tryRmdir(fs, journalDir(root));
  }
  return failures;
}

/**
 * A committed run's roots tidied: a root bosun left loses its journals and state folders, the
 * others keep their newest journals. A failure here is only a warning: the install is complete.
 */
export function tidyRoots(fs: InstallFs, executors: readonly RootExecutor[], keepJournals: number, warnings: string[]): void {
  for (const executor of executors) {
    const { root } = executor;
    try {
      const gone = !exists(fs, statePath(root, MANIFEST_FILE));
      if (gone) {
        for (const journal of listJournals(fs, root)) removeJournal(fs, root, journal.runId);
        tryRmdir(fs, journalDir(root));
        for (const dir of stateDirChain(root)) tryRmdir(fs, dir);
      } else pruneJournals(fs, root, keepJournals);
    } catch (error) {
      warnings.push(`could not tidy ${journalDir(root)}: ${(error as Error).message}`);
    }
  }
}

/** bosun's state folder in a root and the folders above it up to the root, deepest first (to remove once empty). */
export function stateDirChain(root: InstallRoot): string[] {
  if (!root.stateDir) return [];
  const parts = root.stateDir.split("/");
  return parts.map((_, i) => join(root.dir, ...parts.slice(0, parts.length - i)));
}

import { UserError } from "../kernel/errors.js";
import type { PlannedAction } from "./plan/plan-types.js";

const SAMPLE = 3;

/** An interrupted run rolled back before the run found it could not go on. */
export interface RolledBack {
  root: string;
  run: string;
}

/** "nothing was written", true also when an interrupted run was rolled back first (that is said). */
function nothingElse(verb: string, rolledBack: readonly RolledBack[]): string {
  if (rolledBack.length === 0) return `nothing was ${verb}`;
  const runs = rolledBack.map(({ root, run }) => `${run} in ${root}`).join(", ");
  return `the interrupted install${rolledBack.length === 1 ? "" : "s"} ${runs} ${rolledBack.length === 1 ? "was" : "were"} rolled back first; nothing else was ${verb}`;
}

/** Actions bosun refuses whatever the answer: something at a path must be fixed first. Nothing was written. */
export class InstallBlockedError extends UserError {
  override name = "InstallBlockedError";
  constructor(readonly blocked: { root: string; action: PlannedAction }[]) {
    const lines = blocked.slice(0, SAMPLE).map(({ action }) => action.blocked as string);
    const more = blocked.length > SAMPLE ? ` (+${blocked.length - SAMPLE} more; see --dry-run)` : "";
    super(`nothing was installed: ${blocked.length} path${blocked.length === 1 ? "" : "s"} must be fixed first: ${lines.join("; ")}${more}`);
  }
}

/**
 * Files need your choice and nobody can be asked (stdin is not a terminal, no --resolve).
 * Nothing was written (but the rollback of the interrupted runs in `rolledBack`).
 */
export class NeedsChoiceError extends UserError {
  override name = "NeedsChoiceError";
  constructor(
    readonly questions: { root: string; action: PlannedAction }[],
    readonly rolledBack: readonly RolledBack[] = [],
  ) {
    const sample = questions.slice(0, SAMPLE).map(({ action }) => action.rel);
    const more = questions.length > SAMPLE ? ` (+${questions.length - SAMPLE} more)` : "";
    super(
      `${questions.length} file${questions.length === 1 ? "" : "s"} bosun does not own need${questions.length === 1 ? "s" : ""} your choice (${sample.join(", ")}${more}) and stdin is not a terminal; ` +
        `${nothingElse("written", rolledBack)}. Pass --resolve keep to keep them, or --resolve remove to back them up and let the pack replace or remove them (bosun install --dry-run lists them)`,
    );
  }
}

/**
 * An install failed part way and was rolled back. Lists every path that could not be put back
 * (then the journal is kept, and the next run tries again before anything else).
 */
export class InstallFailedError extends UserError {
  override name = "InstallFailedError";
  constructor(
    override readonly cause: unknown,
    readonly failures: { root: string; failure: RestoreFailure }[],
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      failures.length === 0
        ? `install failed and was rolled back; nothing changed: ${reason}`
        : `install failed (${reason}) and ${failures.length} path${failures.length === 1 ? "" : "s"} could not be restored: ${failures
            .map(({ root, failure }) => `${root}/${failure.path} (${failure.error})`)
            .join(", ")}; the journal is kept and the next bosun install retries the rollback first`,
    );
  }
}

/**
 * A path bosun needs in a root is not what it must be: its manifest or a journal is a folder or a
 * special file, a journal has a damaged line, the root itself is a file. Stops the run, naming
 * the path and what to do.
 */
export class InstallFileError extends UserError {
  override name = "InstallFileError";
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}: ${problem}; ${fix}`);
  }
}

/**
 * `bosun uninstall NAME` where no folder of the run has a pack of that name. Nothing was changed
 * (but the rollback of the interrupted runs in `rolledBack`, found under the lock).
 */
export class PackNotInstalledError extends UserError {
  override name = "PackNotInstalledError";
  constructor(
    readonly pack: string,
    /** What each runtime and scope of the run has instead (`name version`). */
    readonly installed: { runtime: string; scope: string; packs: string[] }[],
    readonly rolledBack: readonly RolledBack[] = [],
  ) {
    const where = installed.map(({ runtime, scope, packs }) => `${runtime} ${scope} (${packs.length === 0 ? "nothing installed" : `installed: ${packs.join(", ")}`})`);
    super(`pack ${JSON.stringify(pack.slice(0, 80))} is not installed in ${where.length === 1 ? where[0] : `any of ${where.join(", ")}`}; ${nothingElse("changed", rolledBack)}`);
  }
}

/**
 * Installing a pack into a folder where another pack installed there has taken its place
 * (`succeed-pack`): the two would install the same things twice. Nothing was changed.
 */
export class PackSucceededError extends UserError {
  override name = "PackSucceededError";
  constructor(
    readonly root: string,
    readonly pack: string,
    readonly successor: string,
    readonly successorVersion: string,
  ) {
    super(`pack ${pack} is succeeded by ${successor} ${successorVersion}, which is installed in ${root}; nothing was changed. Install ${successor} to upgrade, or uninstall ${successor} there first to go back to ${pack}`);
  }
}

/** A path that could not be put back, and why. */
export interface RestoreFailure {
  path: string;
  error: string;
}

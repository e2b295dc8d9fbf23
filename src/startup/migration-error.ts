import { describeError, UserError } from "../kernel/errors.js";

/** A startup migration step that could not make a change; bosun stops instead of going on. */
export class StartupMigrationError extends UserError {
  override name = "StartupMigrationError";
  constructor(
    readonly step: string,
    readonly action: string,
    cause: unknown,
  ) {
    super(`startup migration ${step} could not ${action}: ${describeError(cause)}`, { cause });
  }
}

/**
 * Errors a user can fix. Each carries the data that explains it and renders as one human line at
 * the CLI edge (exit code 1). Anything else that escapes is a bug (exit code 2).
 */
export class UserError extends Error {
  override name = "UserError";
  /** Exit code the CLI uses for this error. */
  readonly exitCode: number = 1;
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** The message of anything thrown, for reports that must not crash on odd values. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

import { UserError } from "../../kernel/errors.js";

/** A `bosun.lock` bosun cannot read: names the file (and line and field when known) and the fix. */
export class LockFileError extends UserError {
  override name = "LockFileError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    readonly problem: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${field === null ? "" : `${field}: `}${problem}; nothing was changed`);
  }
}

/**
 * `bosun install --frozen` cannot install exactly what the lock says (the lock is missing, the
 * pack differs from it, a runtime or scope asked for is not in it): nothing was written.
 */
export class FrozenMismatchError extends UserError {
  override name = "FrozenMismatchError";
  constructor(
    readonly lockFile: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`--frozen: ${problem} (${lockFile}); nothing was written. ${fix}`);
  }
}

/** `bosun install --check` found drift: the report above lists each (exit 1). */
export class LockDriftError extends UserError {
  override name = "LockDriftError";
  constructor(readonly count: number) {
    super(`the installs differ from bosun.lock in ${count} way${count === 1 ? "" : "s"}; each line above says what`);
  }
}

/** No `bosun.lock` where `--frozen` or `--check` looks for it. */
export class LockMissingError extends UserError {
  override name = "LockMissingError";
  constructor(
    readonly where: string,
    readonly flag: "--frozen" | "--check",
  ) {
    super(`${flag}: there is no bosun.lock in ${where}; nothing was written. Run bosun install there (without ${flag}) to write one, or run ${flag} from the project's root folder`);
  }
}

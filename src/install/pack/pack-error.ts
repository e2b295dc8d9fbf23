import { UserError } from "../../kernel/errors.js";

/** A pack bosun will not install: names the file (and line and field when known) and what is wrong. */
export class PackError extends UserError {
  override name = "PackError";
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly line: number | null = null,
    readonly field: string | null = null,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${field === null ? "" : `${field}: `}${problem}`);
  }
}

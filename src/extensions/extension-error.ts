import { UserError } from "../kernel/errors.js";

/** An extension file that could not be loaded, broke a rule, or threw: names the file. */
export class ExtensionError extends UserError {
  override name = "ExtensionError";
  constructor(
    readonly file: string,
    readonly point: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`extension ${file} (${point}): ${problem}`, options);
  }
}

import { UserError } from "../../kernel/errors.js";

/** `bosun pack import` refused its input (runtime, folder, flags, out folder): one line, nothing written. */
export class ImportError extends UserError {
  override name = "ImportError";
}

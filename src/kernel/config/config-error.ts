import { UserError } from "../errors.js";

/** A config file bosun cannot use: names the file, the line and (when known) the field to fix. */
export class ConfigError extends UserError {
  override name = "ConfigError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    readonly problem: string,
  ) {
    super([line === null ? file : `${file}:${line}`, field, problem].filter(Boolean).join(": "));
  }
}

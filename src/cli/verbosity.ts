import type { Command } from "commander";
import { UserError } from "../kernel/errors.js";
import type { Output, Verbosity } from "./output.js";

const QUIET = "-q, --quiet";
const VERBOSE = "--verbose";

/**
 * Gives every command `--quiet` and `--verbose` (so each one's help lists them and they may follow
 * the command's own words), and sets `output.verbosity` from them before its action runs.
 */
export function addVerbosityFlags(program: Command, output: Output): void {
  const add = (command: Command): void => {
    command.option(QUIET, "print only errors, warnings and questions on stderr (no progress or notes)");
    command.option(VERBOSE, "also print on stderr what bosun reads and every line it logs");
    for (const sub of command.commands) add(sub);
  };
  add(program);
  program.hook("preAction", (_program, action) => {
    const flags = action.optsWithGlobals<{ quiet?: boolean; verbose?: boolean }>();
    output.verbosity = verbosityOf(Boolean(flags.quiet), Boolean(flags.verbose));
  });
}

/** The verbosity two flags ask for; both at once is a usage error. */
export function verbosityOf(quiet: boolean, verbose: boolean): Verbosity {
  if (quiet && verbose) throw new UserError("--quiet and --verbose ask for opposite things; give one of them");
  return quiet ? "quiet" : verbose ? "verbose" : "normal";
}

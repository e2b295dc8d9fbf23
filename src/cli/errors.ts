import type { Command } from "commander";
import { resolvePaths, variablesMoving } from "../kernel/paths.js";
import { isUserError } from "../kernel/errors.js";
import { FolderError } from "../kernel/fs/folder-error.js";
import { writeLine, type Output } from "./output.js";

/**
 * Turns whatever a command threw into one line on stderr and an exit code: 1 for an error the
 * user can fix (the message says what), 2 for a bug (with the stack only when BOSUN_DEBUG=1).
 */
export function reportError(error: unknown, output: Output): number {
  if (isCommanderError(error)) {
    // commander has already printed its message (see configureOutput in main.ts)
    return error.exitCode === 0 ? 0 : 1;
  }
  const debug = output.env.BOSUN_DEBUG === "1";
  if (isUserError(error)) {
    // Which folder a path belongs to is known here: the fix names the variable that would move it.
    const shown = error instanceof FolderError ? error.withVariables(variablesMoving(error.folder, resolvePaths(output.env))) : error;
    writeLine(output.stderr, `bosun: ${shown.message}`);
    if (debug && error.stack) writeLine(output.stderr, error.stack);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  writeLine(output.stderr, `bosun: internal error: ${message}${debug ? "" : " (set BOSUN_DEBUG=1 for details)"}`);
  if (debug && error instanceof Error && error.stack) writeLine(output.stderr, error.stack);
  return 2;
}

// Checked by shape so that loading this file does not load commander (`--version` skips it).
function isCommanderError(error: unknown): error is { exitCode: number } {
  const candidate = error as { name?: unknown; code?: unknown; exitCode?: unknown } | null;
  return candidate?.name === "CommanderError" && typeof candidate.code === "string" && typeof candidate.exitCode === "number";
}

/**
 * Points each command's usage errors at its own help (`bosun agents login --help`, not only
 * `bosun --help`), and reports a word that names no subcommand as an unknown command, with a
 * suggestion: the closest subcommand (commander's), or the flag of that name (`bosun version`
 * suggests `--version`).
 */
export function guideUsageErrors(command: Command, path = command.name()): void {
  command.showHelpAfterError(`(run ${path} --help for usage)`);
  if (command.commands.length > 0) {
    // commander's hook for an unknown subcommand of a command without an action of its own.
    command.on("command:*", ([name]: string[]) => unknownSubcommand(command, name!));
    // A command with an action and subcommands (`bosun agents`) takes no words of its own: a
    // word there is a mistyped subcommand (`bosun agents logn`), not one too many arguments.
    if (command.registeredArguments.length === 0) {
      command.allowExcessArguments(true).hook("preAction", (_, actionCommand) => {
        if (actionCommand === command && command.args.length > 0) unknownSubcommand(command, command.args[0]!);
      });
    }
  }
  for (const sub of command.commands) guideUsageErrors(sub, `${path} ${sub.name()}`);
}

function unknownSubcommand(command: Command, name: string): never {
  // Help's list of the command's flags: its options with --help (and --version at the top).
  const flag = command.createHelp().visibleOptions(command).find((option) => option.long === `--${name}`);
  if (flag) command.error(`unknown command '${name}'\n(Did you mean ${flag.long}?)`, { code: "commander.unknownCommand" });
  // commander's own message and closest-name suggestion; it reads the word from command.args.
  return (command as unknown as { unknownCommand(): never }).unknownCommand();
}

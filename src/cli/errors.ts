import { resolvePaths, variablesMoving } from "../boot/paths.js";
import { isUserError } from "../errors.js";
import { FolderError } from "../fs/folder-error.js";
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

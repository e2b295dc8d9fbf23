import { join } from "node:path";
import { ensurePrivateDirs } from "./fs/private-dir.js";
import { openRegularFileForWriting } from "./fs/regular-file.js";
import { requireLazily } from "./fs/require.js";

/** bosun's log: JSON lines in `<state>/logs/bosun.log`. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Told about every line as it is written (`--verbose` shows them on stderr). */
export type LogEcho = (level: "info" | "warn" | "error", message: string, fields: Record<string, unknown>) => void;

const LOGS_FOLDER = "logs";

export function logFilePath(stateDir: string): string {
  return join(stateDir, LOGS_FOLDER, "bosun.log");
}

/**
 * A log that opens its file on the first line written: a run that has nothing to log creates no
 * file, and start-up does not pay for loading the logging library. The state and logs folders are
 * created private; a log file that is not a regular file (a FIFO would block) is refused.
 * `echo` sees each line too, after it is written.
 */
export function createFileLog(stateDir: string, echo?: LogEcho): Log {
  type Pino = typeof import("pino");
  let logger: import("pino").Logger | undefined;
  const get = () => {
    if (!logger) {
      ensurePrivateDirs(stateDir, LOGS_FOLDER);
      const fd = openRegularFileForWriting(logFilePath(stateDir), { append: true });
      const pino = requireLazily("pino") as Pino;
      logger = pino({ base: { pid: process.pid } }, pino.destination({ fd, sync: true }));
    }
    return logger;
  };
  const line = (level: "info" | "warn" | "error") => (message: string, fields: Record<string, unknown> = {}) => {
    get()[level](fields, message);
    echo?.(level, message, fields);
  };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

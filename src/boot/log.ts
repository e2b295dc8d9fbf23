import { join } from "node:path";
import { ensurePrivateDirs } from "../fs/private-dir.js";
import { openRegularFileForWriting } from "../fs/regular-file.js";
import { requireLazily } from "../fs/require.js";

/** bosun's log: JSON lines in `<state>/logs/bosun.log`. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const LOGS_FOLDER = "logs";

export function logFilePath(stateDir: string): string {
  return join(stateDir, LOGS_FOLDER, "bosun.log");
}

/**
 * A log that opens its file on the first line written: a run that has nothing to log creates no
 * file, and start-up does not pay for loading the logging library. The state and logs folders are
 * created private; a log file that is not a regular file (a FIFO would block) is refused.
 */
export function createFileLog(stateDir: string): Log {
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
  return {
    info: (message, fields) => get().info(fields ?? {}, message),
    warn: (message, fields) => get().warn(fields ?? {}, message),
    error: (message, fields) => get().error(fields ?? {}, message),
  };
}

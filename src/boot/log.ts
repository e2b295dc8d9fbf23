import { join } from "node:path";
import { requireLazily } from "../fs/require.js";

/** bosun's log: JSON lines in `<state>/logs/bosun.log`. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function logFilePath(stateDir: string): string {
  return join(stateDir, "logs", "bosun.log");
}

/**
 * A log that opens its file on the first line written: a run that has nothing to log creates no
 * file, and start-up does not pay for loading the logging library.
 */
export function createFileLog(stateDir: string): Log {
  type Pino = typeof import("pino");
  let logger: import("pino").Logger | undefined;
  const get = () => {
    if (!logger) {
      const pino = requireLazily("pino") as Pino;
      const destination = pino.destination({ dest: logFilePath(stateDir), sync: true, mkdir: true, mode: 0o600 });
      logger = pino({ base: { pid: process.pid } }, destination);
    }
    return logger;
  };
  return {
    info: (message, fields) => get().info(fields ?? {}, message),
    warn: (message, fields) => get().warn(fields ?? {}, message),
    error: (message, fields) => get().error(fields ?? {}, message),
  };
}

import { writeSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDirs } from "./fs/private-dir.js";
import { openRegularFileForWriting } from "./fs/regular-file.js";
import { logLine, type LogLevel } from "./log-line.js";

/** bosun's log: JSON lines in `<state>/logs/bosun.log`. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Told about every line as it is written (`--verbose` shows them on stderr). */
export type LogEcho = (level: LogLevel, message: string, fields: Record<string, unknown>) => void;

const LOGS_FOLDER = "logs";

export function logFilePath(stateDir: string): string {
  return join(stateDir, LOGS_FOLDER, "bosun.log");
}

/**
 * A log that opens its file on the first line written: a run that has nothing to log creates no
 * file. The state and logs folders are created private; a log file that is not a regular file (a
 * FIFO would block) is refused. Each line is written whole, at once (log-line.ts), so lines of
 * two bosun processes never mix. `echo` sees each line too, after it is written.
 */
export function createFileLog(stateDir: string, echo?: LogEcho): Log {
  let fd: number | undefined;
  const line = (level: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => {
    if (fd === undefined) {
      ensurePrivateDirs(stateDir, LOGS_FOLDER);
      fd = openRegularFileForWriting(logFilePath(stateDir), { append: true });
    }
    const bytes = Buffer.from(logLine(level, message, fields, Date.now(), process.pid), "utf8");
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    echo?.(level, message, fields);
  };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

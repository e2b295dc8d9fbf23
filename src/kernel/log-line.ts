/** Log levels as numbers, as JSON-lines log readers (pino's and its tools) know them. */
export const LOG_LEVELS = { info: 30, warn: 40, error: 50 } as const;
export type LogLevel = keyof typeof LOG_LEVELS;

/**
 * One log line: `{"level":30,"time":<ms>,"pid":<pid>, …fields, "msg":"…"}` and a newline, the
 * shape pino writes. Any value can be logged: an Error becomes its type, message and stack, a
 * big integer its digits, a value met again inside itself `"[Circular]"`; what JSON leaves out
 * (undefined, functions) is left out.
 */
export function logLine(level: LogLevel, message: string, fields: Record<string, unknown>, time: number, pid: number): string {
  const ancestors: unknown[] = [];
  const body = JSON.stringify(fields, function (this: unknown, _key, value: unknown) {
    if (typeof value === "bigint") return value.toString();
    if (typeof value !== "object" || value === null) return value;
    // `this` is the object holding `value`: what is above it stays on the stack, the rest is done.
    while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
    if (ancestors.includes(value)) return "[Circular]";
    ancestors.push(value);
    if (value instanceof Error) return { type: value.name, message: value.message, ...(value.stack ? { stack: value.stack } : {}) };
    return value;
  });
  const inner = body === "{}" ? "" : `${body.slice(1, -1)},`;
  return `{"level":${LOG_LEVELS[level]},"time":${time},"pid":${pid},${inner}"msg":${JSON.stringify(message)}}\n`;
}

import type { ExtensionHost } from "./host.js";

/**
 * What the `<name>/start` and `<name>/end` extensions of an extensible function see. A start
 * extension may set `result` (the function is then skipped) or `error` (thrown at once); an end
 * extension may replace `result`, or set or clear `error`.
 */
export interface FunctionCall<A extends unknown[], R> {
  name: string;
  args: A;
  result?: R;
  error?: unknown;
}

/**
 * Gives a synchronous function implicit `<name>/start` and `<name>/end` extension points, so a
 * plugin can run before or after it without the function knowing. Both points must be preloaded.
 */
export function extensible<A extends unknown[], R>(
  host: ExtensionHost,
  name: string,
  fn: (...args: A) => R,
): (...args: A) => R {
  return (...args: A): R => {
    const call: FunctionCall<A, R> = { name, args };
    host.callSync(`${name}/start`, { call });
    if (call.error !== undefined) throw call.error;
    if (!("result" in call)) {
      try {
        call.result = fn(...call.args);
      } catch (error) {
        call.error = error;
      }
    }
    host.callSync(`${name}/end`, { call });
    if (call.error !== undefined) throw call.error;
    return call.result as R;
  };
}

/** The same for an async function: its start and end extensions are awaited in order. */
export function extensibleAsync<A extends unknown[], R>(
  host: ExtensionHost,
  name: string,
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    const call: FunctionCall<A, R> = { name, args };
    await host.callAsync(`${name}/start`, { call });
    if (call.error !== undefined) throw call.error;
    if (!("result" in call)) {
      try {
        call.result = await fn(...call.args);
      } catch (error) {
        call.error = error;
      }
    }
    await host.callAsync(`${name}/end`, { call });
    if (call.error !== undefined) throw call.error;
    return call.result as R;
  };
}

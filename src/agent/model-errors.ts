import { APICallError } from "ai";
import { UserError } from "../errors.js";

/** What the loop needs to know about a failed model call. */
export interface ModelErrorInfo {
  /** Worth trying again: rate limits, overloads, server errors, dropped connections. */
  transient: boolean;
  /** The request was too big for the model's context: compacting and retrying may help. */
  contextOverflow: boolean;
  /** How long the provider asked us to wait, when it said. */
  retryAfterMs?: number;
  /** One line saying what went wrong (may contain provider text: redact before showing). */
  message: string;
}

/** The model call failed for good (after any retries). */
export class ModelCallError extends UserError {
  override name = "ModelCallError";
  constructor(
    message: string,
    readonly info: ModelErrorInfo,
  ) {
    super(message);
  }
}

/** The run was cancelled (Ctrl-C or the caller's abort signal). */
export class AgentAbortedError extends Error {
  override name = "AgentAbortedError";
  constructor(readonly partialText = "") {
    super("cancelled");
  }
}

const OVERFLOW = /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|input is too long|exceeds the (maximum|context)|reduce the length/i;
const CONNECTION = /fetch failed|terminated|socket|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR|network|other side closed/i;

/**
 * Sorts a failed model call: a transient failure is retried within the run's budget, a context
 * overflow triggers compaction, anything else ends the run with its message.
 */
export function classifyModelError(error: unknown): ModelErrorInfo {
  if (APICallError.isInstance(error)) {
    const detail = providerMessage(error.responseBody) ?? error.message;
    const status = error.statusCode;
    const message = status ? `${status}${detail ? `: ${detail}` : ""}` : `${detail}${describeCause(error.cause)}`;
    const contextOverflow = (status === 400 || status === 413) && OVERFLOW.test(detail);
    const retryAfterMs = retryAfter(error.responseHeaders);
    return { transient: error.isRetryable, contextOverflow, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  if (error instanceof Error) {
    const text = `${error.message}${describeCause((error as { cause?: unknown }).cause)}`;
    return { transient: CONNECTION.test(text), contextOverflow: OVERFLOW.test(text), message: text };
  }
  // Providers report an error event inside a stream as the parsed event body.
  const body = error as { message?: unknown; error?: { message?: unknown } } | null;
  const message = typeof body?.message === "string" ? body.message : typeof body?.error?.message === "string" ? body.error.message : JSON.stringify(error);
  return { transient: !OVERFLOW.test(message), contextOverflow: OVERFLOW.test(message), message: `the provider reported an error: ${message}` };
}

function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === "object" && typeof parsed.error?.message === "string") return parsed.error.message;
    if (typeof parsed.error === "string") return parsed.error;
    if (typeof parsed.message === "string") return parsed.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 300);
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return "";
  const inner = (cause as { cause?: unknown }).cause;
  return ` (${cause.message}${inner instanceof Error ? `: ${inner.message}` : ""})`;
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers["retry-after"];
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

import { APICallError } from "ai";
import { UserError } from "../../kernel/errors.js";
import { ModelEndpointError, type ModelEndpoint } from "../../llm/model-endpoint.js";
import { classifyNetworkFailure, errorChain, isRetryableStatus, type NetworkFailure } from "../../kernel/net/network-failure.js";
import { shownUrl } from "../../kernel/net/shown-url.js";

/** What the loop needs to know about a failed model call. */
export interface ModelErrorInfo {
  /** Worth trying again: rate limits, overloads, server errors, dropped connections, timeouts. */
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

/** The model sent nothing for too long: a stalled stream, retried like a dropped connection. */
export class ModelStalledError extends Error {
  override name = "ModelStalledError";
  constructor(readonly idleMs: number) {
    super(`the model sent nothing for ${Math.round(idleMs / 1000)} s (network timeout)`);
  }
}

const OVERFLOW = /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|input is too long|exceeds the (maximum|context)|reduce the length/i;

/**
 * Sorts a failed model call: a transient failure (a rate limit or server error, a dropped
 * connection, no answer in time) is retried within the run's budget, a context overflow triggers
 * compaction, anything else ends the run with its message. A server that cannot be reached at
 * all (refused, unknown host, a URL fetch cannot use, a certificate this machine does not trust)
 * ends it at once, naming the provider, its URL and where that URL was set.
 */
export function classifyModelError(error: unknown): ModelErrorInfo {
  if (error instanceof ModelStalledError) return { transient: true, contextOverflow: false, message: error.message };
  const chain = errorChain(error);
  const apiError = chain.find((node): node is APICallError => APICallError.isInstance(node));
  const status = apiError?.statusCode;
  // A 2xx here is a stream that broke after the answer began: the connection says why.
  if (apiError && status && (status < 200 || status > 299)) {
    const detail = providerMessage(apiError.responseBody) ?? apiError.message;
    const contextOverflow = (status === 400 || status === 413) && OVERFLOW.test(detail);
    const retryAfterMs = retryAfter(apiError.responseHeaders);
    const message = `${status}${detail ? `: ${detail}` : ""}`;
    return { transient: isRetryableStatus(status), contextOverflow, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  const network = classifyNetworkFailure(error);
  if (network) {
    const endpoint = chain.find((node): node is ModelEndpointError => node instanceof ModelEndpointError)?.endpoint;
    return { transient: !network.permanent, contextOverflow: false, message: describeNetworkFailure(network, endpoint, apiError?.url) };
  }
  const inner = error instanceof ModelEndpointError ? error.cause : error;
  if (inner instanceof Error) {
    const text = `${inner.message}${describeCause(inner)}`;
    return { transient: false, contextOverflow: OVERFLOW.test(text), message: text };
  }
  // Providers report an error event inside a stream as the parsed event body.
  const body = inner as { message?: unknown; error?: { message?: unknown } } | null;
  const message = typeof body?.message === "string" ? body.message : typeof body?.error?.message === "string" ? body.error.message : JSON.stringify(inner);
  return { transient: !OVERFLOW.test(message), contextOverflow: OVERFLOW.test(message), message: `the provider reported an error: ${message}` };
}

/**
 * One line for a connection that failed: where (the provider and its URL, else the request's
 * URL, either without credentials or query) and why, once; for a server that cannot be reached,
 * also where its URL was set.
 */
function describeNetworkFailure(failure: NetworkFailure, endpoint: ModelEndpoint | undefined, requestUrl: string | undefined): string {
  const given = endpoint?.url ?? requestUrl;
  const url = given === undefined ? undefined : shownUrl(given);
  const where = endpoint ? `provider ${endpoint.providerID}${url ? ` at ${url}` : ""}` : (url ?? "the provider");
  if (!failure.permanent) return `${where}: ${failure.reason}`;
  const lead = failure.kind === "tls" ? "cannot connect securely to" : "cannot reach";
  return `${lead} ${where}${endpoint?.origin ? ` (${endpoint.origin})` : ""}: ${failure.reason}`;
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

/** The causes of an error that its message does not already say, e.g. ` (terminated: other side closed)`. */
function describeCause(error: Error): string {
  const said = [error.message];
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (!said.some((text) => text.includes(cause.message))) said.push(cause.message);
  }
  return said.length > 1 ? ` (${said.slice(1).join(": ")})` : "";
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

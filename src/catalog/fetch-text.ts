import { describeError, UserError } from "../kernel/errors.js";
import { classifyNetworkFailure, isRetryableStatus } from "../kernel/net/network-failure.js";

export interface FetchTextOptions {
  /** Per attempt, covering the response body too (default 10 s). */
  timeoutMs?: number;
  /** Extra attempts after a dropped connection or a retryable status (default 2). */
  retries?: number;
  /** First backoff in ms, doubled per attempt with ±25 % jitter (default 200). */
  backoffMs?: number;
  /** Responses larger than this are refused (default 64 MiB). */
  maxBytes?: number;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** A download that did not succeed; `url` is safe to show (no credentials travel in it). */
export class DownloadError extends UserError {
  override name = "DownloadError";
  constructor(
    readonly url: string,
    readonly problem: string,
    readonly status?: number,
  ) {
    super(`could not download ${url}: ${problem}`);
  }
}

/**
 * GETs a URL as text. A dropped connection and a retryable status (429, 5xx) are tried again
 * with jittered exponential backoff; a server that cannot be reached (refused, unknown host, a
 * URL fetch cannot use) fails at once, and so does a timeout (its time is already spent) and
 * any other status.
 */
export async function fetchText(url: string, options: FetchTextOptions = {}): Promise<string> {
  const retries = options.retries ?? 2;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let lastError: DownloadError | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) {
      const base = (options.backoffMs ?? 200) * 2 ** (attempt - 1);
      await sleep(base * (0.75 + Math.random() * 0.5));
    }
    try {
      return await fetchOnce(url, options);
    } catch (error) {
      if (error instanceof DownloadError) {
        if (error.status === undefined || !isRetryableStatus(error.status)) throw error;
        lastError = error;
        continue;
      }
      const failure = classifyNetworkFailure(error);
      lastError = new DownloadError(url, failure?.reason ?? `network error (${describeError(error)})`);
      if (failure?.kind !== "reset") throw lastError;
    }
  }
  throw lastError!;
}

async function fetchOnce(url: string, options: FetchTextOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal = AbortSignal.timeout(timeoutMs);
  const response = await (options.fetch ?? globalThis.fetch)(url, { signal, headers: options.headers ?? {}, redirect: "follow" });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new DownloadError(url, `the server answered ${response.status} ${response.statusText}`.trim(), response.status);
  }
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes) throw new DownloadError(url, `the answer is larger than ${maxBytes} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new DownloadError(url, `the answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

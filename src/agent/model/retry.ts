import { AgentAbortedError, type ModelErrorInfo } from "./errors.js";
import { ModelStepError } from "./step.js";

export interface RetryPolicy {
  /** Retries allowed over a whole run (every model call of the run draws on it). */
  budget: number;
  /** First delay; each further retry doubles it, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest a provider's retry-after is honoured; a longer wait ends the run instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { budget: 5, baseDelayMs: 1_000, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

export type RetryListener = (attempt: number, delayMs: number, info: ModelErrorInfo, hadPartialReply: boolean) => void;

/**
 * The retry budget of one run. A transient failure (rate limit, overload, server error, dropped
 * or stalled stream) is retried after a growing delay while the budget lasts; anything else, or
 * an exhausted budget, is rethrown.
 */
export class RetryBudget {
  private used = 0;

  constructor(
    readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = sleepUnlessAborted,
    private readonly random: () => number = Math.random,
  ) {}

  get remaining(): number {
    return Math.max(0, this.policy.budget - this.used);
  }

  async run<T>(call: () => Promise<T>, signal: AbortSignal, onRetry: RetryListener): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ModelStepError) || !error.info.transient || this.remaining === 0) throw error;
        const retryAfter = error.info.retryAfterMs;
        if (retryAfter !== undefined && retryAfter > this.policy.maxRetryAfterMs) throw error;
        const backoff = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
        const delay = retryAfter ?? Math.round(backoff * (0.5 + this.random() / 2));
        this.used++;
        onRetry(attempt, delay, error.info, error.partialText.length > 0);
        await this.sleep(delay, signal);
      }
    }
  }
}

export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AgentAbortedError());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AgentAbortedError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

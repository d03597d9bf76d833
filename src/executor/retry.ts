import { InvalidOptionsError } from "../core/errors.js";

export interface RetryOptions {
  /** Attempts in all, the first included; default 2. */
  maxAttempts?: number;
  /** Wait before the second attempt; default 200 ms. Each later wait doubles. */
  initialDelayMs?: number;
  /** Longest wait between attempts; default 10 s. */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export function readRetry(options: RetryOptions | undefined): RetryPolicy {
  const policy = { maxAttempts: 2, initialDelayMs: 200, maxDelayMs: 10_000, ...options };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw new InvalidOptionsError("retry.maxAttempts must be an integer >= 1");
  for (const name of ["initialDelayMs", "maxDelayMs"] as const) {
    if (!(policy[name] >= 0)) throw new InvalidOptionsError(`retry.${name} must be a number >= 0`);
  }
  return policy;
}

/** Exponential backoff: the wait after failed attempt `attempt` (1-based). Pure. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
}

/**
 * Tool errors worth another attempt: the tool timed out or threw, unless it marked the error
 * `retryable: false` (a syntax error in a query will not go away). Refusals are final.
 */
export function isRetryable(error: { kind: string; retryable?: boolean }): boolean {
  return error.retryable !== false && (error.kind === "timeout" || error.kind === "execution_failed");
}

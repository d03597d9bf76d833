import { sleep } from "../core/clock.js";
import { PlanloopError } from "../core/errors.js";
import type { ProviderLimit } from "../limits/provider-limit.js";
import { releasedWhenRead } from "./held-response.js";
import { retryAfter } from "./retry-after.js";

/** An HTTP answer that no retry will fix, with what to check. */
export class ModelHttpError extends PlanloopError {
  readonly status: number | undefined;
  readonly body: string;

  constructor(message: string, details: { status?: number; body?: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.name = "ModelHttpError";
    this.status = details.status;
    this.body = details.body ?? "";
  }
}

export interface HttpOptions {
  url: string;
  body: unknown;
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** Per attempt; a request that takes longer is aborted and retried. */
  timeoutMs: number;
  maxRetries: number;
  /** First backoff; it doubles each retry, with jitter, unless the server says Retry-After. */
  retryDelayMs: number;
  signal: AbortSignal | undefined;
  /** What the model is called, for error messages. */
  model: string;
  /** The provider's limit every call shares (`providerLimit`): each attempt takes a turn, and a 429 cools it down for all. */
  limit?: ProviderLimit | undefined;
  /**
   * The call's worst case in tokens (prompt estimate plus the most the answer may have), held on a
   * limit with a token rate at each attempt's turn; an attempt the server refused gives it back at
   * once, and the caller settles the one that succeeded (`ProviderLimit.settleTokens`).
   */
  tokens?: number | undefined;
  /** Whose call it is, for the limit's share of turns between tenants (`TurnOptions.tenant`). */
  tenant?: string | undefined;
  /** Hears when a call waits for the limit, and until when. */
  onLimitWait?: ((wait: { limit: string; until: number }) => void) | undefined;
  /** Hears `"waiting"` before the first turn and `"sent"` as each attempt goes out (`ModelRequest.onSendState`). */
  onSendState?: ((state: "waiting" | "sent") => void) | undefined;
}

const retryableStatuses = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);
/**
 * The answers whose time closes a shared limit for everyone: the provider's rate (429) and the
 * provider overloaded (503, and 529 as Anthropic says it). The other retried statuses with a time
 * (a 500 or 504 with `Retry-After`) are about this request: it waits that time, the others go on.
 */
const limitClosingStatuses = new Set([429, 503, 529]);

/**
 * POSTs JSON and returns the successful response. 429, 5xx, dropped connections and
 * timeouts are retried with exponential backoff and jitter, honouring `Retry-After`; the
 * caller's signal aborts at once, also between attempts. Other failures throw a
 * `ModelHttpError` that says what to check.
 */
export async function postWithRetries(options: HttpOptions): Promise<Response> {
  const { limit } = options;
  options.onSendState?.("waiting");
  for (let attempt = 0; ; attempt += 1) {
    const onWait = options.onLimitWait;
    const release =
      limit === undefined
        ? undefined
        : await limit.turn(options.signal, onWait === undefined ? undefined : (until) => onWait({ limit: limit.name, until }), {
            tokens: options.tokens,
            tenant: options.tenant,
          });
    let outcome: Attempt;
    try {
      if (options.signal?.aborted) {
        // Given up between its turn and its request: nothing was sent, so its tokens go back.
        if (limit !== undefined && options.tokens !== undefined) await limit.settleTokens(options.tokens, 0).catch(() => {});
        throw options.signal.reason;
      }
      outcome = await attemptOnce(options);
    } catch (error) {
      release?.();
      throw error;
    }
    // An answer holds its slot until its body is read (a stream is in flight until its last chunk).
    if (outcome.response) return release === undefined ? outcome.response : releasedWhenRead(outcome.response, release, options.signal);
    release?.();
    // Refused by the server: the attempt used no tokens (one cut off or timed out may have; it keeps its hold).
    if (limit !== undefined && options.tokens !== undefined && outcome.status !== undefined) await limit.settleTokens(options.tokens, 0);
    // The provider named a time for its rate or its load: with a shared limit, every call waits for
    // it at its next turn, not only this one — also when this call has no retry left (the others
    // would walk into the same wall). A time with another status is this call's own wait.
    const closes = outcome.status !== undefined && limitClosingStatuses.has(outcome.status);
    const cooldownMs = limit !== undefined && closes ? outcome.retryAfterMs : undefined;
    if (cooldownMs !== undefined) await limit?.coolDown(cooldownMs);
    if (!outcome.retryable || attempt >= options.maxRetries) throw outcome.error;
    if (cooldownMs === undefined)
      await sleep(outcome.retryAfterMs ?? backoff(options.retryDelayMs, attempt), options.signal ? { signal: options.signal } : {});
  }
}

type Attempt = { response: Response } | { response?: undefined; error: Error; retryable: boolean; retryAfterMs?: number; status?: number };

async function attemptOnce(options: HttpOptions): Promise<Attempt> {
  options.signal?.throwIfAborted();
  options.onSendState?.("sent");
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify(options.body),
      signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const timedOut = timeout.aborted;
    const message = timedOut
      ? `no answer from ${options.url} within ${options.timeoutMs} ms`
      : `could not reach ${options.url}: ${describe(error)}`;
    return { error: new ModelHttpError(message, { cause: error }), retryable: true };
  }
  if (response.ok) return { response };
  const body = await response.text().catch(() => "");
  const error = new ModelHttpError(explain(response.status, body, options), { status: response.status, body });
  const retryAfterMs = retryAfter(response.headers);
  return {
    error,
    status: response.status,
    retryable: retryableStatuses.has(response.status),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

function explain(status: number, body: string, options: HttpOptions): string {
  const detail = serverMessage(body);
  const said = detail ? `: ${detail}` : "";
  switch (status) {
    case 401:
      return `the server at ${options.url} rejected the API key (401)${said}. Check apiKey`;
    case 403:
      return `the API key may not use model "${options.model}" (403)${said}. Check the key's permissions and the model name`;
    case 404:
      return `not found (404)${said}. Check the model name "${options.model}" and the base URL (${options.url})`;
    case 400:
      return `the server rejected the request (400)${said}. Check the model "${options.model}" supports tools and these messages`;
    default:
      return `the server answered ${status}${said}`;
  }
}

function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const error = parsed.error;
    return (typeof error === "string" ? error : error?.message) ?? parsed.message ?? "";
  } catch {
    return body.slice(0, 300);
  }
}

function backoff(baseMs: number, attempt: number): number {
  const exponential = baseMs * 2 ** attempt;
  return Math.min(exponential, 30_000) * (0.5 + Math.random() * 0.5);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

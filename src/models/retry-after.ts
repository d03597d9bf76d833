import { longestCooldownMs } from "../core/next-turn.js";
import { parseHttpDate } from "./http-date.js";

/** The longest wait a server's answer is taken to ask for: one hostile answer closes a limit a minute, not for days. */
const longestRetryAfterMs = longestCooldownMs;

/**
 * How long the server asked to wait, in ms, capped at a minute: `retry-after-ms` (a number of
 * ms, as OpenAI and Azure send), else `Retry-After` as delay-seconds (RFC 9110 §10.2.3: digits
 * only) or an HTTP-date (`parseHttpDate`; one in the past asks for no wait: 0). Undefined when
 * neither names a time: absent, empty, negative, hex, or text that is neither seconds nor a date.
 * An unreadable `retry-after-ms` does not hide a readable `Retry-After` beside it.
 */
export function retryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && decimalMs.test(ms)) return Math.min(Number(ms), longestRetryAfterMs);
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (delaySeconds.test(value)) return Math.min(Number(value) * 1000, longestRetryAfterMs);
  const date = parseHttpDate(value, now);
  return date === undefined ? undefined : Math.min(Math.max(0, date - now), longestRetryAfterMs);
}

/** RFC 9110's delay-seconds: `1*DIGIT`, so no sign, no fraction, no hex, no exponent. */
const delaySeconds = /^\d+$/;
/** `retry-after-ms` has no RFC: a plain decimal number of ms, with a fraction or an exponent, never a sign. */
const decimalMs = /^\d+(\.\d+)?(e\+?\d+)?$/i;

import { errorMessage, WriteKeyLostError } from "../core/errors.js";
import type { HoldRequest, LimitStore } from "../core/limit-store.js";
import type { HeldResource } from "../core/tools/call-gates.js";

export interface HeldKey {
  store: LimitStore;
  resource: string;
  key: string;
  request: HoldRequest;
  /** When the request that took the hold was sent (`performance.now()`): the hold runs from no earlier. */
  sentAt: number;
  releaseHere: () => void;
}

/** The longest delay a Node timer keeps: a longer one fires after 1 ms instead. */
const longestTimerMs = 2 ** 31 - 1;

/**
 * A hold renewed every third of `holdMs` while its call runs. It is lost — `lost` aborts: past
 * that point another call may hold the key — when a renewal finds it lost, or when no renewal got
 * through for `holdMs` by this process's monotonic clock. The second is judged on every tick,
 * whatever became of the renewals (failed, or never answered: a partition, a busy pool), and
 * before any round trip, so a tick that wakes late from a pause finds the hold lost at once (once
 * the answers that came in during the pause are read: one that got through counts).
 */
export function keepRenewed({ store, resource, key, request, sentAt, releaseHere }: HeldKey): HeldResource {
  const { holdMs } = request;
  const everyMs = holdMs / 3;
  const lost = new AbortController();
  let confirmedAt = sentAt;
  let renewAt = sentAt + everyMs;
  let lastError: unknown;
  let released = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let recheck: ReturnType<typeof setImmediate> | undefined;
  const stop = () => {
    clearTimeout(timer);
    clearImmediate(recheck);
  };
  const loseHold = (how: string) => {
    stop();
    if (!released) lost.abort(new WriteKeyLostError(resource, how));
  };
  const renew = (now: number) => {
    // A store of the user's own that throws at once fails the renewal, as one that rejects does.
    void Promise.resolve()
      .then(() => store.renew(key, request))
      .then(
        (held) => {
          if (held) confirmedAt = Math.max(confirmedAt, now);
          else loseHold(`its holder did not renew it within ${holdMs} ms, and it ran out or another call took it`);
        },
        (error: unknown) => (lastError = error),
      );
  };
  const tick = (answersRead = false) => {
    const now = performance.now();
    if (now - confirmedAt >= holdMs) {
      // After a stall, timers run before the answers that came in meanwhile are read: read them first.
      if (!answersRead) return void (recheck = setImmediate(tick, true));
      const why = lastError === undefined ? "no renewal was answered" : errorMessage(lastError);
      return loseHold(`no renewal got through to the store for ${holdMs} ms: ${why}`);
    }
    if (now >= renewAt) {
      renewAt = now + everyMs;
      renew(now);
    }
    // Wake to renew, or at the moment the hold runs out if no renewal gets through before it.
    const wakeAt = Math.min(renewAt, confirmedAt + holdMs);
    timer = setTimeout(tick, Math.min(longestTimerMs, Math.max(0, wakeAt - now)));
    timer.unref();
  };
  timer = setTimeout(tick, Math.min(longestTimerMs, Math.max(0, renewAt - performance.now())));
  timer.unref();
  return {
    lost: lost.signal,
    release() {
      if (released) return;
      released = true;
      stop();
      // Let go in the store before the next caller here tries it; a hold the store did not hear
      // let go of runs out after holdMs, so a let-go that never answers frees the line here then.
      // A renewal still on its way cannot take the key again: it extends only a hold its holder still has.
      const freeAnyway = setTimeout(releaseHere, Math.min(longestTimerMs, holdMs));
      freeAnyway.unref();
      void store
        .letGo(key, request.holder)
        .catch(() => {})
        .finally(() => {
          clearTimeout(freeAnyway);
          releaseHere();
        });
    },
  };
}

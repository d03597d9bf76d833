import { randomUUID } from "node:crypto";
import { raceAbort } from "../core/abort.js";
import { sleep } from "../core/clock.js";
import { errorMessage, InvalidOptionsError, WriteKeyLostError } from "../core/errors.js";
import type { HoldRequest, LimitStore } from "../core/limit-store.js";
import { KeyLines } from "../core/tools/key-lines.js";
import type { HeldResource, ResourceLocks } from "../core/tools/call-gates.js";
import { resourceName } from "../core/tools/resource-name.js";
import { sharedLimitStore, type LimitBackend } from "./shared-store.js";

export interface ResourceLocksOptions {
  /** Where the holds live: Redis (`{ redis }`), Postgres (`{ postgres }`) or a SQLite file (`sqliteLimitStore`). */
  shared: LimitBackend;
  /**
   * How long a hold lasts without being renewed (default 30 s), by the store's clock. A holder
   * renews it every third of that while its call runs; a process that dies holding a resource
   * frees it after this long. A call whose renewal finds the hold lost (its process paused longer
   * than this), or whose renewals got no answer for this long, is aborted with a `WriteKeyLostError`.
   * At most a year.
   */
  holdMs?: number | undefined;
  /** The longest pause between two tries for a resource another process holds (default 50 ms). */
  maxPollMs?: number | undefined;
}

/**
 * Holds the resources tools write (`ToolOptions.resources`) in a store every process shares:
 * calls that name one resource never overlap, in this process or any other on the store. In a
 * process, calls wait for a resource first come first served; across processes the next to try
 * after it is let go takes it. A hold is a lease: if it is lost while the call runs, the call's
 * signal aborts (a tool that ignores its signal can still overlap the next holder: docs/limits.md).
 *
 * ```ts
 * const locks = resourceLocks({ shared: { redis } });
 * defineTool({ name: "saveRows", resources: ({ table }) => [`table:${table}`], locks, … });
 * ```
 */
export function resourceLocks(options: ResourceLocksOptions): ResourceLocks {
  const store = sharedLimitStore(options?.shared);
  const holdMs = options.holdMs ?? 30_000;
  const maxPollMs = options.maxPollMs ?? 50;
  if (!Number.isFinite(holdMs) || holdMs < 100) throw new InvalidOptionsError(`holdMs must be at least 100, got ${String(holdMs)}`);
  // A key whose holder died stays held this long; past a year it is a mistake (and Redis refuses a PX near 2^63).
  if (holdMs > longestHoldMs) throw new InvalidOptionsError(`holdMs must be at most ${longestHoldMs} (a year), got ${String(holdMs)}`);
  if (!Number.isFinite(maxPollMs) || maxPollMs < 1) throw new InvalidOptionsError(`maxPollMs must be at least 1, got ${String(maxPollMs)}`);
  const here = new KeyLines();
  return {
    async hold(name, signal) {
      // Named as the store keys it, so the line here is the store's (a caller that is not a tool's gate may pass any name).
      const resource = resourceName(name);
      // One caller per resource in this process tries the store; the others wait behind it here.
      const releaseHere = await here.hold(resource, signal);
      const key = `resource:${resource}`;
      const request: HoldRequest = { holder: randomUUID(), holdMs };
      let sentAt: number;
      try {
        for (let pause = 1; ; pause = Math.min(maxPollMs, pause * 2)) {
          signal.throwIfAborted();
          sentAt = performance.now();
          if (await tryHold(store, key, request, signal)) break;
          await sleep(pause, { signal });
        }
      } catch (error) {
        releaseHere();
        throw error;
      }
      return keepRenewed({ store, resource, key, request, sentAt, releaseHere });
    },
  };
}

/**
 * The store's answer to one try for a hold, unless the call is given up first (a store that does
 * not answer must not keep a cancelled run waiting): a hold it grants after that is let go.
 */
async function tryHold(store: LimitStore, key: string, request: HoldRequest, signal: AbortSignal): Promise<boolean> {
  const asked = store.hold(key, request);
  try {
    return await raceAbort(asked, signal);
  } catch (error) {
    if (signal.aborted) asked.then((held) => (held ? store.letGo(key, request.holder) : undefined)).catch(() => {});
    throw error;
  }
}

interface HeldKey {
  store: LimitStore;
  resource: string;
  key: string;
  request: HoldRequest;
  /** When the request that took the hold was sent (`performance.now()`): the hold runs from no earlier. */
  sentAt: number;
  releaseHere: () => void;
}

/** The longest hold `resourceLocks` takes: a year. */
const longestHoldMs = 365 * 86_400_000;

/** The longest delay a Node timer keeps: a longer one fires after 1 ms instead. */
const longestTimerMs = 2 ** 31 - 1;

/**
 * A hold renewed every third of `holdMs` while its call runs. It is lost — `lost` aborts: past
 * that point another call may hold the key — when a renewal finds it lost, or when no renewal got
 * through for `holdMs` by this process's monotonic clock. The second is judged on every tick,
 * whatever became of the renewals (failed, or never answered: a partition, a busy pool), and
 * before any round trip, so a tick that wakes late from a pause finds the hold lost at once.
 */
function keepRenewed({ store, resource, key, request, sentAt, releaseHere }: HeldKey): HeldResource {
  const { holdMs } = request;
  const everyMs = holdMs / 3;
  const lost = new AbortController();
  let confirmedAt = sentAt;
  let renewAt = sentAt + everyMs;
  let lastError: unknown;
  let released = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loseHold = (how: string) => {
    clearTimeout(timer);
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
  const tick = () => {
    const now = performance.now();
    if (now - confirmedAt >= holdMs) {
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
      clearTimeout(timer);
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

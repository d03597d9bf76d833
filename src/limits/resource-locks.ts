import { randomUUID } from "node:crypto";
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
   * than this) is aborted with a `WriteKeyLostError`.
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
      try {
        for (let pause = 1; ; pause = Math.min(maxPollMs, pause * 2)) {
          signal.throwIfAborted();
          if (await store.hold(key, request)) break;
          await sleep(pause, { signal });
        }
      } catch (error) {
        releaseHere();
        throw error;
      }
      return keepRenewed({ store, resource, key, request, releaseHere });
    },
  };
}

interface HeldKey {
  store: LimitStore;
  resource: string;
  key: string;
  request: HoldRequest;
  releaseHere: () => void;
}

/**
 * A hold renewed every third of `holdMs` while its call runs. A renewal that finds the hold lost,
 * or renewals that have not got through for `holdMs` (by this process's monotonic clock), abort
 * `lost`: past that point another call may hold the key.
 */
function keepRenewed({ store, resource, key, request, releaseHere }: HeldKey): HeldResource {
  const lost = new AbortController();
  let confirmedAt = performance.now();
  let released = false;
  const loseHold = (how: string) => {
    clearInterval(renew);
    if (!released) lost.abort(new WriteKeyLostError(resource, how));
  };
  const renew = setInterval(() => {
    const sentAt = performance.now();
    store.renew(key, request).then(
      (held) => {
        if (held) confirmedAt = Math.max(confirmedAt, sentAt);
        else loseHold(`its holder did not renew it within ${request.holdMs} ms, and it ran out or another call took it`);
      },
      (error: unknown) => {
        if (performance.now() - confirmedAt >= request.holdMs)
          loseHold(`the store could not be reached to renew it for ${request.holdMs} ms: ${errorMessage(error)}`);
      },
    );
  }, request.holdMs / 3);
  renew.unref();
  return {
    lost: lost.signal,
    release() {
      if (released) return;
      released = true;
      clearInterval(renew);
      // Let go in the store before the next caller here tries it; a hold the store did not hear
      // let go of runs out after holdMs. A renewal still on its way cannot take the key again:
      // it extends only a hold its holder still has.
      void store
        .letGo(key, request.holder)
        .catch(() => {})
        .finally(releaseHere);
    },
  };
}

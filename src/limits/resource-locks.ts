import { randomUUID } from "node:crypto";
import { sleep } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import { KeyLines } from "../core/tools/key-lines.js";
import type { ResourceLocks } from "../core/tools/call-gates.js";
import { sharedLimitStore, type LimitBackend } from "./shared-store.js";

export interface ResourceLocksOptions {
  /** Where the holds live: Redis (`{ redis }`), Postgres (`{ postgres }`) or a SQLite file (`sqliteLimitStore`). */
  shared: LimitBackend;
  /**
   * How long a hold lasts without being renewed (default 30 s). A holder renews it every third
   * of that while its call runs; a process that dies holding a resource frees it after this long.
   */
  holdMs?: number | undefined;
  /** The longest pause between two tries for a resource another process holds (default 50 ms). */
  maxPollMs?: number | undefined;
}

/**
 * Holds the resources tools write (`ToolOptions.resources`) in a store every process shares:
 * calls that name one resource never overlap, in this process or any other on the store. In a
 * process, calls wait for a resource first come first served; across processes the next to try
 * after it is let go takes it.
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
    async hold(resource, signal) {
      // One caller per resource in this process tries the store; the others wait behind it here.
      const releaseHere = await here.hold(resource, signal);
      const key = `resource:${resource}`;
      const holder = randomUUID();
      try {
        for (let pause = 1; ; pause = Math.min(maxPollMs, pause * 2)) {
          signal.throwIfAborted();
          const now = Date.now();
          if (await store.hold(key, holder, now + holdMs, now)) break;
          await sleep(pause, { signal });
        }
      } catch (error) {
        releaseHere();
        throw error;
      }
      // The renewal on its way to the store, if any: letting go waits for it, or a renewal answered
      // after the let-go (another connection of a pool) would take the key again for a holder done with it.
      let renewing: Promise<unknown> = Promise.resolve();
      const renew = setInterval(() => {
        const now = Date.now();
        renewing = store.hold(key, holder, now + holdMs, now).catch(() => {});
      }, holdMs / 3);
      renew.unref();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        // Let go in the store before the next caller here tries it; a hold the store did not
        // hear let go of runs out after holdMs.
        void renewing
          .then(() => store.letGo(key, holder))
          .catch(() => {})
          .finally(releaseHere);
      };
    },
  };
}

import { randomUUID } from "node:crypto";
import { raceAbort } from "../core/abort.js";
import { sleep } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import type { HoldRequest, LimitStore } from "../core/limit-store.js";
import { KeyLines } from "../core/tools/key-lines.js";
import type { ResourceLocks } from "../core/tools/call-gates.js";
import { resourceName } from "../core/tools/resource-name.js";
import { keepRenewed } from "./renewed-hold.js";
import { sharedLimitStore, type LimitBackend } from "./shared-store.js";

/** The longest hold `resourceLocks` takes: a year. */
const longestHoldMs = 365 * 86_400_000;

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

import { childSignal } from "../abort.js";
import { KeyLines } from "./key-lines.js";
import { resourceName } from "./resource-name.js";

/** Shared turns for calls: a limit every call takes a turn of before it runs (`providerLimit` is one). */
export interface CallTurns {
  /** Waits for a turn; gives back its release, called once the call ended. */
  turn(signal?: AbortSignal): Promise<() => void>;
}

/** Where the resources calls write are held: one call per resource at a time (`resourceLocks` holds them in a shared store). */
export interface ResourceLocks {
  /** Waits until the resource is this call's; gives back the hold, released once the call ended. */
  hold(resource: string, signal: AbortSignal): Promise<HeldResource>;
}

/** A resource a call holds. */
export interface HeldResource {
  /** Lets go of it (once; later calls do nothing). */
  release(): void;
  /** Aborts, with a `WriteKeyLostError`, if the hold is lost while the call runs; held in this process, never. */
  lost: AbortSignal;
}

/** A tool's gates (`ToolOptions.limit`, `ToolOptions.resources`, `ToolOptions.locks`). */
export interface CallGates {
  limit?: CallTurns | undefined;
  resources?: ((args: never) => readonly string[]) | undefined;
  locks?: ResourceLocks | undefined;
}

/** Whether a tool's calls wait at a gate before they run: a shared limit, or resources they write. */
export function isGated(tool: CallGates): boolean {
  return tool.limit !== undefined || tool.resources !== undefined;
}

/** The gates a call passed: the call runs under `signal`, which also aborts if a resource's hold is lost. */
export interface PassedGates {
  signal: AbortSignal;
  release(): void;
}

/**
 * Waits at a tool's gates before its call runs: the resources it writes (`resources(args)`,
 * named as the stores keep them (`resourceName`) and held in one order, so two calls that share
 * several never wait on each other in a circle, and one call never waits on itself),
 * then a turn of its limit. Gives back the signal the call runs under and the release of all of them.
 */
export async function passGates(tool: CallGates, args: unknown, signal: AbortSignal): Promise<PassedGates> {
  const releases: Array<() => void> = [];
  const own = childSignal(signal);
  const release = () => {
    for (const each of releases.splice(0).reverse()) each();
  };
  releases.push(() => own.release());
  try {
    const keys = tool.resources === undefined ? [] : [...new Set(tool.resources(args as never).map(resourceName))].sort();
    const locks = tool.locks ?? inThisProcess;
    for (const key of keys) {
      const held = await locks.hold(key, signal);
      releases.push(held.lost === neverLost ? () => held.release() : whenLost(held, own.abort));
    }
    if (tool.limit !== undefined) releases.push(await tool.limit.turn(signal));
    return { signal: own.signal, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** Resources held in this process only: the default when a tool names no `locks`. */
const inThisProcess = keyLinesLocks(new KeyLines());

/** Holds in this process, which no other process can take: never lost. */
function keyLinesLocks(lines: KeyLines): ResourceLocks {
  return {
    async hold(resource, signal) {
      return { release: await lines.hold(resource, signal), lost: neverLost };
    },
  };
}

const neverLost = new AbortController().signal;

/** Aborts the call with the reason its hold was lost; gives back the hold's release. */
function whenLost(held: HeldResource, abort: (reason: unknown) => void): () => void {
  const lost = () => abort(held.lost.reason);
  if (held.lost.aborted) lost();
  else held.lost.addEventListener("abort", lost, { once: true });
  return () => {
    held.lost.removeEventListener("abort", lost);
    held.release();
  };
}

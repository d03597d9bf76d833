import { KeyLines } from "./key-lines.js";

/** Shared turns for calls: a limit every call takes a turn of before it runs (`providerLimit` is one). */
export interface CallTurns {
  /** Waits for a turn; gives back its release, called once the call ended. */
  turn(signal?: AbortSignal): Promise<() => void>;
}

/** Where the resources calls write are held: one call per resource at a time (`resourceLocks` holds them in a shared store). */
export interface ResourceLocks {
  /** Waits until the resource is this call's; gives back its release, called once the call ended. */
  hold(resource: string, signal: AbortSignal): Promise<() => void>;
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

/**
 * Waits at a tool's gates before its call runs: the resources it writes (`resources(args)`,
 * held in one order, so two calls that share several never wait on each other in a circle),
 * then a turn of its limit. Gives back the release of all of them.
 */
export async function passGates(tool: CallGates, args: unknown, signal: AbortSignal): Promise<() => void> {
  const releases: Array<() => void> = [];
  const release = () => {
    for (const each of releases.splice(0).reverse()) each();
  };
  try {
    const keys = tool.resources === undefined ? [] : [...new Set(tool.resources(args as never))].sort();
    const locks = tool.locks ?? inThisProcess;
    for (const key of keys) releases.push(await locks.hold(key, signal));
    if (tool.limit !== undefined) releases.push(await tool.limit.turn(signal));
    return release;
  } catch (error) {
    release();
    throw error;
  }
}

/** Resources held in this process only: the default when a tool names no `locks`. */
const inThisProcess = new KeyLines();

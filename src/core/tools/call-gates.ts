/** Shared turns for calls: a limit every call takes a turn of before it runs (`providerLimit` is one). */
export interface CallTurns {
  /** Waits for a turn; gives back its release, called once the call ended. */
  turn(signal?: AbortSignal): Promise<() => void>;
}

/** A tool's gates (`ToolOptions.limit`, `ToolOptions.resources`). */
export interface CallGates {
  limit?: CallTurns | undefined;
  resources?: ((args: never) => readonly string[]) | undefined;
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
    for (const key of keys) releases.push(await holdResource(key, signal));
    if (tool.limit !== undefined) releases.push(await tool.limit.turn(signal));
    return release;
  } catch (error) {
    release();
    throw error;
  }
}

/** Who holds each resource in this process, and who waits for it next: first come, first served. */
const holders = new Map<string, Array<() => void>>();

async function holdResource(key: string, signal: AbortSignal): Promise<() => void> {
  signal.throwIfAborted();
  const line = holders.get(key);
  if (line === undefined) holders.set(key, []);
  else
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal.removeEventListener("abort", give);
        resolve();
      };
      const give = () => {
        const at = line.indexOf(turn);
        if (at >= 0) line.splice(at, 1);
        reject(signal.reason as Error);
      };
      line.push(turn);
      signal.addEventListener("abort", give, { once: true });
    });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = holders.get(key)?.shift();
    if (next === undefined) holders.delete(key);
    else next();
  };
}

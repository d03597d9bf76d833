/**
 * A line per key in this process: one holder of a key at a time, the others waiting first come,
 * first served. Keys nobody holds take no room.
 */
export class KeyLines {
  private readonly lines = new Map<string, Array<() => void>>();

  /** Waits until `key` is this caller's; gives back its release (once). */
  async hold(key: string, signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    const line = this.lines.get(key);
    if (line === undefined) this.lines.set(key, []);
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
      const next = this.lines.get(key)?.shift();
      if (next === undefined) this.lines.delete(key);
      else next();
    };
  }
}

import type { CheckpointStore } from "../journal/checkpoint-store.js";

/** How many of the newest runs each look compares: a run that moves is among them (new, or just written). */
const watched = 200;

/** A page listening: told `runs` (with `{ changed }`) and `problem`, until it stops or the watch does. */
export type WatchListener = (event: "runs" | "problem", data: unknown) => void;

/**
 * Tells the pages that runs moved (`runs`, with `{ "changed": [ids] }`): the store is looked at
 * every `pollMs` while a page listens, and runs whose last write or entry count changed are
 * named. Any process may write the store (a worker, another terminal): looking at it is the
 * one way to see them all.
 */
export class RunWatch {
  private readonly listeners = new Map<WatchListener, () => void>();
  /** What each run looked like at the last look; undefined before the first (which only takes note). */
  private seen: Map<string, string> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly store: CheckpointStore,
    private readonly pollMs: number,
  ) {}

  /**
   * Starts telling `listener`. `ready` resolves once the store was looked at: every run that
   * moves after it is told, so a page that reads what it shows once it is ready misses nothing.
   * `ended` resolves when the watch stops.
   */
  listen(listener: WatchListener): { ready: Promise<void>; ended: Promise<void>; stop(): void } {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.listeners.set(listener, end);
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.poke(), this.pollMs);
      this.timer.unref();
    }
    const stop = () => {
      this.listeners.get(listener)?.();
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.pause();
    };
    return { ready: this.poke(), ended, stop };
  }

  /** Looks at the store now (a decision was just taken here); a look under way is the one waited for. */
  poke(): Promise<void> {
    if (this.listeners.size === 0) return Promise.resolve();
    this.looking ??= this.look().finally(() => (this.looking = undefined));
    return this.looking;
  }

  private async look(): Promise<void> {
    try {
      const rows = await this.store.listRuns({ limit: watched });
      const next = new Map(rows.map((row) => [row.runId, `${row.updatedAt}:${row.entries}:${row.status}:${row.outcome?.status ?? ""}`]));
      const before = this.seen;
      this.seen = next;
      const changed =
        before === undefined ? [] : rows.filter((row) => before.get(row.runId) !== next.get(row.runId)).map((row) => row.runId);
      if (changed.length > 0) this.send("runs", { changed });
    } catch (error) {
      this.send("problem", { error: String(error) });
    }
  }

  /** Stops looking and ends every listener. */
  stop(): void {
    for (const end of this.listeners.values()) end();
    this.listeners.clear();
    this.pause();
  }

  private pause(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.seen = undefined;
  }

  private send(event: "runs" | "problem", data: unknown): void {
    for (const listener of this.listeners.keys()) listener(event, data);
  }
}

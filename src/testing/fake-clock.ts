import { sleep, type Clock } from "../core/clock.js";

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A clock that moves only when told. `advance(ms)` fires due timers in time order and lets
 * the promises they settle run before moving on, so deadlines, timeouts and slow tools can
 * be tested without real waiting.
 */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Timers not yet fired. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** When the next timer falls due, or undefined when none is set. */
  nextTimerAt(): number | undefined {
    return this.timers.length === 0 ? undefined : Math.min(...this.timers.map((timer) => timer.at));
  }

  /**
   * Moves time from timer to timer until `promise` settles, and returns it. Use it to run
   * code that sleeps on this clock to its end without guessing how far to advance.
   */
  async run<T>(promise: Promise<T>, options: { limitMs?: number } = {}): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => (settled = true));
    watched.catch(() => {});
    const limit = this.time + (options.limitMs ?? 3_600_000);
    await flush();
    while (!settled) {
      const next = this.nextTimerAt();
      if (next === undefined || next > limit) break;
      await this.advance(next - this.time);
    }
    return watched;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await flush();
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.at);
      due.callback();
      await flush();
    }
    this.time = end;
    await flush();
  }

  /** A promise that resolves after `ms` of this clock's time. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleep(ms, { clock: this, ...(signal ? { signal } : {}) });
  }
}

/** Lets every pending promise callback run (a macrotask turn, several times over). */
export async function flush(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

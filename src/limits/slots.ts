/** At most `size` holders at once in this process; the others wait, first come first served. */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** Waits for a slot; gives back its release (once). */
  async take(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.held >= this.size) {
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener("abort", give);
          resolve();
        };
        const give = () => {
          const at = this.waiting.indexOf(turn);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal!.reason as Error);
        };
        this.waiting.push(turn);
        signal?.addEventListener("abort", give, { once: true });
      });
    } else this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next === undefined) this.held -= 1;
      else next();
    };
  }
}

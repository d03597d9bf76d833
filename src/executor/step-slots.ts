/**
 * Step slots shared by several runs: at most `size` steps run at once across all of them, and
 * a slot that frees goes to the waiting run holding the fewest (the one waiting longest among
 * equals), so a run with many ready steps does not crowd out a run with few. Pure bookkeeping:
 * a run's scheduler asks with `take`, is woken when its turn may have come, and `release`s.
 */
export class StepSlots {
  private free: number;
  private readonly held = new Map<string, number>();
  /** Runs that asked and were refused, in the order they first asked, with how to wake them. */
  private readonly waiting = new Map<string, () => void>();

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`step slots must be a whole number >= 1, not ${size}`);
    this.free = size;
  }

  /** A run's handle: its scheduler takes and gives back slots through it. */
  for(owner: string): StepSlot {
    return { take: (wake) => this.take(owner, wake), release: () => this.release(owner), leave: () => this.leave(owner) };
  }

  /** The runs waiting for a slot, longest waiting first. */
  waitingRuns(): string[] {
    return [...this.waiting.keys()];
  }

  /** How many slots each run holds now. */
  holdings(): ReadonlyMap<string, number> {
    return this.held;
  }

  private take(owner: string, wake: () => void): boolean {
    if (this.free > 0 && !this.fairerThan(owner)) {
      this.free -= 1;
      this.held.set(owner, (this.held.get(owner) ?? 0) + 1);
      this.waiting.delete(owner);
      return true;
    }
    // Asking again keeps the place it had.
    if (!this.waiting.has(owner)) this.waiting.set(owner, wake);
    return false;
  }

  /**
   * Another run waits whose turn comes first: it holds fewer slots than `owner`, or as many and
   * has waited longer (a run not waiting yet comes after every waiting one). The same order as
   * `next`, so the run woken for a slot is the one that gets it.
   */
  private fairerThan(owner: string): boolean {
    const mine = this.held.get(owner) ?? 0;
    let behindOwner = false;
    for (const other of this.waiting.keys()) {
      if (other === owner) {
        behindOwner = true;
        continue;
      }
      const theirs = this.held.get(other) ?? 0;
      if (theirs < mine || (theirs === mine && !behindOwner)) return true;
    }
    return false;
  }

  private release(owner: string): void {
    const mine = this.held.get(owner) ?? 0;
    if (mine === 0) return;
    if (mine === 1) this.held.delete(owner);
    else this.held.set(owner, mine - 1);
    this.free += 1;
    this.next()?.();
  }

  /** The run is done: it waits for nothing any more (a slot kept for it goes to the next). */
  private leave(owner: string): void {
    if (this.waiting.delete(owner) && this.free > 0) this.next()?.();
  }

  /** How to wake the waiting run whose turn it is: the fewest held, the longest waiting among equals. */
  private next(): (() => void) | undefined {
    let best: { owner: string; held: number; wake: () => void } | undefined;
    for (const [owner, wake] of this.waiting) {
      const held = this.held.get(owner) ?? 0;
      if (best === undefined || held < best.held) best = { owner, held, wake };
    }
    return best?.wake;
  }
}

/** One run's view of shared slots. */
export interface StepSlot {
  /** Takes a slot now, or says no and calls `wake` once one may be this run's. */
  take(wake: () => void): boolean;
  release(): void;
  /** The run ended: it no longer waits. */
  leave(): void;
}

/**
 * The line of a provider limit's calls that name a tenant, in one process: one call at a time
 * books its turn, and the next to book is the call of the tenant served least recently for its
 * weight — each turn a tenant gets moves its mark on by 1 ÷ weight, and the lowest mark goes
 * next (among equals, the tenant waiting longest; inside a tenant, first come first served). A
 * tenant that was idle comes back at the mark of the last turn given, not below it: time it did
 * not use is not saved up. One tenant with a hundred calls waiting cannot keep another's one call
 * behind them.
 */
export class TenantLine {
  /** Each tenant's mark: the turns it has had, each 1 ÷ weight (a Map: a tenant may be called anything). */
  private readonly marks = new Map<string, number>();
  /** The waiting calls, by tenant, in the order the tenants started waiting. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly weights: ReadonlyMap<string, number>;
  /** The mark of the last turn given. */
  private lastMark = 0;
  private busy = false;

  constructor(weights: ReadonlyMap<string, number>) {
    this.weights = weights;
  }

  /** Waits until it is this call's turn to book; `leave` once it booked and its turn came (or it gave up). */
  async enter(tenant: string, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (!this.waiting.has(tenant)) this.marks.set(tenant, Math.max(this.marks.get(tenant) ?? 0, this.lastMark));
    if (!this.busy && this.waiting.size === 0) {
      this.serve(tenant);
      return this.leaver();
    }
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        const theirs = this.waiting.get(tenant);
        const at = theirs?.indexOf(go) ?? -1;
        if (at >= 0) theirs!.splice(at, 1);
        if (theirs?.length === 0) this.waiting.delete(tenant);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      const theirs = this.waiting.get(tenant);
      if (theirs === undefined) this.waiting.set(tenant, [go]);
      else theirs.push(go);
    });
    return this.leaver();
  }

  /** The tenants waiting, and how many calls each. */
  waitingCalls(): ReadonlyMap<string, number> {
    return new Map([...this.waiting].map(([tenant, calls]) => [tenant, calls.length]));
  }

  private serve(tenant: string): void {
    this.busy = true;
    const mark = this.marks.get(tenant) ?? 0;
    this.lastMark = mark;
    this.marks.set(tenant, mark + 1 / (this.weights.get(tenant) ?? 1));
  }

  private leaver(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.busy = false;
      this.next();
    };
  }

  /** Gives the line to the waiting tenant with the lowest mark (the first to wait among equals). */
  private next(): void {
    let best: string | undefined;
    for (const tenant of this.waiting.keys()) if (best === undefined || this.marks.get(tenant)! < this.marks.get(best)!) best = tenant;
    if (best === undefined) return;
    const theirs = this.waiting.get(best)!;
    const go = theirs.shift()!;
    // A tenant that is served goes behind the others that wait, among equal marks.
    this.waiting.delete(best);
    if (theirs.length > 0) this.waiting.set(best, theirs);
    this.serve(best);
    go();
  }
}

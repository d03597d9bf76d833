/** How `StepSlots` shares its slots between tenants. */
export interface StepSlotsOptions {
  /**
   * A tenant's share relative to others (default 1 each): a tenant of weight 2 may hold twice
   * the slots of a tenant of weight 1 before the other comes first.
   */
  weights?: Readonly<Record<string, number>> | undefined;
}

/**
 * Step slots shared by several runs: at most `size` steps run at once across all of them. A slot
 * that frees goes first to the tenant using the fewest slots for its weight (the one waiting
 * longest among equals), then, inside that tenant, to its waiting run holding the fewest (the
 * one waiting longest among equals): one tenant with a hundred runs cannot crowd out another with
 * one, and a run with many ready steps does not crowd out a run with few. A run with no tenant is
 * a tenant of its own. Pure bookkeeping: a run's scheduler asks with `take`, is woken when its
 * turn may have come, and `release`s.
 */
export class StepSlots {
  private free: number;
  private readonly held = new Map<string, number>();
  private readonly tenantHeld = new Map<string, number>();
  /** Each run's tenant (itself when it names none). */
  private readonly tenants = new Map<string, string>();
  /** Runs that asked and were refused, in the order they first asked, with how to wake them. */
  private readonly waiting = new Map<string, () => void>();
  /** By tenant name (a Map: a tenant may be called anything, "__proto__" too). */
  private readonly weights: ReadonlyMap<string, number>;

  constructor(
    readonly size: number,
    options: StepSlotsOptions = {},
  ) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`step slots must be a whole number >= 1, not ${size}`);
    for (const [tenant, weight] of Object.entries(options.weights ?? {}))
      if (!(typeof weight === "number" && Number.isFinite(weight) && weight > 0))
        throw new RangeError(`the weight of tenant ${JSON.stringify(tenant)} must be a number > 0, not ${String(weight)}`);
    this.free = size;
    this.weights = new Map(Object.entries(options.weights ?? {}));
  }

  /** A run's handle: its scheduler takes and gives back slots through it; `tenant` is whose run it is. */
  for(owner: string, tenant?: string): StepSlot {
    if (tenant !== undefined) this.tenants.set(owner, `tenant:${tenant}`);
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

  private tenantOf(owner: string): string {
    return this.tenants.get(owner) ?? `run:${owner}`;
  }

  private take(owner: string, wake: () => void): boolean {
    if (this.free > 0 && this.next(owner) === owner) {
      this.free -= 1;
      this.held.set(owner, (this.held.get(owner) ?? 0) + 1);
      const tenant = this.tenantOf(owner);
      this.tenantHeld.set(tenant, (this.tenantHeld.get(tenant) ?? 0) + 1);
      this.waiting.delete(owner);
      return true;
    }
    // Asking again keeps the place it had.
    if (!this.waiting.has(owner)) this.waiting.set(owner, wake);
    return false;
  }

  private release(owner: string): void {
    const mine = this.held.get(owner) ?? 0;
    if (mine === 0) return;
    if (mine === 1) this.held.delete(owner);
    else this.held.set(owner, mine - 1);
    const tenant = this.tenantOf(owner);
    const theirs = this.tenantHeld.get(tenant) ?? 0;
    if (theirs <= 1) this.tenantHeld.delete(tenant);
    else this.tenantHeld.set(tenant, theirs - 1);
    this.free += 1;
    this.wakeNext();
  }

  /** The run is done: it waits for nothing any more (a slot kept for it goes to the next). */
  private leave(owner: string): void {
    if (this.waiting.delete(owner) && this.free > 0) this.wakeNext();
    if (!this.held.has(owner)) this.tenants.delete(owner);
  }

  private wakeNext(): void {
    const next = this.next();
    if (next !== undefined) this.waiting.get(next)!();
  }

  /**
   * Whose turn it is among the waiting runs (and `asking`, which comes after every waiting run it
   * ties with when it is not waiting yet): the tenant using the fewest slots for its weight, the
   * longest waiting among equals; inside it, the run holding the fewest, the longest waiting
   * among equals. `take` and the wake on release use this one order, so the run woken for a slot
   * is the one that gets it.
   */
  private next(asking?: string): string | undefined {
    const order = [...this.waiting.keys()];
    if (asking !== undefined && !this.waiting.has(asking)) order.push(asking);
    // A tenant waits since its longest-waiting run did.
    const tenantSince = new Map<string, number>();
    order.forEach((owner, place) => {
      const tenant = this.tenantOf(owner);
      if (!tenantSince.has(tenant)) tenantSince.set(tenant, place);
    });
    const rank = (owner: string, place: number) => {
      const tenant = this.tenantOf(owner);
      const weight = this.weights.get(tenant.slice("tenant:".length)) ?? 1;
      return [
        (this.tenantHeld.get(tenant) ?? 0) / (tenant.startsWith("tenant:") ? weight : 1),
        tenantSince.get(tenant)!,
        this.held.get(owner) ?? 0,
        place,
      ];
    };
    let best: { owner: string; rank: number[] } | undefined;
    order.forEach((owner, place) => {
      const mine = rank(owner, place);
      if (best === undefined || before(mine, best.rank)) best = { owner, rank: mine };
    });
    return best?.owner;
  }
}

function before(a: number[], b: number[]): boolean {
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return a[index]! < b[index]!;
  return false;
}

/** One run's view of shared slots. */
export interface StepSlot {
  /** Takes a slot now, or says no and calls `wake` once one may be this run's. */
  take(wake: () => void): boolean;
  release(): void;
  /** The run ended: it no longer waits. */
  leave(): void;
}

import { systemClock, type Clock } from "./clock.js";
import { InvalidOptionsError, shown } from "./errors.js";
import { addUsageInto, emptyUsage, type UsageTotals } from "./usage.js";

/** Limits for a whole run; nested loops draw from the same budget. All are optional. */
export interface BudgetLimits {
  /** Input plus output tokens over every model call. */
  maxTokens?: number;
  maxCostUsd?: number;
  maxToolCalls?: number;
  /** Total wall time, in milliseconds, from the start of the run. */
  deadlineMs?: number;
}

export type BudgetLimit = keyof BudgetLimits;

export interface BudgetBreach {
  limit: BudgetLimit;
  message: string;
}

/** The least the next model call is expected to cost, so the run never starts one it cannot afford. */
export interface NextCallEstimate {
  tokens: number;
  costUsd: number;
}

/**
 * A model call's worst case, held against the budget's limits while the call runs (see
 * `Budget.reserve`): calls started at once cannot together spend past a limit.
 */
export interface Reservation {
  /** The call ended: what it really cost is charged, and the hold is given back. */
  settle(actual: Partial<UsageTotals>): void;
  /** The call ended with nothing to charge (it failed or was cancelled): the hold is given back. */
  release(): void;
  /**
   * The call was sent and ended without a figure (cut off, cancelled, timed out): the provider
   * may have spent its worst case. The run's own hold is given back, as `release` does; a
   * shared ledger (`tenantBudget`) keeps it, so the tenant may spend less that day, never more.
   */
  cutOff(): void;
}

/** Whether a failed model call was refused by the provider with a status (nothing spent), not cut off after it was sent. */
export function refusedByProvider(error: unknown): boolean {
  const answer = error as { status?: unknown; statusCode?: unknown } | null | undefined;
  // `status`: planloop's ModelHttpError; `statusCode`: the AI SDK's APICallError.
  return typeof answer?.status === "number" || typeof answer?.statusCode === "number";
}

/**
 * A ledger other runs and processes draw from too (`tenantBudget`: a tenant's budget for the
 * day): each call's worst case is held on it as on the run's own limits, and a call it cannot pay
 * is refused before it is made.
 */
export interface SharedBudget {
  /** Holds the call's worst case, or says why it cannot be paid. */
  hold(worstCase: NextCallEstimate, signal?: AbortSignal): Promise<BudgetBreach | undefined>;
  /** The call ended: gives back its hold and charges what it really cost (nothing, when it failed). */
  settle(held: NextCallEstimate, actual: Partial<UsageTotals>): void;
  /** Charges what a call cost whose hold was given back already, on the ledger the hold was taken on. */
  charge(held: NextCallEstimate, actual: Partial<UsageTotals>): void;
}

const limitNames: readonly BudgetLimit[] = ["maxTokens", "maxCostUsd", "maxToolCalls", "deadlineMs"];

export function checkBudgetLimits(limits: unknown, label = "budget"): BudgetLimits {
  if (limits === undefined) return {};
  if (typeof limits !== "object" || limits === null) throw new InvalidOptionsError(`${label} must be an object`);
  for (const [name, value] of Object.entries(limits)) {
    if (!limitNames.includes(name as BudgetLimit)) {
      throw new InvalidOptionsError(`${label}.${name} is not a budget limit; use ${limitNames.join(", ")}`);
    }
    if (value !== undefined && (typeof value !== "number" || !(value >= 0) || value === Infinity)) {
      throw new InvalidOptionsError(`${label}.${name} must be a finite number >= 0, got ${shown(value)}`);
    }
  }
  return limits as BudgetLimits;
}

const nothingMore: NextCallEstimate = { tokens: 0, costUsd: 0 };

/** The first limit that spending has reached, or that the next call would pass. Pure. */
export function findBreach(
  limits: BudgetLimits,
  spent: UsageTotals,
  elapsedMs: number,
  next: NextCallEstimate = nothingMore,
): BudgetBreach | undefined {
  const { maxTokens, maxCostUsd, maxToolCalls, deadlineMs } = limits;
  if (deadlineMs !== undefined && elapsedMs >= deadlineMs) {
    return { limit: "deadlineMs", message: `the deadline of ${deadlineMs} ms has passed (${Math.round(elapsedMs)} ms elapsed)` };
  }
  if (maxToolCalls !== undefined && spent.toolCalls >= maxToolCalls) {
    return { limit: "maxToolCalls", message: `the tool-call budget is used up (${spent.toolCalls} of ${maxToolCalls} calls)` };
  }
  const tokens = spent.inputTokens + spent.outputTokens;
  if (maxTokens !== undefined && (tokens >= maxTokens || tokens + next.tokens > maxTokens)) {
    return {
      limit: "maxTokens",
      message: `the token budget cannot pay for another call (${tokens} of ${maxTokens} tokens used, next call needs about ${next.tokens})`,
    };
  }
  if (maxCostUsd !== undefined && (spent.costUsd >= maxCostUsd || spent.costUsd + next.costUsd > maxCostUsd)) {
    return {
      limit: "maxCostUsd",
      message: `the cost budget cannot pay for another call ($${round(spent.costUsd)} of $${maxCostUsd} spent, next call about $${round(next.costUsd)})`,
    };
  }
  return undefined;
}

function round(value: number): string {
  return value.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * A ledger of what a run has spent against its limits. A child budget (for a plan step's
 * inner loop) charges its parent too, and is breached when either is.
 */
export class Budget {
  readonly limits: BudgetLimits;
  private readonly clock: Clock;
  private readonly parent: Budget | undefined;
  private readonly startedAt: number;
  private readonly totals: UsageTotals;
  private readonly unlimited: boolean;
  /** What calls in flight hold (see `reserve`), and who waits for some of it to come back. */
  private readonly held: NextCallEstimate = { tokens: 0, costUsd: 0 };
  private heldCalls = 0;
  private waiters: Array<() => void> = [];
  /** The dearest model call settled here or below, for calls that cannot say their worst case. */
  private dearest: NextCallEstimate = { tokens: 0, costUsd: 0 };
  /** A ledger shared with other runs (the root's; see `SharedBudget`). */
  readonly shared: SharedBudget | undefined;

  constructor(
    limits: BudgetLimits = {},
    options: { clock?: Clock; parent?: Budget; spent?: UsageTotals; elapsedMs?: number; shared?: SharedBudget } = {},
  ) {
    this.limits = { ...checkBudgetLimits(limits) };
    this.unlimited = Object.values(this.limits).every((value) => value === undefined);
    this.clock = options.clock ?? options.parent?.clock ?? systemClock;
    this.parent = options.parent;
    this.shared = options.shared ?? options.parent?.shared;
    this.startedAt = this.clock.now() - (options.elapsedMs ?? 0);
    // Counted in place (a plan of many quick steps charges once per step); read as copies.
    this.totals = options.spent ? { ...options.spent } : emptyUsage();
  }

  /** What was spent so far: a copy, which later charges do not change. */
  get spent(): UsageTotals {
    return { ...this.totals };
  }

  elapsedMs(): number {
    return this.clock.now() - this.startedAt;
  }

  charge(delta: Partial<UsageTotals>): void {
    addUsageInto(this.totals, delta);
    this.parent?.charge(delta);
  }

  breach(next?: NextCallEstimate): BudgetBreach | undefined {
    // Most runs set no limit: they skip reading the clock (the executor asks before every step).
    const own = this.unlimited ? undefined : findBreach(this.limits, this.totals, this.elapsedMs(), next);
    return own ?? this.parent?.breach(next);
  }

  /**
   * Holds `worstCase` against the limits of this budget and its parents until the call
   * settles, so that calls started at once (eight parallel agent steps) cannot together
   * spend past a limit that pays for only some of them. When the hold does not fit but would
   * once calls in flight settle, it waits for them; when it could not fit even then, it is
   * the breach, as a check before the call would have said. Without limits: at once, a hold
   * of nothing.
   */
  async reserve(worstCase: NextCallEstimate, signal?: AbortSignal): Promise<Reservation | BudgetBreach> {
    for (;;) {
      const refused = this.tryHold(worstCase);
      if (refused === undefined) {
        if (this.shared === undefined) return new Hold(this, worstCase);
        let sharedRefused: BudgetBreach | undefined;
        try {
          sharedRefused = await this.shared.hold(worstCase, signal);
        } catch (error) {
          this.adjustHeld(worstCase, -1);
          throw error;
        }
        if (sharedRefused === undefined) return new Hold(this, worstCase);
        this.adjustHeld(worstCase, -1);
        return sharedRefused;
      }
      if (refused === "wait") await this.root().heldComesBack(signal);
      else return refused;
      // The caller sees its signal aborted and stops; this breach only closes the wait.
      if (signal?.aborted) return { limit: "deadlineMs", message: "the run stopped while the call waited for its budget" };
    }
  }

  /** The dearest model call charged so far in the whole run (zero before the first). */
  dearestCall(): NextCallEstimate {
    return { ...this.root().dearest };
  }

  /** Holds `amount` here and in every parent, or says why not: a breach, or "wait" for calls in flight. */
  private tryHold(amount: NextCallEstimate): BudgetBreach | "wait" | undefined {
    const levels: Budget[] = [];
    for (let level: Budget | undefined = this; level !== undefined; level = level.parent) levels.push(level);
    const elapsed = this.elapsedMs();
    for (const level of levels) {
      if (level.unlimited) continue;
      const breach = findBreach(level.limits, level.withHeld(), elapsed, amount);
      if (breach === undefined) continue;
      // Would it fit once what is held comes back? Then wait for that; else this is the stop.
      return level.heldCalls > 0 && findBreach(level.limits, level.totals, elapsed, amount) === undefined ? "wait" : breach;
    }
    this.adjustHeld(amount, 1);
    return undefined;
  }

  private withHeld(): UsageTotals {
    return {
      ...this.totals,
      inputTokens: this.totals.inputTokens + this.held.tokens,
      costUsd: this.totals.costUsd + this.held.costUsd,
    };
  }

  /** Adds (`sign` 1) or gives back (-1) a hold, here and in every parent. */
  adjustHeld(amount: NextCallEstimate, sign: 1 | -1): void {
    for (let level: Budget | undefined = this; level !== undefined; level = level.parent) {
      level.held.tokens += sign * amount.tokens;
      level.held.costUsd += sign * amount.costUsd;
      level.heldCalls += sign;
    }
    if (sign === -1) this.root().wakeWaiters();
  }

  /** Remembers a settled call's real figure for `dearestCall`. */
  noteCall(actual: Partial<UsageTotals>): void {
    const root = this.root();
    const tokens = (actual.inputTokens ?? 0) + (actual.outputTokens ?? 0);
    const costUsd = actual.costUsd ?? 0;
    if (tokens > root.dearest.tokens || costUsd > root.dearest.costUsd) {
      root.dearest = { tokens: Math.max(tokens, root.dearest.tokens), costUsd: Math.max(costUsd, root.dearest.costUsd) };
    }
  }

  private root(): Budget {
    let level: Budget = this;
    while (level.parent !== undefined) level = level.parent;
    return level;
  }

  private heldComesBack(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => resolve();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  private wakeWaiters(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }

  /** Milliseconds until the nearest deadline in this budget or its parents; undefined if none. */
  remainingMs(): number | undefined {
    const own = this.limits.deadlineMs === undefined ? undefined : this.limits.deadlineMs - this.elapsedMs();
    const inherited = this.parent?.remainingMs();
    if (own === undefined) return inherited;
    return inherited === undefined ? own : Math.min(own, inherited);
  }

  /**
   * What is left of the token, cost and tool-call limits here and in the parents (the least of
   * each), as limits for a budget elsewhere (an agent step's loop on a worker).
   */
  remainingLimits(): Pick<BudgetLimits, "maxTokens" | "maxCostUsd" | "maxToolCalls"> {
    const { maxTokens, maxCostUsd, maxToolCalls } = this.limits;
    const spentTokens = this.totals.inputTokens + this.totals.outputTokens;
    const own = {
      maxTokens: maxTokens === undefined ? undefined : Math.max(0, maxTokens - spentTokens),
      maxCostUsd: maxCostUsd === undefined ? undefined : Math.max(0, maxCostUsd - this.totals.costUsd),
      maxToolCalls: maxToolCalls === undefined ? undefined : Math.max(0, maxToolCalls - this.totals.toolCalls),
    };
    const inherited = this.parent?.remainingLimits() ?? {};
    const least = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
    const limits: Pick<BudgetLimits, "maxTokens" | "maxCostUsd" | "maxToolCalls"> = {};
    for (const key of ["maxTokens", "maxCostUsd", "maxToolCalls"] as const) {
      const value = least(own[key], inherited[key]);
      if (value !== undefined) limits[key] = value;
    }
    return limits;
  }

  /** How many more tool calls the budget allows; Infinity when unlimited. */
  remainingToolCalls(): number {
    const own = this.limits.maxToolCalls === undefined ? Infinity : Math.max(0, this.limits.maxToolCalls - this.totals.toolCalls);
    return Math.min(own, this.parent?.remainingToolCalls() ?? Infinity);
  }

  child(limits: BudgetLimits = {}): Budget {
    return new Budget(limits, { parent: this, clock: this.clock });
  }
}

/** One call's hold on a budget, given back once. */
class Hold implements Reservation {
  private open = true;

  constructor(
    private readonly budget: Budget,
    private readonly amount: NextCallEstimate,
  ) {}

  settle(actual: Partial<UsageTotals>): void {
    // Settled after its hold was given back (a stream left early, then counted): charge only.
    if (this.open) this.give(actual);
    else this.budget.shared?.charge(this.amount, actual);
    this.budget.charge(actual);
    this.budget.noteCall(actual);
  }

  release(): void {
    if (this.open) this.give({});
  }

  cutOff(): void {
    if (!this.open) return;
    // The run's own hold goes back; the shared ledger keeps it (nothing given back, nothing charged).
    this.open = false;
    this.budget.adjustHeld(this.amount, -1);
  }

  private give(actual: Partial<UsageTotals>): void {
    this.open = false;
    this.budget.adjustHeld(this.amount, -1);
    this.budget.shared?.settle(this.amount, actual);
  }
}

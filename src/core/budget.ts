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

  constructor(limits: BudgetLimits = {}, options: { clock?: Clock; parent?: Budget; spent?: UsageTotals; elapsedMs?: number } = {}) {
    this.limits = { ...checkBudgetLimits(limits) };
    this.unlimited = Object.values(this.limits).every((value) => value === undefined);
    this.clock = options.clock ?? options.parent?.clock ?? systemClock;
    this.parent = options.parent;
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

  /** Milliseconds until the nearest deadline in this budget or its parents; undefined if none. */
  remainingMs(): number | undefined {
    const own = this.limits.deadlineMs === undefined ? undefined : this.limits.deadlineMs - this.elapsedMs();
    const inherited = this.parent?.remainingMs();
    if (own === undefined) return inherited;
    return inherited === undefined ? own : Math.min(own, inherited);
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

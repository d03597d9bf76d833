import type { BudgetBreach, BudgetLimit, NextCallEstimate, SharedBudget } from "../core/budget.js";
import { systemClock, type Clock } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import type { Spend } from "../core/limit-store.js";
import type { UsageTotals } from "../core/usage.js";
import { sharedLimitStore, type LimitBackend } from "./shared-store.js";

export interface TenantBudgetOptions {
  /** Whose budget: the runs of one tenant draw from it together. */
  tenant: string;
  /** What the tenant may spend in a day (UTC): tokens (input plus output) and dollars. */
  perDay: { maxTokens?: number | undefined; maxCostUsd?: number | undefined };
  /** Where the day's ledger lives: Redis, Postgres, a SQLite file (`sqliteLimitStore`); default this object's memory. */
  shared?: LimitBackend | undefined;
  /** The clock the day is read from (default the system's). */
  clock?: Clock | undefined;
}

/** The ledger a hold was taken on, and whether it was given back. */
interface HeldDay {
  key: string;
  /** What was drawn (the caller's estimate may change after). */
  amount: Spend;
  givenBack: boolean;
}

/** As much as a double holds: no ceiling. */
const none = Number.MAX_VALUE;

/**
 * A tenant's budget for the day, shared by every run of the tenant in every process on the
 * store: `new Budget(limits, { shared: tenantBudget({ tenant, perDay, shared }) })`. Each model
 * call's worst case is held on the day's ledger before the call is made, as `Budget.reserve`
 * holds it on the run's own limits; a call the day's budget cannot pay is refused before it is
 * made (the run stops `budget_exceeded`), and a call that ended charges what it really cost.
 */
export function tenantBudget(options: TenantBudgetOptions): SharedBudget {
  if (typeof options?.tenant !== "string" || options.tenant === "") throw new InvalidOptionsError("tenantBudget needs a tenant");
  const { maxTokens, maxCostUsd } = options.perDay ?? {};
  for (const [name, value] of Object.entries({ maxTokens, maxCostUsd }))
    if (value !== undefined && !(typeof value === "number" && value >= 0 && Number.isFinite(value)))
      throw new InvalidOptionsError(`perDay.${name} must be a finite number >= 0, got ${String(value)}`);
  const store = sharedLimitStore(options.shared);
  const clock = options.clock ?? systemClock;
  const ceiling: Spend = { tokens: maxTokens ?? none, costUsd: maxCostUsd ?? none };
  // The days the holds of each estimate were taken on, oldest first, so a call that ends after
  // midnight gives back the right one, and each hold is given back once: settling a call twice
  // (a retry path, a callback told twice) gives back nothing the second time.
  const heldOn = new WeakMap<NextCallEstimate, HeldDay[]>();
  let settling: Promise<unknown> = Promise.resolve();
  /** Gives a hold back (once, what was drawn) if `giveBack`, and charges `actual`, on the day the hold was taken. */
  const record = (estimate: NextCallEstimate, giveBack: boolean, actual: Partial<UsageTotals>) => {
    const days = heldOn.get(estimate) ?? [];
    // A charge alone goes to the day of the call's hold, given back or not.
    const day = giveBack ? days.find((each) => !each.givenBack) : days[0];
    if (day === undefined) return;
    if (giveBack) day.givenBack = true;
    const { key, amount: held } = day;
    // The provider's figure, taken as a charge only: a negative one never credits the day, and one
    // that is not a number charges the call's worst case.
    const tokens = [actual.inputTokens, actual.outputTokens];
    const spent = {
      tokens: tokens.every(known) ? tokens.reduce<number>((sum, figure) => sum + Math.max(0, figure ?? 0), 0) : held.tokens,
      costUsd: known(actual.costUsd) ? Math.max(0, actual.costUsd ?? 0) : held.costUsd,
    };
    // A store that cannot be reached keeps the hold: the tenant may spend less that day, never more.
    const givenBack = giveBack ? held : { tokens: 0, costUsd: 0 };
    settling = settling.then(() => store.settle(key, givenBack, spent)).catch(() => {});
  };
  return {
    async hold(worstCase) {
      const day = new Date(clock.now()).toISOString().slice(0, 10);
      // A worst case below zero would make room on the day for others (NaN fits nothing already).
      if (!(worstCase.tokens >= 0 && worstCase.costUsd >= 0)) return notAWorstCase(options.tenant, day, worstCase);
      const key = `budget:${options.tenant}:${day}`;
      const { held, spent } = await store.draw(key, worstCase, ceiling);
      if (held) {
        const day: HeldDay = { key, amount: { tokens: worstCase.tokens, costUsd: worstCase.costUsd }, givenBack: false };
        const days = heldOn.get(worstCase);
        if (days === undefined) heldOn.set(worstCase, [day]);
        else days.push(day);
        return undefined;
      }
      return breach({ tenant: options.tenant, day, spent, next: worstCase, limits: { maxTokens, maxCostUsd } });
    },
    settle(held, actual) {
      record(held, true, actual);
    },
    charge(held, actual) {
      record(held, false, actual);
    },
  };
}

function notAWorstCase(tenant: string, day: string, worstCase: NextCallEstimate): BudgetBreach {
  const asked = `${String(worstCase.tokens)} tokens, $${String(worstCase.costUsd)}`;
  return {
    limit: "maxTokens",
    message: `tenant ${JSON.stringify(tenant)}'s budget for ${day} (UTC) cannot hold a call's worst case of ${asked}: it must be numbers >= 0`,
  };
}

/** A usage figure the day can charge: none given, or a finite number. */
const known = (figure: unknown): boolean => figure === undefined || (typeof figure === "number" && Number.isFinite(figure));

function breach(refused: {
  tenant: string;
  day: string;
  spent: Spend;
  next: NextCallEstimate;
  limits: { maxTokens?: number | undefined; maxCostUsd?: number | undefined };
}): BudgetBreach {
  const { tenant, day, spent, next, limits } = refused;
  const byTokens = limits.maxTokens !== undefined && (spent.tokens >= limits.maxTokens || spent.tokens + next.tokens > limits.maxTokens);
  const limit: BudgetLimit = byTokens || limits.maxCostUsd === undefined ? "maxTokens" : "maxCostUsd";
  const said =
    limit === "maxTokens"
      ? `${spent.tokens} of ${limits.maxTokens} tokens spent (and calls in flight hold some), next call needs about ${next.tokens}`
      : `$${spent.costUsd.toFixed(6)} of $${limits.maxCostUsd} spent (and calls in flight hold some), next call about $${next.costUsd.toFixed(6)}`;
  return { limit, message: `tenant ${JSON.stringify(tenant)}'s budget for ${day} (UTC) cannot pay for another call (${said})` };
}

import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { protectionOf, type DurableOptions } from "../journal/checkpoints.js";
import { keptOutKeys, protectStore } from "../journal/protected-store.js";
import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { Plan } from "../plan/plan-schema.js";
import { checkPlan, type CheckedPlan } from "../plan/validate-plan.js";

/**
 * Plan reuse across runs: a plan that succeeded is kept in the store under a key, and a later
 * run with the same key starts from it with no planner call. If it fails, or the run's checks
 * reject it, the run replans as usual and the cache learns the plan that succeeded. A kept plan
 * holds secrets as the run's journal does: sealed with its `stateSecret`, or kept out (and then
 * the plan is reused only where the run gives them again).
 */
export interface PlanCacheOption {
  /** What makes two tasks the same kind; default the task's text (its white space aside). */
  key?: string;
  /** Where the plans are kept; default the run's `store`. */
  store?: CheckpointStore;
}

export interface PlanCache {
  readonly key: string;
  /** The kept plan, if there is one and it still fits the tools. */
  lookup(tools: readonly Tool[]): Promise<CheckedPlan | undefined>;
  learn(plan: Plan): Promise<void>;
}

const prefix = "planloop/plan-cache/";

export function openPlanCache(
  option: PlanCacheOption | boolean | undefined,
  context: { task: string; store: CheckpointStore | undefined; durable: DurableOptions },
): PlanCache | undefined {
  if (option === undefined || option === false) return undefined;
  const settings: PlanCacheOption = option === true ? {} : option;
  if (typeof settings !== "object" || settings === null) throw new InvalidOptionsError("planCache must be true or { key?, store? }");
  const given: CheckpointStore | undefined = settings.store ?? context.store;
  if (given === undefined) throw new InvalidOptionsError("planCache keeps plans in a store: pass the run's store, or planCache.store");
  const store = protectStore(given, protectionOf(context.durable));
  if (settings.key !== undefined && (typeof settings.key !== "string" || settings.key === ""))
    throw new InvalidOptionsError("planCache.key must be a non-empty string");
  const key = settings.key ?? context.task.trim().replace(/\s+/g, " ");
  return {
    key,
    async lookup(tools) {
      let kept: unknown;
      try {
        kept = await store.getValue(`${prefix}${key}`);
      } catch {
        // A cache that cannot be read (sealed with another secret, changed, the store away) is a miss: the run plans.
        return undefined;
      }
      // A secret kept out of the store and not given again: the plan cannot run as it was.
      if (!isRecord(kept) || kept.plan === undefined || keptOutKeys([kept.plan as never]).length > 0) return undefined;
      // A plan kept for tools that have changed since is not used.
      const checked = checkPlan(kept.plan, { tools });
      return checked.ok ? checked : undefined;
    },
    async learn(plan) {
      await store.setValue(`${prefix}${key}`, { plan, learnedAt: new Date().toISOString() });
    },
  };
}

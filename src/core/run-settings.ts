import type { Budget, BudgetLimits } from "./budget.js";
import type { Clock } from "./clock.js";
import type { EventListener } from "./events.js";

// The options every entry point takes (runAgent, executePlan, each strategy), declared once
// here and composed by each: its limits, its events, its clock, how it keeps secrets and signs
// its states. Durability (store, runId, lease) is the journal's (`DurableOptions`), scheduling
// the executor's (`ExecutionSettings`), decisions on approvals the tools' (`HumanDecisions`).

/**
 * Argument keys whose values are secrets: strings match whole keys (any case), patterns match
 * as they are; `false`: none. planloop masks them in events and keeps them sealed or out of stores.
 */
export type SecretKeys = ReadonlyArray<string | RegExp> | false;

/**
 * Saved states signed with a secret (HMAC-SHA256 over the state's canonical JSON), so that a
 * state edited outside planloop — an amount raised, a step added to the plan — is refused
 * when it is resumed. An unsigned state is run as it reads: keep it as trusted as your code.
 */
export interface StateSigning {
  /** Signs every state the run hands back and refuses to resume one whose signature is not right. */
  stateSecret?: string | undefined;
}

/** What every run takes: its cancellation, its budget, its events, its clock, and how its states are signed. */
export interface RunSettings extends StateSigning {
  signal?: AbortSignal | undefined;
  /** One budget for the whole run; nested loops (agent steps) draw from it too. */
  budget?: BudgetLimits | Budget | undefined;
  onEvent?: EventListener | undefined;
  clock?: Clock | undefined;
  /**
   * Argument keys whose values are masked in events and traces (tool calls, plan steps):
   * default `defaultSecretKeys` (`apiKey`, `token`, `password`, `secret`, `authorization`, …);
   * your own list (strings match whole keys, any case), or `false` to mask nothing.
   */
  secretKeys?: SecretKeys | undefined;
  /**
   * How long every request for approval made in this run stands, in milliseconds on the run's
   * clock (a tool's own `approvalExpiresInMs` wins): past it, the call is denied with that
   * reason when the run is next continued (or by `planloop runs expire`), never run on a
   * stale approval.
   */
  approvalExpiresInMs?: number | undefined;
}

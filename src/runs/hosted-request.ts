import type { BudgetLimits } from "../core/budget.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { StrategyName } from "../strategies/strategy-result.js";

/** How `planloop serve`'s run host started a run, kept in the store: it continues the run the same way after a decision or a restart. */
export type HostedRequest =
  | { kind: "plan"; plan: unknown; webhook?: string | undefined }
  | { kind: "task"; task: string; strategy: StrategyName; budget?: BudgetLimits | undefined; webhook?: string | undefined };

const requestKey = (runId: string) => `planloop:serve:run:${runId}`;

/** How a run host started the run; undefined for a run no run host started (the CLI's, a program's). */
export async function hostedRequest(store: CheckpointStore, runId: string): Promise<HostedRequest | undefined> {
  const kept = (await store.getValue(requestKey(runId))) as HostedRequest | null | undefined;
  return kept?.kind === "plan" || kept?.kind === "task" ? kept : undefined;
}

/** Keeps how a run host started the run. */
export async function keepHostedRequest(store: CheckpointStore, runId: string, request: HostedRequest): Promise<void> {
  await store.setValue(requestKey(runId), request);
}

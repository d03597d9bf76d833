import type { BudgetLimits } from "../core/budget.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { StrategyName } from "../strategies/strategy-result.js";

/** How `planloop serve`'s run host started a run, kept in the store: it continues the run the same way after a decision or a restart. */
export type HostedRequest =
  | { kind: "plan"; plan: unknown; webhook?: string | undefined }
  | { kind: "task"; task: string; strategy: StrategyName; budget?: BudgetLimits | undefined; webhook?: string | undefined };

/** What a run host is asked to start: a plan, or a task for a strategy (the HTTP API's and MCP's bodies, read). */
export type StartRun =
  | { plan: unknown; runId?: string | undefined; webhook?: string | undefined }
  | {
      task: string;
      strategy: StrategyName;
      runId?: string | undefined;
      webhook?: string | undefined;
      budget?:
        | {
            maxTokens?: number | undefined;
            maxCostUsd?: number | undefined;
            maxToolCalls?: number | undefined;
            deadlineMs?: number | undefined;
          }
        | undefined;
    };

/** A run host's answer to a start: the run's id, and whether this call made it (`false`: it was there already). */
export interface StartedRun {
  runId: string;
  created: boolean;
}

/** What a request to a run host got wrong: the message, and the field it is about (`plan`, `task`). */
export class RunRequestError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = "RunRequestError";
  }
}

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

import type { CheckpointStore, StoredRun } from "../journal/checkpoint-store.js";
import type { UsageTotals } from "../core/usage.js";
import { pausedCalls, type PlanRunState } from "../executor/resume-state.js";
import type { PendingCall } from "../react/agent-status.js";
import type { PendingPlan } from "./plan-review.js";
import type { CodeModeState } from "./code-mode/code-mode-state.js";
import { codeStepCounts } from "./code-mode/code-steps.js";

/** How a stored run stands, for `runs list`: its status, steps ended of those planned, and cost. */
export function standing(run: StoredRun, children: readonly StoredRun[]): { status: string; steps: string; cost: string } {
  const result = run.result as { status?: string; usage?: UsageTotals; provenance?: { counts?: { unsupported?: number } } } | undefined;
  const ended = new Set<string>();
  let planned = 0;
  let endedCalls = 0;
  let usage: UsageTotals | undefined = result?.usage;
  for (const [index, each] of [run, ...children].entries()) {
    const plans = each.journal.filter((entry) => entry.kind === "plan");
    planned += (plans.at(-1)?.plan as { steps?: unknown[] } | undefined)?.steps?.length ?? 0;
    // A code-mode program's calls are its run's steps: each one made or waited for is counted once.
    const calls = codeStepCounts(each.journal);
    planned += calls.made;
    endedCalls += calls.ended;
    for (const entry of each.journal) {
      if (entry.kind === "step-end" && (entry.record as { status?: string }).status !== "waiting") ended.add(`${index}:${entry.stepKey}`);
      if (entry.kind === "step-end" && entry.totals && run.status !== "finished") usage = entry.totals.usage as UsageTotals;
    }
  }
  const finished = run.status === "finished" ? (result?.status ?? "finished") : lastPause(run, children) ? "paused" : "running";
  // A completed answer with claims its steps do not support is marked: a pipeline's reader must not take it for a clean one.
  const unsupported = finished === "completed" ? (result?.provenance?.counts?.unsupported ?? 0) : 0;
  const status = unsupported > 0 ? `${finished} (${unsupported} unsupported claims)` : finished;
  return { status, steps: `${ended.size + endedCalls}/${planned}`, cost: usage ? `$${usage.costUsd.toFixed(4)}` : "-" };
}

/** The state of the last pause of a run or its plan runs, when it is the last thing they wrote. */
export function lastPause(run: StoredRun, children: readonly StoredRun[], options: { finished?: boolean } = {}): unknown {
  for (const each of [...children].reverse().concat(run)) {
    const last = [...each.journal]
      .reverse()
      .find((entry) =>
        ["paused", "step-start", "call-start", "call-end", "decision", "human-decision", "code-start", "code-call"].includes(entry.kind),
      );
    if ((options.finished || each.status !== "finished") && last?.kind === "paused") return last.state;
  }
  return undefined;
}

/** The runs a strategy run keeps for its plans and its loop (`<runId>/plan:<v>`, `<runId>/agent`), oldest first. */
export async function childrenOf(store: CheckpointStore, runId: string): Promise<StoredRun[]> {
  const listed = await store.listRuns({ within: runId });
  const runs = await Promise.all(listed.reverse().map((row) => store.getRun(row.runId)));
  return runs.filter((each): each is StoredRun => each !== undefined);
}

/** The calls a paused run waits for, from its saved state (a plan run's, a loop's or a code-mode run's). */
export function pendingOf(state: unknown): Array<PendingCall | PendingPlan> {
  const saved = state as { kind?: string; round?: { pending?: PendingCall[] }; review?: { pending?: PendingPlan } } | undefined;
  if (saved?.review?.pending) return [saved.review.pending];
  if (saved?.kind === "planloop/plan-state") return pausedCalls(state as PlanRunState);
  if (saved?.kind === "planloop/code-mode-state") return (state as CodeModeState).pending;
  return saved?.round?.pending ?? [];
}

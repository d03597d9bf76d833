import { journalTime } from "../core/clock.js";
import { createHash } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";
import type { JournalEntry } from "../journal/checkpoint-store.js";
import { openStoredRun, type DurableOptions } from "../journal/checkpoints.js";
import { Checkpoints } from "../journal/checkpoint-writer.js";
import { runEnveloped } from "../journal/durable-envelope.js";
import type { KeptText, TextReplay } from "./text-call.js";
import { defaultSecretKeys, type SecretKeys } from "../trust/secrets.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";
import type { Usage, UsageTotals } from "../core/usage.js";
import type { StrategyName } from "./strategy-result.js";
import { isPlanReviewKey } from "./plan-review-step.js";
import { startStrategyRun, type StrategyOptions, type StrategyRun } from "./strategy-run.js";
import { givenDecisions, type HumanDecisionsGiven, type StrategyDurability } from "./strategy-durability.js";

export type { HumanDecisionsGiven, StrategyDurability };

export type OpenedStrategy<Result> =
  { kind: "finished"; result: Result } | { kind: "run"; runId: string; durability: StrategyDurability | undefined };

/** Opens a strategy run by id (see `openStoredRun`): a finished one's stored result, or the run to go on with. */
export async function openStrategyRun<Result>(entry: string, options: DurableOptions & HumanDecisions): Promise<OpenedStrategy<Result>> {
  const opened = await openStoredRun(options, entry);
  if (opened.kind === "finished") return { kind: "finished", result: opened.result as Result };
  if (opened.durability === undefined) return { kind: "run", runId: opened.runId, durability: undefined };
  const { store, runId } = opened.durability;
  const checkpoints = new Checkpoints(opened.durability);
  // Decisions on plans are the strategy's own (see planReviewing); the rest go to the plan run that waits.
  const callApprovals = Object.fromEntries(Object.entries(options.approvals ?? {}).filter(([key]) => !isPlanReviewKey(key)));
  let decisions = opened.kind === "continue" ? { ...givenDecisions(options), approvals: callApprovals } : undefined;
  const reviews = new Map<string, unknown>();
  for (const entry of opened.kind === "continue" ? opened.journal : [])
    if (entry.kind === "human-decision" && isPlanReviewKey(entry.id)) reviews.set(entry.id, entry.decision);
  return {
    kind: "run",
    runId,
    durability: {
      store,
      journal: opened.kind === "continue" ? opened.journal : [],
      checkpoints,
      replay: textReplay(opened.kind === "continue" ? opened.journal : [], checkpoints),
      calls: checkpoints.modelCalls((options as { secretKeys?: SecretKeys }).secretKeys ?? defaultSecretKeys),
      planRunId: (version) => `${runId}/plan:${version}`,
      decisionsFor: async (planRunId) => {
        if (decisions === undefined || (await store.getRun(planRunId))?.status !== "running") return undefined;
        const given = decisions;
        decisions = undefined;
        return given;
      },
      keptReview: (id) => reviews.get(id),
      keepReview(id, decision) {
        reviews.set(id, decision);
        checkpoints.write([
          {
            kind: "human-decision",
            id,
            decision,
            at: journalTime(),
            ...(options.decidedBy === undefined ? {} : { by: options.decidedBy }),
          },
        ]);
        return checkpoints.commit();
      },
    },
  };
}

/**
 * How a strategy run's result is kept: one that can be continued (it has a `state`) stays open
 * in the store, resumable by id, its pause kept so `planloop runs show` can say what it waits for;
 * any other is finished with its result.
 */
function strategyRunKept(result: { state?: unknown; status: string }): "finished" | JournalEntry {
  if (result.state === undefined) return "finished";
  return { kind: "paused", state: result.state, status: result.status, at: journalTime() };
}

/**
 * Text answers by what was asked: the same request (purpose and messages) asked the n-th
 * time in a run is the same call in every process that runs it, so its kept answer is read
 * back instead of asking again. The last entry of a call wins (a stream is kept as it goes).
 */
function textReplay(journal: readonly JournalEntry[], checkpoints: Checkpoints): TextReplay {
  const kept = new Map<string, KeptText>();
  for (const entry of journal) {
    if (entry.kind !== "text") continue;
    kept.set(entry.call, {
      text: entry.text,
      ...(entry.usage === undefined ? {} : { usage: entry.usage as Usage }),
      ...(entry.partial ? { partial: true } : {}),
    });
  }
  const asked = new Map<string, number>();
  return {
    open(purpose, messages) {
      const digest = createHash("sha256")
        .update(canonicalJson([purpose, messages]))
        .digest("hex")
        .slice(0, 24);
      const count = (asked.get(digest) ?? 0) + 1;
      asked.set(digest, count);
      const call = `${purpose}:${digest}:${count}`;
      return {
        kept: kept.get(call),
        keep(answer) {
          checkpoints.write([
            {
              kind: "text",
              call,
              text: answer.text,
              ...(answer.usage === undefined ? {} : { usage: answer.usage }),
              ...(answer.partial ? { partial: true } : {}),
            },
          ]);
          return checkpoints.commit();
        },
      };
    },
  };
}

/** The entry point each strategy's runs are kept under in a store (as the library names the function). */
export const strategyEntries: Readonly<Record<StrategyName, string>> = {
  react: "react",
  "plan-and-execute": "planAndExecute",
  rewoo: "rewoo",
  "llm-compiler": "llmCompiler",
  code: "codeMode",
};

/** What a resumed run had spent; or how to read it from the run's own journal, for a run continued by id. */
export type SavedTotals =
  | { usage: UsageTotals; elapsedMs: number }
  | ((journal: readonly JournalEntry[]) => { usage: UsageTotals; elapsedMs: number } | undefined)
  | undefined;

/**
 * A strategy run from start to end: opened by id (a finished run hands back its stored
 * result and runs nothing), run by `body` in the durable envelope (`runEnveloped`).
 */
export async function runStrategyDurably<Result extends { state?: unknown; status: string }>(
  strategy: StrategyName,
  options: StrategyOptions & HumanDecisions,
  saved: SavedTotals,
  body: (run: StrategyRun) => Promise<Result>,
): Promise<Result> {
  const opened = await openStrategyRun<Result>(strategyEntries[strategy], options);
  if (opened.kind === "finished") return opened.result;
  const totals = typeof saved === "function" ? saved(opened.durability?.journal ?? []) : saved;
  return runEnveloped<StrategyRun, Result>(opened.durability?.checkpoints, {
    start: () => startStrategyRun(strategy, options, opened, totals),
    body,
    kept: strategyRunKept,
    dispose: (run) => run.dispose(),
  });
}

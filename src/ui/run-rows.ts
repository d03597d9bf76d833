import {
  appendedOutcome,
  finishedOutcome,
  type CheckpointStore,
  type ListRunsOptions,
  type RunSummary,
  type StoredRun,
} from "../journal/checkpoint-store.js";
import type { UsageTotals } from "../core/usage.js";
import { failedStartEntry } from "../waits/failed-start.js";
import { childrenOf, standing } from "../strategies/stored-runs.js";
import { leftAloneReasons } from "../runs/left-alone.js";
import type { RunPage, RunRow } from "./api-types.js";

export type { RunPage, RunRow } from "./api-types.js";

/** Reads a page of top-level runs: each row with its task and steps read from its journal (and its inner runs'). */
export async function runPage(
  store: CheckpointStore,
  options: Pick<ListRunsOptions, "status" | "taskType" | "before"> & { limit: number },
): Promise<RunPage> {
  const showWaiting = options.before === undefined && (options.status === undefined || options.status === "waiting");
  const waitingRows = showWaiting ? await store.listRuns({ topLevel: true, status: "waiting", taskType: options.taskType }) : [];
  const listed = await store.listRuns({ ...options, topLevel: true });
  const rows = listed.filter((row) => row.outcome?.status !== "waiting" || !showWaiting);
  const last = listed.at(-1);
  const reasons = await leftAloneReasons(store, [...waitingRows, ...rows]);
  return {
    waiting: await Promise.all(waitingRows.map((row) => runRow(store, row, reasons))),
    runs: await Promise.all(rows.map((row) => runRow(store, row, reasons))),
    ...(listed.length === options.limit && last ? { next: { createdAt: last.createdAt, runId: last.runId } } : {}),
  };
}

/** One run's line of the list, read from the store, with why serve left it alone (`leftAloneReasons`), if it did. */
export async function runRow(store: CheckpointStore, summary: RunSummary, leftAlone: ReadonlyMap<string, string>): Promise<RunRow> {
  const run = await store.getRun(summary.runId);
  const row = rowOf(summary, run, run === undefined ? [] : await childrenOf(store, run.runId));
  const reason = leftAlone.get(summary.runId);
  return reason === undefined ? row : { ...row, leftAlone: reason };
}

/** A run's row as a listing would give it, from the run itself. */
export function summaryOf(run: StoredRun): RunSummary {
  const outcome = run.status === "finished" ? finishedOutcome(run.result) : appendedOutcome(run.journal.slice(-1));
  const { journal, result: _, ...row } = run;
  return { ...row, entries: journal.length, ...(outcome ? { outcome } : {}) };
}

/** One run's line of the list. */
export function rowOf(summary: RunSummary, run: StoredRun | undefined, children: readonly StoredRun[]): RunRow {
  const usage = (summary.outcome?.usage ?? (run?.result as { usage?: UsageTotals } | undefined)?.usage) as UsageTotals | undefined;
  return {
    runId: summary.runId,
    entry: summary.entry,
    task: run === undefined ? "" : taskOf(run, children),
    status: statusOf(summary),
    ...(summary.outcome?.unsupported === undefined ? {} : { unsupportedClaims: summary.outcome.unsupported }),
    ...(summary.outcome?.taskType === undefined ? {} : { taskType: summary.outcome.taskType }),
    steps: run === undefined ? "0/0" : standing(run, children).steps,
    ...(usage === undefined
      ? {}
      : { modelCalls: usage.modelCalls, tokens: usage.inputTokens + usage.outputTokens, costUsd: usage.costUsd }),
    createdAt: summary.createdAt,
    updatedAt: summary.updatedAt,
    durationMs: summary.updatedAt - summary.createdAt,
    entries: summary.entries,
    ...(summary.status === "running" && run !== undefined ? limitWaitOf([run, ...children], Date.now()) : {}),
  };
}

/**
 * The latest wait for a provider's limit written by the run or a run inside it, while it lasts
 * (its `until` is after `now`). Read from each journal's end: the newest entry is the one that counts.
 */
export function limitWaitOf(runs: readonly StoredRun[], now: number): Pick<RunRow, "limitWait"> {
  let found: { limit: string; until: number } | undefined;
  for (const run of runs) {
    for (let index = run.journal.length - 1; index >= 0; index -= 1) {
      const entry = run.journal[index]!;
      if (entry.kind !== "limit-wait") continue;
      if (entry.until > now && (found === undefined || entry.until > found.until)) found = { limit: entry.limit, until: entry.until };
      break;
    }
  }
  return found === undefined ? {} : { limitWait: found };
}

/** The status in the API's words: what the run finished or paused with, else running. */
export function statusOf(summary: Pick<RunSummary, "status" | "outcome">): string {
  return summary.outcome?.status ?? (summary.status === "finished" ? "finished" : "running");
}

/**
 * The first line of the run's task: the `ask` command's task, or its first model call's first
 * user message. A plan run has no task of its own (its first step's task, or an agent step's
 * prompt, is not the run's), so it is named by its plan: "a plan of 4 steps".
 */
export function taskOf(run: StoredRun, children: readonly StoredRun[]): string {
  if (run.entry === "executePlan") return planOf(run);
  // A schedule's run that could not start has no task of its own: why it did not start is its line.
  if (run.entry === failedStartEntry) return firstLine(String((run.result as { reason?: unknown } | undefined)?.reason ?? ""));
  for (const each of [run, ...children]) {
    for (const entry of each.journal) {
      if (entry.kind === "launch" && entry.argv[0] === "ask" && typeof entry.argv[1] === "string") return firstLine(entry.argv[1]);
      if (entry.kind !== "model-call") continue;
      const user = entry.call.added.find((message) => message.role === "user");
      if (user !== undefined) return firstLine(taskIn(user.content));
    }
  }
  return "";
}

/** A plan run's line: how many steps its last plan has. */
function planOf(run: StoredRun): string {
  const plan = run.journal.findLast((entry) => entry.kind === "plan")?.plan as { steps?: unknown[] } | undefined;
  const steps = plan?.steps?.length;
  return steps === undefined ? "" : `a plan of ${steps} step${steps === 1 ? "" : "s"}`;
}

/** A planner's prompt names the task on a line of its own (`Task: …`); a loop's first message is the task. */
function taskIn(content: string): string {
  const named = /^(?:task|goal):\s*(.+)$/im.exec(content);
  return named?.[1] ?? content;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

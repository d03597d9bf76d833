import { sleep } from "../../core/clock.js";
import { shown } from "../../core/errors.js";
import { isRecord } from "../../core/is-record.js";
import { previewOf } from "../../core/tools/tool-output.js";
import type { PlanStep } from "../../plan/plan-schema.js";
import type { PlanRun, StepOutcome } from "../live-run.js";
import type { PlanPendingCall, PollProgress, StepWait } from "../resume-state.js";
import { askedInPoll } from "./poll-decision.js";
import { runToolStep } from "./tool-step.js";

/*
 * A poll step is a tool step called again until its output says the work is done: every
 * `everyMs`, for at most `maxMs` from its first call. Each call is an ordinary tool call (the
 * guard, retries, approvals), but each asks a person under its own id (poll-decision.ts), and a
 * call that waits for one keeps the poll's progress: the poll ends at `maxMs` all the same.
 * Between calls a run without a store sleeps on its clock; a durable run holds nothing: the step
 * pauses as a timer that remembers when polling began and how many calls it made, and
 * `wakeDueRuns` continues it when the next call is due.
 */

/** When a poll step's output means the work is done: the value at `path` equals, is in, or exists. */
export type PollCondition = NonNullable<PlanStep["poll"]>["until"];

/** Runs a poll step to its end or its next pause; never throws. */
export async function runPollStep(run: PlanRun, index: number): Promise<StepOutcome> {
  const step = run.steps[index]!;
  const poll = step.poll!;
  const clock = run.config.clock;
  const saved = run.waiting.get(index);
  const kept = saved?.kind === "timer" || saved?.kind === "tool" ? saved.poll : undefined;
  const progress: PollProgress = { startedAt: kept?.startedAt ?? clock.now(), calls: kept?.calls ?? 0 };
  const endsAt = progress.startedAt + poll.maxMs;
  try {
    if (saved?.kind === "timer" && kept !== undefined) {
      run.waiting.delete(index);
      if (saved.until > clock.now()) {
        if (run.checkpoints !== undefined) return pausedPoll(step, saved);
        await sleep(saved.until - clock.now(), { clock, signal: run.signal });
      }
    }
    // A call that waited for a person past the poll's end is not made: the poll is over.
    if (saved?.kind === "tool" && kept !== undefined && clock.now() >= endsAt) {
      run.waiting.delete(index);
      return endedWaiting(step, saved.pending, progress, clock.now());
    }
    for (;;) {
      const outcome = await callOnce(run, index);
      if (outcome.status === "waiting") return askedInPoll(run, index, outcome, { progress, endsAt });
      progress.calls += 1;
      // A call that failed or was cancelled ends the step as any tool step's.
      if (outcome.status !== "succeeded" || meetsPoll(outcome.output, poll.until)) return outcome;
      const next = clock.now() + poll.everyMs;
      if (next > endsAt) return gaveUp(step, progress, clock.now(), outcome.output);
      const wait: StepWait = { kind: "timer", until: next, poll: { ...progress } };
      if (run.checkpoints !== undefined) return pausedPoll(step, wait);
      await sleep(poll.everyMs, { clock, signal: run.signal });
    }
  } catch (error) {
    if (run.signal.aborted) return { status: "cancelled", error: `the run stopped while step ${step.id} polled` };
    return { status: "failed", error: `polling failed: ${shown(error)}` };
  }
}

/** Whether a poll step's output meets its condition (a path of keys and indexes, by dots). */
export function meetsPoll(output: unknown, until: PollCondition): boolean {
  const found = valueAt(output, until.path);
  if (until.exists !== undefined) return (found !== undefined) === until.exists;
  const seen = JSON.stringify(found);
  if (until.in !== undefined) return until.in.some((value) => JSON.stringify(value) === seen);
  return JSON.stringify(until.equals) === seen;
}

function valueAt(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path === "" ? [] : path.split(".")) {
    if (Array.isArray(here) && /^\d+$/.test(key)) here = here[Number(key)];
    else if (isRecord(here) && Object.hasOwn(here, key)) here = here[key];
    else return undefined;
  }
  return here;
}

/** One call of the step's tool, as a promise of its outcome. */
function callOnce(run: PlanRun, index: number): Promise<StepOutcome> {
  return new Promise((resolve) => {
    const ended = runToolStep(run, index, (_run, _index, outcome) => resolve(outcome), noDone);
    if (ended !== undefined) resolve(ended);
  });
}

function noDone(): void {}

function pausedPoll(step: PlanStep, wait: StepWait & { kind: "timer" }): StepOutcome {
  return { status: "waiting", error: `step ${step.id} polls ${step.tool} again at ${new Date(wait.until).toISOString()}`, waiting: wait };
}

function gaveUp(step: PlanStep, progress: PollProgress, now: number, output: unknown): StepOutcome {
  const { until, maxMs } = step.poll!;
  return {
    status: "failed",
    error: `step ${step.id} called ${step.tool} ${progress.calls} times over ${now - progress.startedAt} ms and its output never met poll.until ${JSON.stringify(until)} within maxMs ${maxMs}; last output: ${previewOf(output)}`,
  };
}

function endedWaiting(step: PlanStep, pending: PlanPendingCall, progress: PollProgress, now: number): StepOutcome {
  return {
    status: "failed",
    error: `step ${step.id} called ${step.tool} ${progress.calls} times over ${now - progress.startedAt} ms; its next call waited for ${pending.kind === "input" ? "an answer" : "a decision"} (${pending.id}) when maxMs ${step.poll!.maxMs} was up`,
  };
}

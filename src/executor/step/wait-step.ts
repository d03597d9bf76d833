import { sleep } from "../../core/clock.js";
import { shown } from "../../core/errors.js";
import type { StoredEvent } from "../../journal/checkpoint-store.js";
import type { PlanStep } from "../../plan/plan-schema.js";
import type { PlanRun, StepOutcome } from "../live-run.js";
import type { StepWait } from "../resume-state.js";

/*
 * A wait step calls nothing: it ends when its time comes (`wait`) or its event arrives
 * (`waitFor`). A run without a store sleeps on its clock for a timer; a durable run holds
 * nothing: the step pauses (`waiting`, with what wakes it), the run is kept and returns, and
 * `wakeDueRuns` continues it when the time has come or the event was sent. Continued, the step
 * reads what it waited for again from its saved wait, so its time and its place among the
 * events stay the ones it began with.
 */

/** Runs a wait step; never throws (a store that fails fails the step, saying so). */
export async function runWaitStep(run: PlanRun, index: number): Promise<StepOutcome> {
  const step = run.steps[index]!;
  const saved = run.waiting.get(index);
  run.waiting.delete(index);
  const resumed = saved?.kind === "timer" || saved?.kind === "event" ? saved : undefined;
  try {
    if (step.waitFor !== undefined) return await waitForEvent(run, step, resumed?.kind === "event" ? resumed : undefined);
    return await waitForTime(run, step, resumed?.kind === "timer" ? resumed.until : undefined);
  } catch (error) {
    if (run.signal.aborted) return { status: "cancelled", error: `the run stopped while step ${step.id} waited` };
    return { status: "failed", error: `waiting failed: ${shown(error)}` };
  }
}

/** When a timer step started now wakes: `until`, or `forMs` from now, in ms since 1970. */
export function wakeTime(wait: NonNullable<PlanStep["wait"]>, now: number): number {
  return wait.until !== undefined ? Date.parse(wait.until) : now + (wait.forMs ?? 0);
}

async function waitForTime(run: PlanRun, step: PlanStep, savedUntil: number | undefined): Promise<StepOutcome> {
  const clock = run.config.clock;
  const until = savedUntil ?? wakeTime(step.wait!, clock.now());
  const left = until - clock.now();
  if (left > 0 && run.checkpoints !== undefined) return paused({ kind: "timer", until }, `waits until ${iso(until)}`);
  if (left > 0) await sleep(left, { clock, signal: run.signal });
  return { status: "succeeded", output: { wokeAt: iso(clock.now()), waitedUntil: iso(until) } };
}

async function waitForEvent(run: PlanRun, step: PlanStep, saved: Extract<StepWait, { kind: "event" }> | undefined): Promise<StepOutcome> {
  const { event: name, match, timeoutMs } = step.waitFor!;
  const log = run.checkpoints?.durability.store.events;
  if (log === undefined) {
    const why = run.checkpoints === undefined ? "the run has no store" : "the run's store keeps no events";
    return {
      status: "failed",
      error: `step ${step.id} waits for event "${name}", but ${why}: run it with a store (memoryStore, sqliteStore, postgresStore) and send the event with sendEvent`,
    };
  }
  const now = run.config.clock.now();
  const wanted = (event: StoredEvent) => matches(event.data, match);
  if (saved !== undefined) {
    // Woken: the first matching event sent since the step began to wait (each such event wakes it once).
    const sent = await log.read({ name, runId: run.runId, afterSeq: saved.afterSeq, at: now });
    const found = sent.find(wanted);
    if (found !== undefined) {
      await log.take(found.seq, run.runId, now);
      return { status: "succeeded", output: found.data };
    }
    if (saved.deadline !== undefined && saved.deadline <= now) return timedOut(step, name, timeoutMs);
    const afterSeq = sent.reduce((last, event) => Math.max(last, event.seq), saved.afterSeq);
    return paused({ ...saved, afterSeq }, waitingFor(name, saved.deadline));
  }
  // Starting to wait: an event sent before the run got here, that no run took yet, is this step's.
  const cursor = await log.lastSeq();
  for (const event of await log.read({ name, runId: run.runId, afterSeq: 0, upTo: cursor, at: now })) {
    if (wanted(event) && (await log.take(event.seq, run.runId, now))) return { status: "succeeded", output: event.data };
  }
  const deadline = timeoutMs === undefined ? undefined : now + timeoutMs;
  const wait: StepWait = {
    kind: "event",
    event: name,
    afterSeq: cursor,
    ...(match ? { match } : {}),
    ...(deadline === undefined ? {} : { deadline }),
  };
  return paused(wait, waitingFor(name, deadline));
}

/** Whether an event's data has every field of `match` equal (compared as JSON). */
export function matches(data: unknown, match: Record<string, unknown> | undefined): boolean {
  if (match === undefined) return true;
  if (typeof data !== "object" || data === null) return false;
  return Object.entries(match).every(([key, value]) => JSON.stringify((data as Record<string, unknown>)[key]) === JSON.stringify(value));
}

function paused(waiting: StepWait, error: string): StepOutcome {
  return { status: "waiting", error, waiting };
}

function timedOut(step: PlanStep, name: string, timeoutMs: number | undefined): StepOutcome {
  return { status: "failed", error: `step ${step.id} waited ${timeoutMs ?? 0} ms for event "${name}" and none came (waitFor.timeoutMs)` };
}

function waitingFor(name: string, deadline: number | undefined): string {
  return `waits for event "${name}"${deadline === undefined ? "" : ` until ${iso(deadline)}`}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

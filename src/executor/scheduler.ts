import type { PlanGraph } from "../plan/graph/plan-graph.js";
import { Readiness, type InitialStanding } from "./readiness.js";
import { ReadyQueue } from "./ready-queue.js";
import type { StepSlot } from "./step-slots.js";

export interface SchedulerHooks {
  /** The plan's graph; a streamed plan grows it before each `add`. */
  graph: PlanGraph;
  /** Per step, higher runs first among ready steps (the remaining path length); without, plan order. */
  priorities: Float64Array | undefined;
  concurrency: number;
  /** Slots shared with other runs (`StepSlots`): a step also needs one of them to start. */
  slot?: StepSlot | undefined;
  /** A step finished before this run (a resume): `succeeded` counts as met, `settled` never starts. */
  initially(step: number): InitialStanding;
  /** The tool a step calls and how many steps of that tool may run at once. */
  toolOf(step: number): string | undefined;
  toolLimit(tool: string): number;
  /** False once the run must stop starting steps (cancelled, deadline, budget). */
  mayStart(): boolean;
  onReady(step: number): void;
  /**
   * Runs the step. Ended at once: whether it succeeded. Still running: undefined, and
   * `done(step, ok)` is called once when it ends (no promise per step in flight). Must not throw.
   */
  run(step: number, done: (step: number, ok: boolean) => void): boolean | undefined;
  /** Milliseconds from any fixed start: how long a burst of instant steps has held the loop. */
  now(): number;
  /** Calls `resume` once timers and I/O have had a turn (`setImmediate` in a real run). */
  yieldTurn(resume: () => void): void;
}

/** The real clock and turn for a run's scheduler. */
export const eventLoopTurns: Pick<SchedulerHooks, "now" | "yieldTurn"> = {
  now: () => performance.now(),
  yieldTurn: (resume) => setImmediate(resume),
};

export interface Scheduler {
  /** Takes a step whose dependencies are already in the graph. */
  add(step: number): void;
  /** No more steps will be added; `done` resolves once nothing runs and nothing can start. */
  close(): void;
  /** The priorities changed: the waiting steps are put in order again. */
  reorder(): void;
  done: Promise<void>;
}

/** How long a burst of steps that finish at once may hold the event loop. */
const burstMs = 5;

/**
 * Runs the steps `Readiness` calls ready in slots: a step starts the moment its own
 * dependencies have succeeded and a slot is free, not when a whole level has finished. Among
 * ready steps the highest priority goes first; a step whose tool is at its own limit waits
 * aside without holding a slot. Steps may be added while others run (a plan that is still
 * being written). Time and event-loop turns come from the hooks.
 */
export function createScheduler(hooks: SchedulerHooks): Scheduler {
  const readiness = new Readiness(hooks.graph);
  const queue = new ReadyQueue(hooks.priorities, hooks.graph.keys.length);
  // Ready steps whose tool is at its own limit, by tool, best first: one goes back to the
  // ready queue each time a step of that tool ends.
  const parkedByTool = new Map<string, ReadyQueue>();
  const runningByTool = new Map<string, number>();
  let running = 0;
  let closed = false;
  let pumpQueued = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const makeReady = (step: number) => {
    hooks.onReady(step);
    queue.push(step);
  };

  // Steps that finished synchronously, handled by the pump's loop rather than by recursion,
  // so a long chain of instant steps does not grow the stack.
  // (Plain lists that are never shrunk: no allocation per step.)
  const finishedNow: number[] = [];
  const finishedOk: boolean[] = [];
  let finishedCount = 0;
  let nextFinished = 0;
  let pumping = false;
  let sinceCheck = 0;

  const pump = () => {
    pumpQueued = false;
    if (pumping) return;
    pumping = true;
    // When this burst reached its first time check (the clock is read every 64 starts).
    let burstStartedAt = -1;
    for (;;) {
      while (nextFinished < finishedCount) {
        const ok = finishedOk[nextFinished]!;
        const step = finishedNow[nextFinished++]!;
        complete(step, hooks.toolOf(step), ok);
      }
      finishedCount = nextFinished = 0;
      if (running >= hooks.concurrency || queue.size === 0 || !hooks.mayStart()) break;
      // Give timers and abort signals a turn during a long burst of instant steps: after a
      // few milliseconds of it, not after so many steps, so that a short burst runs through
      // without waiting on the event loop (nor on the collections that wait for a turn).
      if (++sinceCheck >= 64) {
        sinceCheck = 0;
        const now = hooks.now();
        if (burstStartedAt < 0) burstStartedAt = now;
        else if (now - burstStartedAt >= burstMs) {
          pumping = false;
          hooks.yieldTurn(pump);
          return;
        }
      }
      const step = queue.pop()!;
      const tool = hooks.toolOf(step);
      if (tool !== undefined && (runningByTool.get(tool) ?? 0) >= hooks.toolLimit(tool)) {
        let parked = parkedByTool.get(tool);
        if (parked === undefined) parkedByTool.set(tool, (parked = new ReadyQueue(hooks.priorities)));
        parked.push(step);
        continue;
      }
      // A slot shared with other runs: when none is this run's now, the step waits, and the run is woken when one may be.
      if (hooks.slot !== undefined && !hooks.slot.take(schedulePump)) {
        queue.push(step);
        break;
      }
      start(step, tool);
    }
    pumping = false;
    // Steps still ready (waiting for a shared slot) keep the run open while it may start them.
    if (closed && running === 0 && finishedCount === 0 && (queue.size === 0 || !hooks.mayStart())) {
      hooks.slot?.leave();
      finish();
    }
  };

  // Adds made in one go (a whole plan) are pumped once, so priorities see every ready step.
  const schedulePump = () => {
    if (pumpQueued) return;
    pumpQueued = true;
    queueMicrotask(pump);
  };

  const start = (step: number, tool: string | undefined) => {
    running += 1;
    if (tool !== undefined) runningByTool.set(tool, (runningByTool.get(tool) ?? 0) + 1);
    const result = hooks.run(step, ended);
    if (result !== undefined) {
      finishedOk[finishedCount] = result;
      finishedNow[finishedCount++] = step;
    }
  };

  // One function for every step that ends later: no closure per step in flight.
  const ended = (step: number, ok: boolean) => {
    complete(step, hooks.toolOf(step), ok);
    pump();
  };

  const complete = (step: number, tool: string | undefined, ok: boolean) => {
    running -= 1;
    hooks.slot?.release();
    if (tool !== undefined) {
      runningByTool.set(tool, runningByTool.get(tool)! - 1);
      const parked = parkedByTool.get(tool);
      if (parked !== undefined && parked.size > 0) queue.push(parked.pop()!);
    }
    readiness.complete(step, ok, makeReady);
  };

  return {
    add(step) {
      if (readiness.add(step, hooks.initially(step))) makeReady(step);
      schedulePump();
    },
    close() {
      closed = true;
      schedulePump();
    },
    reorder() {
      queue.reorder();
      for (const parked of parkedByTool.values()) parked.reorder();
    },
    done,
  };
}

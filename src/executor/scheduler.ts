import type { PlanGraph } from "../planner/plan-graph.js";
import { isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { ReadyQueue } from "./ready-queue.js";

export interface SchedulerHooks {
  /** The plan's graph; a streamed plan grows it before each `add`. */
  graph: PlanGraph;
  /** Per step, higher runs first among ready steps (the remaining path length); without, plan order. */
  priorities: Float64Array | undefined;
  concurrency: number;
  /** A step finished before this run (a resume): `succeeded` counts as met, `settled` never starts. */
  initially(step: number): "open" | "succeeded" | "settled";
  /** The tool a step calls and how many steps of that tool may run at once. */
  toolOf(step: number): string | undefined;
  toolLimit(tool: string): number;
  /** False once the run must stop starting steps (cancelled, deadline, budget). */
  mayStart(): boolean;
  onReady(step: number): void;
  /** Runs the step; true when it succeeded (at once, or as a promise). Must not throw or reject. */
  run(step: number): MaybePromise<boolean>;
}

export interface Scheduler {
  /** Takes a step whose dependencies are already in the graph. */
  add(step: number): void;
  /** No more steps will be added; `done` resolves once nothing runs and nothing can start. */
  close(): void;
  done: Promise<void>;
}

/** How long a burst of steps that finish at once may hold the event loop. */
const burstMs = 5;

/**
 * The ready queue: a step starts the moment its own dependencies have succeeded and a slot
 * is free, not when a whole level has finished. Among ready steps the highest priority goes
 * first; a step whose tool is at its own limit waits aside without holding a slot. Steps may
 * be added while others run (a plan that is still being written).
 */
export function createScheduler(hooks: SchedulerHooks): Scheduler {
  const { graph } = hooks;
  // Per step, in arrays outside the JS heap that grow as a streamed plan does: how many of
  // its dependencies have not succeeded yet (-1: not added, or settled before this run), and
  // whether it succeeded.
  let unmet = new Int32Array(Math.max(graph.keys.length, 16)).fill(-1);
  let succeeded = new Uint8Array(unmet.length);
  const makeRoom = (step: number) => {
    if (step < unmet.length) return;
    const size = Math.max(step + 1, unmet.length * 2);
    const grownUnmet = new Int32Array(size).fill(-1);
    grownUnmet.set(unmet);
    const grownSucceeded = new Uint8Array(size);
    grownSucceeded.set(succeeded);
    unmet = grownUnmet;
    succeeded = grownSucceeded;
  };
  const queue = new ReadyQueue(hooks.priorities);
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
        const now = performance.now();
        if (burstStartedAt < 0) burstStartedAt = now;
        else if (now - burstStartedAt >= burstMs) {
          pumping = false;
          setImmediate(pump);
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
      start(step, tool);
    }
    pumping = false;
    if (closed && running === 0 && finishedCount === 0) finish();
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
    const result = hooks.run(step);
    if (isPromiseLike(result)) {
      void Promise.resolve(result).then((ok) => {
        complete(step, tool, ok);
        pump();
      });
    } else {
      finishedOk[finishedCount] = result;
      finishedNow[finishedCount++] = step;
    }
  };

  const complete = (step: number, tool: string | undefined, ok: boolean) => {
    running -= 1;
    succeeded[step] = ok ? 1 : 0;
    if (tool !== undefined) {
      runningByTool.set(tool, runningByTool.get(tool)! - 1);
      const parked = parkedByTool.get(tool);
      if (parked !== undefined && parked.size > 0) queue.push(parked.pop()!);
    }
    if (ok) {
      const dependents = graph.dependents;
      for (let link = dependents.first(step); link !== -1; link = dependents.next(link)) {
        const next = dependents.target(link);
        // Not added yet, settled, or already ready (past the end of the array reads undefined).
        if (!(unmet[next]! > 0)) continue;
        if (--unmet[next]! === 0) makeReady(next);
      }
    }
  };

  return {
    add(step) {
      makeRoom(step);
      const initial = hooks.initially(step);
      if (initial !== "open") {
        succeeded[step] = initial === "succeeded" ? 1 : 0;
        return;
      }
      let waiting = 0;
      const needs = graph.dependencies;
      for (let link = needs.first(step); link !== -1; link = needs.next(link)) if (succeeded[needs.target(link)] === 0) waiting += 1;
      unmet[step] = waiting;
      if (waiting === 0) makeReady(step);
      schedulePump();
    },
    close() {
      closed = true;
      schedulePump();
    },
    done,
  };
}

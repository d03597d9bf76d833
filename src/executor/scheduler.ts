import type { PlanGraph } from "../planner/plan-graph.js";
import { ReadyQueue } from "./ready-queue.js";

export interface SchedulerHooks {
  graph: PlanGraph;
  /** Higher runs first among ready steps (the remaining path length). */
  priorities: readonly number[];
  concurrency: number;
  /** Steps already finished before this run (a resumed run); only `true` entries count as succeeded. */
  succeeded: readonly boolean[];
  /** Steps not to start at all (finished with another status before a resume). */
  settled: readonly boolean[];
  /** The tool a step calls and how many steps of that tool may run at once. */
  toolOf(step: number): string | undefined;
  toolLimit(tool: string): number;
  /** False once the run must stop starting steps (cancelled, deadline, budget). */
  mayStart(): boolean;
  onReady(step: number): void;
  /** Runs the step; resolves true when it succeeded. Must not reject. */
  run(step: number): Promise<boolean>;
}

/**
 * The ready queue: a step starts the moment its own dependencies have succeeded and a slot
 * is free, not when a whole level has finished. Among ready steps the longest remaining
 * path goes first; a step whose tool is at its own limit waits aside without holding a
 * slot. Resolves when nothing runs and nothing more can start.
 */
export function schedule(hooks: SchedulerHooks): Promise<void> {
  const { graph } = hooks;
  const unmet = graph.dependencies.map((needs) => needs.filter((need) => !hooks.succeeded[need]).length);
  const queue = new ReadyQueue(hooks.priorities);
  const parkedByTool = new Map<string, number[]>();
  const runningByTool = new Map<string, number>();
  let running = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const makeReady = (step: number) => {
    hooks.onReady(step);
    queue.push(step);
  };

  const pump = () => {
    while (running < hooks.concurrency && queue.size > 0 && hooks.mayStart()) {
      const step = queue.pop()!;
      const tool = hooks.toolOf(step);
      if (tool !== undefined && (runningByTool.get(tool) ?? 0) >= hooks.toolLimit(tool)) {
        parkedByTool.set(tool, [...(parkedByTool.get(tool) ?? []), step]);
        continue;
      }
      start(step, tool);
    }
    if (running === 0) finish();
  };

  const start = (step: number, tool: string | undefined) => {
    running += 1;
    if (tool !== undefined) runningByTool.set(tool, (runningByTool.get(tool) ?? 0) + 1);
    void hooks.run(step).then((succeeded) => {
      running -= 1;
      if (tool !== undefined) {
        runningByTool.set(tool, runningByTool.get(tool)! - 1);
        for (const parked of parkedByTool.get(tool) ?? []) queue.push(parked);
        parkedByTool.delete(tool);
      }
      if (succeeded) {
        for (const next of graph.dependents[step]!) {
          unmet[next]! -= 1;
          if (unmet[next] === 0 && !hooks.settled[next] && !hooks.succeeded[next]) makeReady(next);
        }
      }
      pump();
    });
  };

  graph.keys.forEach((_, step) => {
    if (unmet[step] === 0 && !hooks.settled[step] && !hooks.succeeded[step]) makeReady(step);
  });
  pump();
  return finished;
}

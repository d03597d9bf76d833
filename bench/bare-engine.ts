// The reference line for the executor's overhead: the least a ready-queue engine does per
// step, written as anyone would write it in a few lines (an async function per step, a
// count of unmet dependencies, a queue of ready steps, a concurrency limit). No checks, no
// records, no events, no retries, no budget: what planloop adds to this is its overhead.
import type { PlanInput } from "../dist/index.js";

/** Runs `plan` with `execute` per step, at most `concurrency` at once; the outputs by step. */
export function runBareEngine(plan: PlanInput, execute: (args: unknown) => unknown, concurrency: number): Promise<unknown[]> {
  const steps = plan.steps;
  const indexOf = new Map(steps.map((step, index) => [String(step.id), index]));
  const dependents: number[][] = steps.map(() => []);
  const unmet = new Int32Array(steps.length);
  steps.forEach((step, index) => {
    for (const dependency of step.depends_on ?? []) {
      dependents[indexOf.get(String(dependency))!]!.push(index);
      unmet[index]! += 1;
    }
  });
  const ready: number[] = [];
  for (let index = 0; index < steps.length; index += 1) if (unmet[index] === 0) ready.push(index);
  const outputs: unknown[] = new Array(steps.length);
  let running = 0;
  let next = 0;
  let finished = 0;
  return new Promise((resolve) => {
    const pump = () => {
      while (running < concurrency && next < ready.length) {
        running += 1;
        void run(ready[next++]!);
      }
      if (finished === steps.length) resolve(outputs);
    };
    const run = async (index: number) => {
      outputs[index] = await execute(steps[index]!.args);
      running -= 1;
      finished += 1;
      for (const dependent of dependents[index]!) if ((unmet[dependent]! -= 1) === 0) ready.push(dependent);
      pump();
    };
    pump();
  });
}

import { raceAbort } from "../../core/abort.js";
import { shown } from "../../core/errors.js";
import type { PlanRun } from "../live-run.js";

/*
 * What looks at a step's output when it succeeds: the tool's `check` and the run's `observe`
 * hook. A concern they raise asks for a replan (see `recordEnd` in run-step.ts).
 */

/** Whether anything looks at this step's output; most runs skip the check entirely. */
export function watched(run: PlanRun, index: number): boolean {
  const tool = run.steps[index]!.tool;
  return run.config.observe !== undefined || (tool !== undefined && run.config.toolsByName.get(tool)?.check !== undefined);
}

/** The tool's `check` and the run's `observe` hook; a throwing check counts as a concern. */
export async function observe(run: PlanRun, index: number, output: unknown): Promise<string | undefined> {
  const step = run.steps[index]!;
  const check = step.tool ? run.config.toolsByName.get(step.tool)?.check : undefined;
  try {
    const concern = check?.(output) || (await observation(run, { step, output }))?.replan || undefined;
    return concern !== undefined && run.config.acknowledged.includes(concern) ? undefined : concern;
  } catch (error) {
    // A run that stopped while `observe` looked keeps the step's output, with no concern.
    if (run.signal.aborted) return undefined;
    return `checking the output failed: ${shown(error)}`;
  }
}

/** The run's `observe` hook, raced against the run's signal: a hook that never answers cannot outlive the run. */
function observation(run: PlanRun, seen: { step: PlanRun["steps"][number]; output: unknown }) {
  const { observe } = run.config;
  return observe === undefined
    ? undefined
    : raceAbort(
        Promise.resolve().then(() => observe(seen)),
        run.signal,
      );
}

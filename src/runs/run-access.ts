import type { RunOrigin } from "../journal/checkpoint-store.js";

/** Who asks to change a run, as a face authenticated them: a name, and whether they may act on every run. */
export interface RunCaller {
  name: string;
  /** May act on runs others started (an admin; a client that may also decide runs). */
  everyRun: boolean;
}

/**
 * Whether `caller` may change (cancel, fork) a run: a run its own client started (the run's
 * recorded origin, never its id), or any run for a caller that may act on every run. A client
 * that may only start runs cannot end or copy another's.
 */
export function mayChangeRun(run: { origin?: RunOrigin | undefined }, caller: RunCaller): boolean {
  return caller.everyRun || run.origin?.client === caller.name;
}

/** The refusal a face shows when `mayChangeRun` says no, saying whose run it is and what would do. */
export function notCallersRun(run: { runId: string; origin?: RunOrigin | undefined }, caller: RunCaller, verb: string): string {
  const whose = run.origin?.client === undefined ? "was not started by an API client" : `was started by another client`;
  return `run "${run.runId}" ${whose}; ${caller.name} may ${verb} only the runs it started (a token that may also decide runs may ${verb} any)`;
}

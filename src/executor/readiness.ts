import type { PlanGraph } from "../plan/graph/plan-graph.js";

/** How a step stands when it is added: not run yet, or ended before this run (a resume). */
export type InitialStanding = "open" | "succeeded" | "settled";

/**
 * Which steps may start, and nothing else: per step, how many of its dependencies have not
 * succeeded yet. Pure (no timers, no slots, no tools): the scheduler asks it and runs what it
 * says. A step is ready once every dependency succeeded; a step whose dependency failed never
 * becomes ready. The graph may grow between calls (a plan still being written).
 */
export class Readiness {
  // In arrays outside the JS heap that grow with the graph: per step, the dependencies not
  // yet succeeded (-1: not added, settled before this run, or already ready), and success.
  private unmet: Int32Array;
  private succeeded: Uint8Array;

  constructor(private readonly graph: Pick<PlanGraph, "dependencies" | "dependents" | "keys">) {
    this.unmet = new Int32Array(Math.max(graph.keys.length, 16)).fill(-1);
    this.succeeded = new Uint8Array(this.unmet.length);
  }

  /** Takes a step whose dependencies are already in the graph; true when it is ready now. */
  add(step: number, standing: InitialStanding): boolean {
    this.makeRoom(step);
    if (standing !== "open") {
      this.succeeded[step] = standing === "succeeded" ? 1 : 0;
      return false;
    }
    let waiting = 0;
    const needs = this.graph.dependencies;
    for (let link = needs.first(step); link !== -1; link = needs.next(link)) if (this.succeeded[needs.target(link)] === 0) waiting += 1;
    // Ready at once: marked -1 so that no later completion makes it ready again.
    this.unmet[step] = waiting === 0 ? -1 : waiting;
    return waiting === 0;
  }

  /**
   * A step ended, `ok` when it succeeded: `onReady` hears of each step this made ready, in the
   * order of the step's dependents. (A callback, not a list: a list emptied for each call
   * gives its backing store back and is given a new one, 150 bytes a step along a chain.)
   */
  complete(step: number, ok: boolean, onReady: (step: number) => void): void {
    this.succeeded[step] = ok ? 1 : 0;
    if (!ok) return;
    const dependents = this.graph.dependents;
    const unmet = this.unmet;
    for (let link = dependents.first(step); link !== -1; link = dependents.next(link)) {
      const next = dependents.target(link);
      // Not added yet, settled, or already ready (past the end of the array reads undefined).
      if (!(unmet[next]! > 0)) continue;
      if (--unmet[next]! === 0) {
        unmet[next] = -1;
        onReady(next);
      }
    }
  }

  private makeRoom(step: number): void {
    if (step < this.unmet.length) return;
    const size = Math.max(step + 1, this.unmet.length * 2);
    const unmet = new Int32Array(size).fill(-1);
    unmet.set(this.unmet);
    const succeeded = new Uint8Array(size);
    succeeded.set(this.succeeded);
    this.unmet = unmet;
    this.succeeded = succeeded;
  }
}

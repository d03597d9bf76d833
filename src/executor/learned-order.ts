import { remainingPathLengths } from "../plan/graph/plan-graph.js";
import type { PlanStep } from "../plan/plan-schema.js";
import type { PlanRun } from "./live-run.js";

/** The key agent steps are learned under (no tool name can hold a NUL). */
const agentKey = "\u0000agent";

/**
 * The priorities of a plan run's steps (longest remaining path first), learned as the run
 * goes when steps carry no estimates. A step is weighted by its own `estimateMs`, else by the
 * latency book, else by its tool's `estimateMs`, else by what its tool (or agent steps) took
 * so far in this run, else by the run's typical step so far (1 before anything ended: step
 * count). When a tool is seen for the first time, or the typical step first becomes known,
 * the weights that were guesses change, and the priorities are computed again in place:
 * at most once per tool, each in time linear in the plan.
 */
export class LearnedOrder {
  readonly priorities: Float64Array;
  private readonly seen = new Map<string, [mean: number, count: number]>();
  private typical: [mean: number, count: number] | undefined;
  /** Tools (and agent steps) weighted by a guess at the last computation. */
  private guessed = new Set<string>();
  /** Whether any step was weighted by a known latency at the last computation. */
  private anyKnown = false;

  constructor(private readonly run: PlanRun) {
    this.priorities = this.compute();
  }

  /**
   * Learns that a step took `ms`; true when that changed the priorities (the ready steps
   * must then be ordered again).
   */
  observe(step: PlanStep, ms: number): boolean {
    if (!Number.isFinite(ms) || ms < 0) return false;
    const key = step.tool ?? agentKey;
    learn(this.seen, key, ms);
    this.typical =
      this.typical === undefined ? [ms, 1] : [this.typical[0] + (ms - this.typical[0]) / (this.typical[1] + 1), this.typical[1] + 1];
    // Only the first time a tool is seen: its steps (and, the first time of all, every unknown
    // tool's, now weighted by the typical step) were guesses.
    if (!this.guessed.has(key)) return false;
    // Every step guessed alike, and this is their one tool: learning it scales every weight
    // the same, and the order stays as it is (a plan of one tool, or of tools all unknown).
    if (!this.anyKnown && this.guessed.size === 1) {
      this.guessed.delete(key);
      return false;
    }
    this.priorities.set(this.compute());
    return true;
  }

  private compute(): Float64Array {
    this.guessed = new Set();
    this.anyKnown = false;
    return remainingPathLengths(this.run.graph, (index) => this.weigh(this.run.steps[index]!), this.run.config.order);
  }

  private weigh(step: PlanStep): number {
    const known =
      step.estimateMs ??
      this.run.config.latencies?.estimate(step) ??
      (step.tool === undefined ? undefined : this.run.config.toolsByName.get(step.tool)?.estimateMs);
    if (known !== undefined) {
      this.anyKnown = true;
      return known;
    }
    const key = step.tool ?? agentKey;
    const learned = this.seen.get(key);
    if (learned !== undefined) return learned[0];
    this.guessed.add(key);
    return this.typical === undefined ? 1 : this.typical[0];
  }
}

function learn(means: Map<string, [number, number]>, key: string, ms: number): void {
  const entry = means.get(key);
  if (entry === undefined) means.set(key, [ms, 1]);
  else means.set(key, [entry[0] + (ms - entry[0]) / (entry[1] + 1), entry[1] + 1]);
}

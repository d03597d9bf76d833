import { remainingPathLengths } from "../plan/graph/plan-graph.js";
import { stepKind } from "../plan/step-kind.js";
import type { PlanStep } from "../plan/plan-schema.js";
import type { PlanRun } from "./live-run.js";

/** The key agent steps are learned under (no tool name can hold a NUL). */
const agentKey = "\u0000agent";
const waitKey = "\u0000wait";

/**
 * The priorities of a plan run's steps (longest remaining path first), learned as the run
 * goes when steps carry no estimates. A step is weighted by its own `estimateMs`, else by the
 * latency book, else by its tool's `estimateMs`, else by what its tool (or agent steps) took
 * so far in this run, else by the run's typical step so far (1 before anything ended: step
 * count), or by how long the tool's first step has been running if that is longer: a call
 * still running after 40 ms takes at least 40 ms, so a slow service is known to be slow
 * long before its first call returns. When a tool is seen for the first time, or a first
 * call has run half as long again as its tool was weighted, the weights change and the
 * priorities are computed again in place, each time in time linear in the plan: once per
 * tool seen, and a few times per tool while its first call runs.
 */
export class LearnedOrder {
  readonly priorities: Float64Array;
  private readonly seen = new Map<string, Mean>();
  private typical: Mean | undefined;
  /** Tools (and agent steps) weighted by a guess at the last computation. */
  private guessed = new Set<string>();
  /** Whether any step was weighted by a known latency at the last computation. */
  private anyKnown = false;
  /** Per tool not seen yet: its first step that is still running, and when it started. */
  private readonly firstRunning = new Map<string, { index: number; since: number }>();
  /** Per tool not seen yet: how long its first call had run when the weights last changed. */
  private readonly atLeast = new Map<string, number>();

  constructor(private readonly run: PlanRun) {
    this.priorities = this.compute();
  }

  /**
   * Whether what the run's steps take can change the order: false when every step is weighed
   * by a known latency, or when every step is guessed alike and they share one tool (learning
   * it scales every weight the same). Then nothing needs to hear of steps starting and ending.
   */
  get learning(): boolean {
    return this.guessed.size > 1 || (this.guessed.size === 1 && this.anyKnown);
  }

  /** A step started at `at` (the run's milliseconds). */
  started(index: number, at: number): void {
    const key = keyOf(this.run.steps[index]!);
    if (!this.seen.has(key) && !this.firstRunning.has(key)) this.firstRunning.set(key, { index, since: at });
  }

  /**
   * A started step ended, `ms` after it started (`ok`: it succeeded, so `ms` is a latency),
   * at `now`. True when that changed the priorities (the ready steps must be ordered again).
   */
  ended(index: number, ms: number, ok: boolean, now: number): boolean {
    const step = this.run.steps[index]!;
    const key = keyOf(step);
    if (this.firstRunning.get(key)?.index === index) this.firstRunning.delete(key);
    const learned = ok && Number.isFinite(ms) && ms >= 0 && this.learn(key, ms);
    const outran = this.firstCallsOutran(now);
    if (!learned && !outran) return false;
    this.priorities.set(this.compute());
    return true;
  }

  /** Learns a latency; true when the weights it changes were guesses (the first time a tool is seen). */
  private learn(key: string, ms: number): boolean {
    const entry = this.seen.get(key);
    if (entry === undefined) this.seen.set(key, { mean: ms, count: 1 });
    else addTo(entry, ms);
    this.atLeast.delete(key);
    if (this.typical === undefined) this.typical = { mean: ms, count: 1 };
    else addTo(this.typical, ms);
    // Only the first time a tool is seen: its steps (and, the first time of all, every unknown
    // tool's, now weighted by the typical step) were guesses.
    if (!this.guessed.has(key)) return false;
    return !this.guessedAlike(key);
  }

  /** Tools whose first call has now run half as long again as they were weighted: true if any. */
  private firstCallsOutran(now: number): boolean {
    if (this.typical === undefined) return false;
    let outran = false;
    for (const [key, { since }] of this.firstRunning) {
      if (this.seen.has(key) || !this.guessed.has(key)) continue;
      const running = now - since;
      if (running <= 1.5 * this.guess(key) || this.guessedAlike(key)) continue;
      this.atLeast.set(key, running);
      outran = true;
    }
    return outran;
  }

  /**
   * Every step guessed alike, and this is their one tool: learning it scales every weight
   * the same, and the order stays as it is (a plan of one tool, or of tools all unknown).
   */
  private guessedAlike(key: string): boolean {
    if (this.anyKnown || this.guessed.size !== 1) return false;
    this.guessed.delete(key);
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
    const key = keyOf(step);
    const learned = this.seen.get(key);
    if (learned !== undefined) return learned.mean;
    this.guessed.add(key);
    return this.guess(key);
  }

  /** A tool not seen yet: the typical step, or how long its first call had run if longer. */
  private guess(key: string): number {
    const typical = this.typical === undefined ? 1 : this.typical.mean;
    return Math.max(typical, this.atLeast.get(key) ?? 0);
  }
}

function keyOf(step: PlanStep): string {
  // A wait lasts what it says, not what agent steps take.
  return step.tool ?? (stepKind(step) === "wait" ? waitKey : agentKey);
}

/** A running mean, changed in place: no allocation per step that ends. */
interface Mean {
  mean: number;
  count: number;
}

function addTo(entry: Mean, ms: number): void {
  entry.count += 1;
  entry.mean += (ms - entry.mean) / entry.count;
}

import type { Plan } from "../plan-schema.js";
import { stepKey } from "../step-key.js";
import { StepIndex } from "./step-index.js";
import { StepLinks } from "./step-links.js";

/** A validated plan indexed by position, for the scheduler's hot path. Pure. */
export interface PlanGraph {
  keys: string[];
  indexOf: StepIndex;
  /** Per step, the steps it waits for, in `depends_on` order. */
  dependencies: StepLinks;
  /** Per step, the steps that wait for it, in plan order. */
  dependents: StepLinks;
  /** Steps no other step depends on: their outputs are the plan's output. */
  sinks: number[];
}

/**
 * Dependencies that name no step, name the step itself or repeat are left out (validation
 * reports them).
 */
export function buildPlanGraph(plan: Plan): PlanGraph {
  const count = plan.steps.length;
  const keys: string[] = new Array(count);
  const indexOf = new StepIndex();
  let named = 0;
  for (let index = 0; index < count; index += 1) {
    const key = stepKey(plan.steps[index]!.id);
    keys[index] = key;
    indexOf.set(key, index);
    named += plan.steps[index]!.depends_on.length;
  }
  const dependencies = new StepLinks(count, named);
  const dependents = new StepLinks(count, named);
  for (let index = 0; index < count; index += 1) {
    dependencies.addStep();
    dependents.addStep();
  }
  // lastListedBy[need] === index means `need` is already in step index's list: O(1) dedupe,
  // so a join over 10,000 steps stays linear.
  const lastListedBy = new Int32Array(count).fill(-1);
  for (let index = 0; index < count; index += 1) {
    const dependsOn = plan.steps[index]!.depends_on;
    for (let position = 0; position < dependsOn.length; position += 1) {
      const need = indexOf.get(stepKey(dependsOn[position]!));
      if (need !== undefined && need !== index && lastListedBy[need] !== index) {
        lastListedBy[need] = index;
        dependencies.add(index, need);
        dependents.add(need, index);
      }
    }
  }
  const sinks: number[] = [];
  for (let index = 0; index < count; index += 1) if (dependents.count(index) === 0) sinks.push(index);
  return { keys, indexOf, dependencies, dependents, sinks };
}

/** Kahn's algorithm. Steps on or after a cycle never become free: they are left out. */
export function topologicalOrder(graph: PlanGraph): Int32Array {
  const { dependencies, dependents } = graph;
  const count = dependencies.size;
  const waiting = new Int32Array(count);
  const order = new Int32Array(count);
  let queued = 0;
  for (let index = 0; index < count; index += 1) {
    waiting[index] = dependencies.count(index);
    if (waiting[index] === 0) order[queued++] = index;
  }
  for (let cursor = 0; cursor < queued; cursor += 1) {
    for (let link = dependents.first(order[cursor]!); link !== -1; link = dependents.next(link)) {
      const next = dependents.target(link);
      if (--waiting[next]! === 0) order[queued++] = next;
    }
  }
  return queued === count ? order : order.subarray(0, queued);
}

/**
 * Adds a step after the others (a plan still being written): its key, and links to the
 * steps it needs, which must already be in the graph; needs that repeat or name the step
 * itself are left out. Returns the new step's index. Does not update `sinks`.
 */
export function addStep(graph: PlanGraph, key: string, needs: readonly number[]): number {
  const index = graph.keys.length;
  graph.keys.push(key);
  graph.indexOf.set(key, index);
  graph.dependencies.addStep();
  graph.dependents.addStep();
  const linked = new Set<number>();
  for (const need of needs) {
    if (need === index || linked.has(need)) continue;
    linked.add(need);
    graph.dependencies.add(index, need);
    graph.dependents.add(need, index);
  }
  return index;
}

/** The steps no other step depends on, in plan order. */
export function sinksOf(graph: PlanGraph): number[] {
  return graph.keys.flatMap((_, index) => (graph.dependents.count(index) === 0 ? [index] : []));
}

/**
 * For each step, its own estimate plus the longest estimated path after it to the end of
 * the plan. Starting the largest first keeps the critical path moving.
 */
export function remainingPathLengths(
  graph: PlanGraph,
  estimateOf: (index: number) => number,
  order: Int32Array = topologicalOrder(graph),
): Float64Array {
  const dependents = graph.dependents;
  const lengths = new Float64Array(dependents.size);
  for (let cursor = order.length - 1; cursor >= 0; cursor -= 1) {
    const index = order[cursor]!;
    let longestAfter = 0;
    for (let link = dependents.first(index); link !== -1; link = dependents.next(link))
      longestAfter = Math.max(longestAfter, lengths[dependents.target(link)]!);
    lengths[index] = estimateOf(index) + longestAfter;
  }
  return lengths;
}

/** Every step reachable from `start` along `edges` (`start` itself only on a cycle). */
export function reachableFrom(edges: StepLinks, start: number): number[] {
  const seen = new Uint8Array(edges.size);
  const found: number[] = [];
  const stack: number[] = [start];
  while (stack.length > 0) {
    for (const next of edges.linked(stack.pop()!)) {
      if (seen[next] === 1) continue;
      seen[next] = 1;
      found.push(next);
      stack.push(next);
    }
  }
  return found;
}

import { stepKey, type Plan } from "./plan-schema.js";
import { StepIndex } from "./step-index.js";

/** A validated plan indexed by position, for the scheduler's hot path. Pure. */
export interface PlanGraph {
  keys: string[];
  indexOf: StepIndex;
  dependencies: number[][];
  dependents: number[][];
  /** Steps no other step depends on: their outputs are the plan's output. */
  sinks: number[];
}

/**
 * Dependencies that name no step, or the step itself, are left out (validation reports them).
 * Lists of one step are shared and frozen: in a chain, step 2's dependencies and step 0's
 * dependents are the same `[1]`; in a fan-in, every branch's dependents are one `[join]`.
 * Add to a list with `withEdge`, which copies a shared one.
 */
export function buildPlanGraph(plan: Plan): PlanGraph {
  const count = plan.steps.length;
  const keys: string[] = new Array(count);
  const indexOf = new StepIndex();
  for (let index = 0; index < count; index += 1) {
    const key = stepKey(plan.steps[index]!.id);
    keys[index] = key;
    indexOf.set(key, index);
  }
  const dependencies: number[][] = new Array(count);
  const dependents: Array<number[] | undefined> = new Array(count);
  const single: Array<number[] | undefined> = new Array(count);
  const listOf = (value: number) => (single[value] ??= Object.freeze([value]) as unknown as number[]);
  // lastListedBy[need] === index means `need` is already in step index's list: O(1) dedupe,
  // so a join over 10,000 steps stays linear.
  const lastListedBy = new Int32Array(count).fill(-1);
  for (let index = 0; index < count; index += 1) {
    let needs: number[] | undefined;
    const dependsOn = plan.steps[index]!.depends_on;
    for (let position = 0; position < dependsOn.length; position += 1) {
      const need = indexOf.get(stepKey(dependsOn[position]!));
      if (need !== undefined && need !== index && lastListedBy[need] !== index) {
        lastListedBy[need] = index;
        needs = needs === undefined ? listOf(need) : withEdge(needs, need);
        dependents[need] = dependents[need] === undefined ? listOf(index) : withEdge(dependents[need], index);
      }
    }
    dependencies[index] = needs ?? noDependencies;
  }
  const sinks: number[] = [];
  for (let index = 0; index < count; index += 1) {
    if (dependents[index] === undefined) {
      dependents[index] = noDependencies;
      sinks.push(index);
    }
  }
  return { keys, indexOf, dependencies, dependents: dependents as number[][], sinks };
}

/** Shared by every step without dependencies (or dependents); frozen, like every shared list. */
const noDependencies: number[] = Object.freeze([]) as unknown as number[];

/** `list` with `value` added: in place, or a copy when `list` is shared (frozen). */
export function withEdge(list: number[], value: number): number[] {
  if (Object.isFrozen(list)) return [...list, value];
  list.push(value);
  return list;
}

/** Kahn's algorithm. Steps on or after a cycle never become free: they are left out. */
export function topologicalOrder(graph: PlanGraph): Int32Array {
  const count = graph.dependencies.length;
  const waiting = new Int32Array(count);
  const order = new Int32Array(count);
  let queued = 0;
  for (let index = 0; index < count; index += 1) {
    waiting[index] = graph.dependencies[index]!.length;
    if (waiting[index] === 0) order[queued++] = index;
  }
  for (let cursor = 0; cursor < queued; cursor += 1) {
    const dependents = graph.dependents[order[cursor]!]!;
    for (let position = 0; position < dependents.length; position += 1) {
      const next = dependents[position]!;
      if (--waiting[next]! === 0) order[queued++] = next;
    }
  }
  return queued === count ? order : order.subarray(0, queued);
}

/**
 * For each step, its own estimate plus the longest estimated path after it to the end of
 * the plan. Starting the largest first keeps the critical path moving.
 */
export function remainingPathLengths(graph: PlanGraph, estimateOf: (index: number) => number): Float64Array {
  const lengths = new Float64Array(graph.dependencies.length);
  const order = topologicalOrder(graph);
  for (let cursor = order.length - 1; cursor >= 0; cursor -= 1) {
    const index = order[cursor]!;
    const dependents = graph.dependents[index]!;
    let longestAfter = 0;
    for (let position = 0; position < dependents.length; position += 1) longestAfter = Math.max(longestAfter, lengths[dependents[position]!]!);
    lengths[index] = estimateOf(index) + longestAfter;
  }
  return lengths;
}

/** Every step reachable from `start` along `edges` (`start` itself only on a cycle). */
export function reachableFrom(edges: readonly number[][], start: number): number[] {
  const seen = new Uint8Array(edges.length);
  const found: number[] = [];
  const stack: number[] = [start];
  while (stack.length > 0) {
    const list = edges[stack.pop()!]!;
    for (let position = 0; position < list.length; position += 1) {
      const next = list[position]!;
      if (seen[next] === 1) continue;
      seen[next] = 1;
      found.push(next);
      stack.push(next);
    }
  }
  return found;
}


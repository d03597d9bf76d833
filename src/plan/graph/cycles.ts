import { topologicalOrder, type PlanGraph } from "./plan-graph.js";

/**
 * The cycles of a plan, one per knot of steps that depend on each other (a strongly
 * connected component of two steps or more): the shortest way around it from its first step
 * by key, as step positions with the first repeated at the end, e.g. [1, 2, 3, 1] for
 * "2 -> 3 -> 4 -> 2". Following the arrows, each step is one its predecessor waits for.
 *
 * Without recursion (Tarjan's algorithm on an explicit stack), so a cycle through 100,000
 * steps is found like one through three. A plan without cycles costs one topological pass
 * (none when the caller hands over the `order` it has).
 */
export function findCycles(graph: PlanGraph, order: Int32Array = topologicalOrder(graph)): number[][] {
  const count = graph.keys.length;
  if (order.length === count) return [];
  return stronglyConnected(graph)
    .filter((component) => component.length > 1)
    .map((component) => shortestCycle(graph, component));
}

/** Tarjan's components along the dependents' edges, iteratively. */
function stronglyConnected(graph: PlanGraph): number[][] {
  const count = graph.keys.length;
  const discovered = new Int32Array(count).fill(-1);
  const lowest = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  // The depth-first path: a step, and its next link to a dependent not yet followed (-1: none left).
  const path: number[] = [];
  const nextLink: number[] = [];
  const dependents = graph.dependents;
  const components: number[][] = [];
  let counter = 0;
  const enter = (step: number) => {
    discovered[step] = lowest[step] = counter++;
    stack.push(step);
    onStack[step] = 1;
    path.push(step);
    nextLink.push(dependents.first(step));
  };
  for (let root = 0; root < count; root += 1) {
    if (discovered[root] !== -1) continue;
    enter(root);
    while (path.length > 0) {
      const top = path.length - 1;
      const step = path[top]!;
      const link = nextLink[top]!;
      if (link !== -1) {
        nextLink[top] = dependents.next(link);
        const next = dependents.target(link);
        if (discovered[next] === -1) enter(next);
        else if (onStack[next] === 1) lowest[step] = Math.min(lowest[step]!, discovered[next]!);
        continue;
      }
      path.pop();
      nextLink.pop();
      if (path.length > 0) {
        const parent = path[path.length - 1]!;
        lowest[parent] = Math.min(lowest[parent]!, lowest[step]!);
      }
      if (lowest[step] !== discovered[step]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop()!;
        onStack[member] = 0;
        component.push(member);
      } while (member !== step);
      components.push(component);
    }
  }
  return components;
}

/** Breadth-first from the component's first step by key, its neighbours in key order. */
function shortestCycle(graph: PlanGraph, component: readonly number[]): number[] {
  const byKey = (a: number, b: number) => (graph.keys[a]! < graph.keys[b]! ? -1 : graph.keys[a]! > graph.keys[b]! ? 1 : 0);
  const inside = new Set(component);
  const start = [...component].sort(byKey)[0]!;
  const parent = new Map<number, number>();
  const queue = [start];
  for (let cursor = 0; cursor < queue.length; cursor += 1) {
    const step = queue[cursor]!;
    for (const next of graph.dependents
      .list(step)
      .filter((candidate) => inside.has(candidate))
      .sort(byKey)) {
      if (next === start) {
        const backwards = [start, step];
        for (let at = step; at !== start; at = parent.get(at)!) backwards.push(parent.get(at)!);
        return backwards.reverse();
      }
      if (!parent.has(next) && next !== start) {
        parent.set(next, step);
        queue.push(next);
      }
    }
  }
  // Unreachable for a strongly connected component; kept so the result is always a path.
  return [...component, component[0]!];
}

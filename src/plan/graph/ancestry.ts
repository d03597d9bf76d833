import type { PlanGraph } from "./plan-graph.js";

/** Does `step` depend on `on`, through any path of dependencies? */
export interface AncestryQuestion {
  step: number;
  on: number;
}

/**
 * Answers many ancestry questions about one plan at once. The steps asked about are taken 32
 * at a time, in the order of dependencies; for each group, one pass along that order, from
 * the first step of the group to the last step asking about it, marks every step with the
 * members of the group it depends on (a bit each). Questions about nearby steps cost a few
 * steps each, and no pattern costs more than one pass over the plan per 32 steps asked
 * about, where a walk per question can cost the whole plan each time.
 *
 * `order` lists steps after their dependencies, and the questions are about steps in it (in
 * a plan with a cycle, the steps before it); without `order`, plan order is taken to be such
 * an order (a plan whose steps depend only on earlier ones).
 */
export function dependsOnEach(graph: PlanGraph, questions: readonly AncestryQuestion[], order?: Int32Array): boolean[] {
  const answers = new Array<boolean>(questions.length).fill(false);
  if (questions.length === 0) return answers;
  const positionOf = positionsIn(order, graph.keys.length);
  const at = (position: number) => (order === undefined ? position : order[position]!);
  // The questions about each step, the steps asked about in the order of dependencies.
  const asking = new Map<number, number[]>();
  questions.forEach((question, index) => {
    const list = asking.get(question.on);
    if (list) list.push(index);
    else asking.set(question.on, [index]);
  });
  const targets = [...asking.keys()].sort((a, b) => positionOf(a) - positionOf(b));
  const dependencies = graph.dependencies;
  for (let first = 0; first < targets.length; first += 32) {
    const group = targets.slice(first, first + 32);
    const from = positionOf(group[0]!);
    let to = from;
    for (const target of group) for (const question of asking.get(target)!) to = Math.max(to, positionOf(questions[question]!.step));
    // Bits per step of the window [from, to], by position; steps before `from` depend on none of the group.
    const marks = new Int32Array(to - from + 1);
    group.forEach((target, bit) => {
      if (positionOf(target) <= to) marks[positionOf(target) - from]! |= 1 << bit;
    });
    for (let position = from; position <= to; position += 1) {
      let mark = marks[position - from]!;
      for (let link = dependencies.first(at(position)); link !== -1; link = dependencies.next(link)) {
        const need = positionOf(dependencies.target(link));
        if (need >= from) mark |= marks[need - from]!;
      }
      marks[position - from] = mark;
    }
    group.forEach((target, bit) => {
      for (const index of asking.get(target)!) {
        const step = positionOf(questions[index]!.step);
        // Its own bit marks the target itself: a step does not depend on itself.
        answers[index] = step !== positionOf(target) && step >= from && step <= to && (marks[step - from]! & (1 << bit)) !== 0;
      }
    });
  }
  return answers;
}

/** Where each step comes in `order` (plan order without one). */
function positionsIn(order: Int32Array | undefined, count: number): (step: number) => number {
  if (order === undefined) return (step) => step;
  const positions = new Int32Array(count);
  for (let position = 0; position < order.length; position += 1) positions[order[position]!] = position;
  return (step) => positions[step]!;
}

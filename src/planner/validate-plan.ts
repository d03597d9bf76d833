import { Graph, alg } from "@dagrejs/graphlib";
import type { Tool } from "../core/tools/define-tool.js";
import { describeIssues } from "../core/tools/tool-guard.js";
import { findPlaceholders, type PlaceholderOptions, type PlaceholderReference } from "./placeholders.js";
import { buildPlanGraph, reachableFrom, type PlanGraph } from "./plan-graph.js";
import { stepKey, type Plan, type PlanStep } from "./plan-schema.js";
import { readPlan } from "./read-plan.js";

export type PlanErrorCode =
  | "invalid_shape"
  | "duplicate_id"
  | "unknown_dependency"
  | "self_dependency"
  | "cycle"
  | "unknown_tool"
  | "invalid_arguments"
  | "missing_task"
  | "undeclared_reference";

/** One problem with a plan, worded so that a planner model reading it can fix the plan. */
export interface PlanError {
  code: PlanErrorCode;
  message: string;
  stepId?: string | number;
}

export type PlanValidation = { ok: true; plan: Plan } | { ok: false; errors: PlanError[] };

/**
 * Checks a plan and lists every problem at once: its shape, duplicate ids, unknown or self
 * dependencies, cycles (with their path), unknown tools, arguments that fail the tool's
 * schema, and placeholders that name a step the step does not (transitively) depend on.
 *
 * @example
 * const checked = validatePlan(json, { tools });
 * if (!checked.ok) return askPlannerToFix(checked.errors.map((error) => error.message));
 */
export function validatePlan(plan: unknown, options: { tools?: readonly Tool[] } = {}): PlanValidation {
  const checked = checkPlan(plan, options);
  return checked.ok ? { ok: true, plan: checked.plan } : checked;
}

/** A valid plan with what checking it produced, so the executor need not compute it again. */
export interface CheckedPlan {
  ok: true;
  plan: Plan;
  graph: PlanGraph;
  /**
   * Per step: the tool arguments as the tool's schema parsed them, when they hold no
   * placeholder; other steps have no entry (`index in parsedArgs` is false).
   */
  parsedArgs: unknown[];
}

/** `validatePlan`, also handing back the graph and the parsed arguments. */
export function checkPlan(plan: unknown, options: { tools?: readonly Tool[] } = {}): CheckedPlan | { ok: false; errors: PlanError[] } {
  const parsed = readPlan(plan);
  if (!parsed.success) {
    return { ok: false, errors: [{ code: "invalid_shape", message: `the plan's shape is wrong: ${describeIssues(parsed.error)}` }] };
  }
  const steps = parsed.data.steps;
  const graph = buildPlanGraph(parsed.data);
  const errors: PlanError[] = [...duplicateIds(steps, graph), ...dependencyErrors(steps, graph), ...cycleErrors(graph)];
  const toolsByName = new Map(options.tools?.map((tool) => [tool.name, tool]));
  const parsedArgs: CheckedPlan["parsedArgs"] = new Array(steps.length);
  const placeholderOptions: PlaceholderOptions = { isStep: (key) => graph.indexOf.has(key), self: undefined };
  const context = { tools: options.tools, toolsByName, placeholderOptions, errors, parsedArgs };
  for (let index = 0; index < steps.length; index += 1) stepErrors(steps[index]!, index, graph, context);
  return errors.length === 0 ? { ok: true, plan: parsed.data, graph, parsedArgs } : { ok: false, errors };
}

function duplicateIds(steps: readonly PlanStep[], graph: PlanGraph): PlanError[] {
  if (graph.indexOf.size === steps.length) return [];
  const seen = new Set<string>();
  const errors: PlanError[] = [];
  for (const step of steps) {
    const key = stepKey(step.id);
    if (seen.has(key)) errors.push({ code: "duplicate_id", stepId: step.id, message: `step id ${key} is used more than once; give every step its own id` });
    seen.add(key);
  }
  return errors;
}

function dependencyErrors(steps: readonly PlanStep[], graph: PlanGraph): PlanError[] {
  const errors: PlanError[] = [];
  const uniqueIds = graph.indexOf.size === steps.length;
  for (let index = 0; index < steps.length; index += 1) {
    // With unique ids, the graph kept every dependency that names another step once: a
    // step whose list it kept whole has nothing to report.
    if (uniqueIds && graph.dependencies[index]!.length === steps[index]!.depends_on.length) continue;
    stepDependencyErrors(steps[index]!, index, graph, errors);
  }
  return errors;
}

function stepDependencyErrors(step: PlanStep, index: number, graph: PlanGraph, errors: PlanError[]): void {
  for (const dependency of step.depends_on) {
    const key = stepKey(dependency);
    if (key === graph.keys[index]) {
      errors.push({ code: "self_dependency", stepId: step.id, message: `step ${key} depends on itself; remove ${key} from its depends_on` });
    } else if (!graph.indexOf.has(key)) {
      errors.push({
        code: "unknown_dependency",
        stepId: step.id,
        message: `step ${graph.keys[index]} depends on step ${key}, which is not in the plan; existing ids: ${listIds(graph.keys)}`,
      });
    }
  }
}

/**
 * The problems of one step of a plan that arrives step by step, once `graph` holds it and
 * the steps before it: the checks `checkPlan` makes, without checking earlier steps again.
 * (A step may depend only on steps before it, so it cannot close a cycle.)
 */
export function streamedStepErrors(step: PlanStep, index: number, graph: PlanGraph, tools: readonly Tool[] | undefined): PlanError[] {
  const errors: PlanError[] = [];
  stepDependencyErrors(step, index, graph, errors);
  const toolsByName = new Map(tools?.map((tool) => [tool.name, tool]));
  const placeholderOptions: PlaceholderOptions = { isStep: (key) => graph.indexOf.has(key), self: undefined };
  stepErrors(step, index, graph, { tools, toolsByName, placeholderOptions, errors, parsedArgs: [] });
  return errors;
}

function listIds(keys: readonly string[]): string {
  return keys.length <= 20 ? keys.join(", ") : `${keys.slice(0, 20).join(", ")} and ${keys.length - 20} more`;
}

function cycleErrors(graph: PlanGraph): PlanError[] {
  const tangled = tangledSubgraph(graph);
  if (tangled.nodeCount() === 0) return [];
  return alg.findCycles(tangled).map((component) => {
    const path = cyclePath(tangled, component);
    return {
      code: "cycle",
      stepId: path[0]!,
      message: `steps form a cycle: ${path.join(" -> ")}; remove one of these dependencies so the plan can start`,
    };
  });
}

/**
 * What is left after repeatedly peeling off steps with no remaining dependencies, then
 * steps with no remaining dependents: only steps on or between cycles, handed to graphlib
 * to name the cycles. Linear and iterative, so a 10,000-step chain is cheap (graphlib's
 * search is recursive and overflows the stack on it).
 */
function tangledSubgraph(graph: PlanGraph): Graph {
  const count = graph.keys.length;
  const alive = new Uint8Array(count).fill(1);
  const living = new Int32Array(count);
  const queue = new Int32Array(count);
  const peel = (inward: number[][], outward: number[][]) => {
    let queued = 0;
    for (let index = 0; index < count; index += 1) {
      if (alive[index] === 0) continue;
      const list = inward[index]!;
      let value = 0;
      for (let position = 0; position < list.length; position += 1) value += alive[list[position]!]!;
      living[index] = value;
      if (value === 0) queue[queued++] = index;
    }
    while (queued > 0) {
      const node = queue[--queued]!;
      alive[node] = 0;
      const list = outward[node]!;
      for (let position = 0; position < list.length; position += 1) {
        const other = list[position]!;
        if (alive[other] === 1 && --living[other]! === 0) queue[queued++] = other;
      }
    }
  };
  peel(graph.dependencies, graph.dependents);
  peel(graph.dependents, graph.dependencies);
  const tangled = new Graph();
  if (!alive.includes(1)) return tangled;
  graph.keys.forEach((key, index) => {
    if (alive[index] === 0) return;
    tangled.setNode(key);
    for (const need of graph.dependencies[index]!) if (alive[need] === 1) tangled.setEdge(graph.keys[need]!, key);
  });
  return tangled;
}

/** The shortest cycle through the component's first node, e.g. ["2", "3", "4", "2"]. */
function cyclePath(graph: Graph, component: readonly string[]): string[] {
  const inside = new Set(component);
  const start = [...component].sort()[0]!;
  const parent = new Map<string, string>();
  const queue = [start];
  for (let index = 0; index < queue.length; index += 1) {
    const node = queue[index]!;
    for (const next of (graph.successors(node) ?? []).filter((candidate) => inside.has(candidate)).sort()) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
        return [...path, start];
      }
      if (!parent.has(next)) {
        parent.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...component, start];
}

function stepErrors(
  step: PlanStep,
  index: number,
  graph: PlanGraph,
  context: {
    tools: readonly Tool[] | undefined;
    toolsByName: Map<string, Tool>;
    placeholderOptions: PlaceholderOptions;
    errors: PlanError[];
    parsedArgs: CheckedPlan["parsedArgs"];
  },
): void {
  const { tools, errors } = context;
  const id = stepKey(step.id);
  if (step.tool === undefined && step.task.trim() === "") {
    errors.push({ code: "missing_task", stepId: step.id, message: `step ${id} has neither a tool nor a task; say what the step must do` });
  }
  context.placeholderOptions.self = id;
  const references = step.args === undefined ? noReferences : findPlaceholders(step.args, context.placeholderOptions);
  let ancestors: Set<string> | undefined;
  for (const reference of references) {
    if (graph.dependencies[index]!.some((need) => graph.keys[need] === reference.step)) continue;
    ancestors ??= ancestorsOf(graph, index);
    if (!ancestors.has(reference.step)) {
      errors.push({
        code: "undeclared_reference",
        stepId: step.id,
        message: `step ${id} uses ${reference.text} but does not depend on step ${reference.step}; add ${reference.step} to its depends_on`,
      });
    }
  }
  if (tools === undefined || step.tool === undefined) return;
  const tool = context.toolsByName.get(step.tool);
  if (!tool) {
    errors.push({
      code: "unknown_tool",
      stepId: step.id,
      message: `step ${id} uses tool "${step.tool}", which does not exist; available tools: ${tools.map((known) => known.name).join(", ") || "none"}`,
    });
  } else if (references.length === 0) {
    const checked = tool.input.safeParse(step.args ?? {});
    if (checked.success) context.parsedArgs[index] = checked.data;
    else {
      errors.push({
        code: "invalid_arguments",
        stepId: step.id,
        message: `step ${id} calls "${tool.name}" with invalid args: ${describeIssues(checked.error)}`,
      });
    }
  }
}

const noReferences: readonly PlaceholderReference[] = Object.freeze([]);

function ancestorsOf(graph: PlanGraph, start: number): Set<string> {
  return new Set(reachableFrom(graph.dependencies, start).map((index) => graph.keys[index]!));
}

import type { Tool } from "../core/tools/define-tool.js";
import { maxNesting, nestsDeeperThan } from "../core/json-safe.js";
import { describeIssueList } from "../core/tools/issue-list.js";
import { findPlaceholders, type PlaceholderOptions, type PlaceholderReference } from "./placeholders.js";
import { dependsOnEach, type AncestryQuestion } from "./graph/ancestry.js";
import { findCycles } from "./graph/cycles.js";
import { buildPlanGraph, reachableFrom, topologicalOrder, type PlanGraph } from "./graph/plan-graph.js";
import type { Plan, PlanStep } from "./plan-schema.js";
import { stepKey } from "./step-key.js";
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
  | "undeclared_reference"
  | "invalid_placeholder"
  | "invalid_wait";

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
  /** Every step after its dependencies: the order the check found while ruling out cycles. */
  order: Int32Array;
  /** The tools the plan was checked against: a run with other tools checks it again. */
  tools: readonly Tool[] | undefined;
}

/** `validatePlan`, also handing back the graph and the parsed arguments. */
export function checkPlan(plan: unknown, options: { tools?: readonly Tool[] } = {}): CheckedPlan | { ok: false; errors: PlanError[] } {
  const parsed = readPlan(plan);
  if (!parsed.success) {
    return {
      ok: false,
      errors: [
        {
          code: "invalid_shape",
          message: `the plan's shape is wrong: ${describeIssueList(parsed.error.issues, "the plan")}; write { "steps": [...] }`,
        },
      ],
    };
  }
  const steps = parsed.data.steps;
  const graph = buildPlanGraph(parsed.data);
  const order = topologicalOrder(graph);
  const errors = [...duplicateIds(steps, graph), ...dependencyErrors(steps, graph), ...cycleErrors(steps, graph, order)];
  const context = stepCheck(graph, options.tools, { errors, parsedArgs: new Array(steps.length) });
  for (let index = 0; index < steps.length; index += 1) collectReferences(steps[index]!, index, graph, context);
  settleReferences(graph, context, order);
  for (let index = 0; index < steps.length; index += 1) stepErrors(steps[index]!, index, graph, context);
  return errors.length === 0
    ? { ok: true, plan: parsed.data, graph, parsedArgs: context.parsedArgs, order, tools: options.tools }
    : { ok: false, errors };
}

function duplicateIds(steps: readonly PlanStep[], graph: PlanGraph): PlanError[] {
  if (graph.indexOf.size === steps.length) return [];
  const seen = new Set<string>();
  const errors: PlanError[] = [];
  for (const step of steps) {
    const key = stepKey(step.id);
    if (seen.has(key))
      errors.push({ code: "duplicate_id", stepId: step.id, message: `step id ${key} is used more than once; give every step its own id` });
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
    if (uniqueIds && graph.dependencies.count(index) === steps[index]!.depends_on.length) continue;
    stepDependencyErrors(steps[index]!, index, graph, errors);
  }
  return errors;
}

function stepDependencyErrors(step: PlanStep, index: number, graph: PlanGraph, errors: PlanError[]): void {
  for (const dependency of step.depends_on) {
    const key = stepKey(dependency);
    if (key === graph.keys[index]) {
      errors.push({
        code: "self_dependency",
        stepId: step.id,
        message: `step ${key} depends on itself; remove ${key} from its depends_on`,
      });
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
 * (A step may depend only on steps before it, so it cannot close a cycle.) Arguments it
 * parsed go into `parsedArgs` at the step's index, as `checkPlan` hands them back.
 */
export function streamedStepErrors(
  step: PlanStep,
  index: number,
  plan: { graph: PlanGraph; tools: readonly Tool[] | undefined; parsedArgs?: CheckedPlan["parsedArgs"] },
): PlanError[] {
  const { graph, tools, parsedArgs = [] } = plan;
  const context = stepCheck(graph, tools, { errors: [], parsedArgs });
  stepDependencyErrors(step, index, graph, context.errors);
  collectReferences(step, index, graph, context);
  // A streamed step depends only on steps before it: plan order is an order of dependencies.
  settleReferences(graph, context, undefined);
  stepErrors(step, index, graph, context);
  return context.errors;
}

/** What checking each step needs and collects, shared by the steps of one check. */
interface StepCheck {
  tools: readonly Tool[] | undefined;
  toolsByName: Map<string, Tool>;
  /** `self` is set to each step's key before its arguments are read. */
  placeholderOptions: PlaceholderOptions;
  /** Steps whose arguments nest past the limit: an error of their own, never walked. */
  tooDeep: Set<number>;
  /** Per step (sparse): the placeholders in its arguments, found once. */
  references: Array<readonly PlaceholderReference[]>;
  /** References to steps that are not direct dependencies, in step and reference order. */
  indirect: AncestryQuestion[];
  /** Per question in `indirect`: whether the step depends on that step through others. */
  throughOthers: boolean[];
  /** The next question of `indirect` that `stepErrors` will meet. */
  nextQuestion: number;
  /** `directOf[need] === step`: `need` is among the direct dependencies of `step` (see `dependsOn`). */
  directOf: Int32Array | undefined;
  /** The step whose direct dependencies `directOf` marks. */
  marked: number;
  errors: PlanError[];
  parsedArgs: CheckedPlan["parsedArgs"];
}

function stepCheck(graph: PlanGraph, tools: readonly Tool[] | undefined, into: Pick<StepCheck, "errors" | "parsedArgs">): StepCheck {
  return {
    tools,
    toolsByName: new Map(tools?.map((tool) => [tool.name, tool])),
    placeholderOptions: { isStep: (key) => graph.indexOf.has(key), self: undefined },
    tooDeep: new Set(),
    references: [],
    indirect: [],
    throughOthers: [],
    nextQuestion: 0,
    directOf: undefined,
    marked: -1,
    ...into,
  };
}

function listIds(keys: readonly string[]): string {
  return keys.length <= 20 ? keys.join(", ") : `${keys.slice(0, 20).join(", ")} and ${keys.length - 20} more`;
}

function cycleErrors(steps: readonly PlanStep[], graph: PlanGraph, order: Int32Array): PlanError[] {
  return findCycles(graph, order).map((cycle) => ({
    code: "cycle",
    stepId: steps[cycle[0]!]!.id,
    message: `steps form a cycle: ${describeCycle(cycle.map((index) => graph.keys[index]!))}; remove one of these dependencies so the plan can start`,
  }));
}

/** "2 -> 3 -> 4 -> 2"; a long cycle shows its first and last steps and counts the rest. */
function describeCycle(keys: readonly string[]): string {
  if (keys.length <= 12) return keys.join(" -> ");
  return `${keys.slice(0, 8).join(" -> ")} -> … ${(keys.length - 11).toLocaleString("en-US")} more steps … -> ${keys.slice(-3).join(" -> ")}`;
}

/**
 * Finds a step's placeholders, and asks about each one that names a step it does not depend
 * on directly: it may depend on it through others (decided for all steps at once, in
 * `settleReferences`, before any error is written).
 */
function collectReferences(step: PlanStep, index: number, graph: PlanGraph, context: StepCheck): void {
  // Arguments nested past the limit are an error of their own (see `stepErrors`), not walked.
  if (step.args === undefined) return;
  if (nestsDeeperThan(step.args, maxNesting)) {
    context.tooDeep.add(index);
    return;
  }
  context.placeholderOptions.self = graph.keys[index]!;
  const references = findPlaceholders(step.args, context.placeholderOptions);
  if (references.length === 0) return;
  context.references[index] = references;
  for (const reference of references) {
    if (reference.problem !== undefined) continue;
    const referenced = graph.indexOf.get(reference.step);
    if (referenced !== undefined && !isDirectDependency(graph, index, referenced, context)) {
      context.indirect.push({ step: index, on: referenced });
    }
  }
}

/** A step's errors, in the order a reader fixes them, once every reference is settled. */
function stepErrors(step: PlanStep, index: number, graph: PlanGraph, context: StepCheck): void {
  const { tools, errors } = context;
  const id = graph.keys[index]!;
  if (step.wait !== undefined || step.waitFor !== undefined) {
    const problem = waitProblem(step);
    if (problem !== undefined) errors.push({ code: "invalid_wait", stepId: step.id, message: `step ${id} ${problem}` });
    return;
  }
  const pollIssue = step.poll === undefined ? undefined : pollProblem(step);
  if (pollIssue !== undefined) errors.push({ code: "invalid_wait", stepId: step.id, message: `step ${id} ${pollIssue}` });
  if (step.tool === undefined && step.task.trim() === "") {
    errors.push({ code: "missing_task", stepId: step.id, message: `step ${id} has neither a tool nor a task; say what the step must do` });
  }
  if (context.tooDeep.has(index)) {
    errors.push({
      code: "invalid_arguments",
      stepId: step.id,
      message: `step ${id} has args nested deeper than ${maxNesting} levels; flatten them`,
    });
    return;
  }
  const references = context.references[index] ?? noReferences;
  // Indexed: an iterator over the shared empty list is an allocation per step.
  for (let position = 0; position < references.length; position += 1) {
    const reference = references[position]!;
    if (reference.problem !== undefined) {
      errors.push({
        code: "invalid_placeholder",
        stepId: step.id,
        message: `step ${id}: ${reference.problem}; write the key as a JSON string`,
      });
      continue;
    }
    const referenced = graph.indexOf.get(reference.step);
    if (referenced !== undefined && isDirectDependency(graph, index, referenced, context)) continue;
    // The questions come up here in the order `collectReferences` asked them.
    if (referenced !== undefined && context.throughOthers[context.nextQuestion++] === true) continue;
    errors.push({
      code: "undeclared_reference",
      stepId: step.id,
      message: `step ${id} uses ${reference.text} but does not depend on step ${reference.step}; add ${reference.step} to its depends_on`,
    });
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
    const checked = tool.checkArgs(step.args ?? {});
    // A schema that validates asynchronously is checked when the step calls its tool.
    if (checked instanceof Promise) checked.catch(() => undefined);
    else if (checked.ok) context.parsedArgs[index] = checked.value;
    else {
      errors.push({
        code: "invalid_arguments",
        stepId: step.id,
        message: `step ${id} calls "${tool.name}" with invalid args: ${checked.problems}`,
      });
    }
  }
}

const noReferences: readonly PlaceholderReference[] = Object.freeze([]);

/** What is wrong with a wait step, worded to follow "step <id>"; undefined when nothing is. */
function waitProblem(step: PlanStep): string | undefined {
  if (step.wait !== undefined && step.waitFor !== undefined)
    return "has both wait and waitFor; a step waits for one thing: split it in two";
  if (step.poll !== undefined) return "has both a wait and a poll; a poll step waits between its calls already: drop the wait";
  if (step.tool !== undefined || step.args !== undefined)
    return "waits and calls a tool; a wait step calls nothing: move the call to a step after it";
  if (step.wait === undefined) return undefined;
  const { forMs, until } = step.wait;
  if ((forMs === undefined) === (until === undefined))
    return 'has a wait with neither or both of forMs and until; give one: { "forMs": 60000 } or { "until": "2026-12-07T08:00:00+01:00" }';
  if (until !== undefined && !isIsoTime(until))
    return `waits until "${until}", which is not an ISO time with a date and a time of day (e.g. 2026-12-07T08:00:00+01:00)`;
  return undefined;
}

function pollProblem(step: PlanStep): string | undefined {
  const { everyMs, maxMs, until } = step.poll!;
  if (step.tool === undefined) return "polls but calls no tool; give it the tool whose output says when the work is done";
  if (maxMs < everyMs) return `polls every ${everyMs} ms for at most ${maxMs} ms, so it calls once; make maxMs at least everyMs`;
  const tests = [until.equals !== undefined || "equals" in until, until.in !== undefined, until.exists !== undefined].filter(
    Boolean,
  ).length;
  if (tests !== 1)
    return 'has a poll whose until gives not exactly one of equals, in and exists; e.g. { "path": "status", "equals": "done" }';
  return undefined;
}

/** An ISO 8601 date and time (an offset or Z optional: without one it is the machine's local time). */
export function isIsoTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(text) && Number.isFinite(Date.parse(text));
}

/**
 * Decides, for every reference to a step that is not a direct dependency, whether the step
 * depends on it through others. All at once (see `dependsOnEach`): a walk per reference
 * would cost the whole plan each time. In a plan with a cycle, the order of dependencies
 * leaves out the steps on or after it; their references are walked one by one.
 */
function settleReferences(graph: PlanGraph, context: StepCheck, order: Int32Array | undefined): void {
  const questions = context.indirect;
  if (questions.length === 0) return;
  const ordered = order === undefined || order.length === graph.keys.length ? undefined : new Uint8Array(graph.keys.length);
  if (ordered) for (const step of order!) ordered[step] = 1;
  const inOrder = (step: number) => ordered === undefined || ordered[step] === 1;
  const orderly = questions.filter((question) => inOrder(question.step) && inOrder(question.on));
  const answers = new Map<AncestryQuestion, boolean>();
  dependsOnEach(graph, orderly, order).forEach((answer, index) => answers.set(orderly[index]!, answer));
  context.throughOthers = questions.map(
    // A step in the order has all its dependencies in it: one left out cannot be among them.
    (question) =>
      answers.get(question) ?? (!inOrder(question.step) && reachableFrom(graph.dependents, question.on).includes(question.step)),
  );
}

/**
 * A short list of dependencies is searched; a long one is marked once per step, so a join
 * over ten thousand steps that uses every one of their outputs does not search its list
 * once per reference.
 */
function isDirectDependency(graph: PlanGraph, step: number, referenced: number, context: StepCheck): boolean {
  const dependencies = graph.dependencies;
  if (dependencies.count(step) <= 32) return dependencies.has(step, referenced);
  if (context.marked !== step) {
    const directOf = (context.directOf ??= new Int32Array(graph.keys.length).fill(-1));
    for (let link = dependencies.first(step); link !== -1; link = dependencies.next(link)) directOf[dependencies.target(link)] = step;
    context.marked = step;
  }
  return context.directOf![referenced] === step;
}

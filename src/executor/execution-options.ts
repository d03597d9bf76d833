import { defaultSecretKeys, type SecretKeys } from "../trust/secrets.js";
import { Budget, checkBudgetLimits, type BudgetLimits } from "../core/budget.js";
import { readContextPolicy, type ContextPolicy } from "../react/context-window.js";
import { systemClock, type Clock } from "../core/clock.js";
import { InvalidOptionsError, shown } from "../core/errors.js";
import { InvalidPlanError } from "../plan/invalid-plan-error.js";
import type { DurableOptions } from "../journal/checkpoints.js";
import type { EventListener } from "../core/events.js";
import { toModelFunction, type Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { guardTools } from "../core/tools/tool-guard.js";
import type { ToolRunner } from "../core/tools/tool-runner.js";
import type { Plan, PlanInput, PlanStep } from "../plan/plan-schema.js";
import { checkPlan, type CheckedPlan } from "../plan/validate-plan.js";
import type { PlanGraph } from "../plan/graph/plan-graph.js";
import { resolvePrompts, type Prompts } from "../planner/prompts.js";
import type { ApprovalDecision, HumanDecisions } from "../core/tools/guarded-call.js";
import { stepKind } from "../plan/step-kind.js";
import { checkSamePlan, readPlanState, type PlanRunState, type StepRecord } from "./resume-state.js";
import { askCutShortAnew, decidableCalls } from "./cut-short-steps.js";
import { checkedExpiry, resolveDecisions } from "../core/tools/approvals.js";
import { checkSecret, verifyState } from "../trust/state-signature.js";
import type { RunSettings } from "../core/run-settings.js";
import { readRetry, type RetryOptions, type RetryPolicy } from "./retry.js";
import type { StepRunner } from "./step-runner.js";
import { LatencyBook } from "./latency-book.js";
import { StepSlots } from "./step-slots.js";

/** How a plan's steps run: declared once, for `executePlan` and every planning strategy. */
export interface ExecutionSettings {
  /** Steps running at once; default 4. */
  concurrency?: number | undefined;
  /** Retries of tool steps that timed out or threw. */
  retry?: RetryOptions | undefined;
  /** Model calls allowed to an agent step without its own `budget.maxSteps`; default 5. */
  agentMaxSteps?: number | undefined;
  /** An agent step's context policy (see `ContextPolicy`): each request of its loop stays under a token cap. */
  agentContext?: ContextPolicy | undefined;
  /**
   * Give agent steps' loops `wait_until` (see `AgentOptions.waitTools`): a durable run whose
   * agent step waits on it is kept waiting, and `wakeDueRuns` continues it when the time comes.
   */
  agentWaitTools?: boolean | undefined;
  /** Replaces prompts (see `Prompts`); `executePlan` uses the agent-step prompt. */
  prompts?: Partial<Prompts> | undefined;
  /** Runs steps in worker processes instead of here (`bullmqRunner` from `planloop/bullmq`). */
  runner?: StepRunner | undefined;
  /**
   * Slots shared with other runs (`new StepSlots(n)`): at most n steps of all of them run at
   * once, a freed slot going to the run that holds the fewest. Each run's `concurrency` holds too.
   */
  slots?: StepSlots | undefined;
  /**
   * Whose run this is (an API token's name, a schedule, a caller): with shared `slots`, a freed
   * slot goes to the tenant using the fewest for its weight, so one tenant's many runs cannot
   * crowd out another's few (`StepSlots`).
   */
  tenant?: string | undefined;
  /**
   * Models an agent step may name in its `model` (e.g. `{ fast, strong }`): planning takes a
   * strong model, simple steps a cheaper one. A step without `model` runs on the run's model.
   */
  models?: Record<string, Model> | undefined;
  /**
   * Step latencies learned from earlier runs (`latencyBook()`), for the order of steps without
   * `estimateMs`; this run's tool steps are recorded in it as they end.
   */
  latencies?: LatencyBook | undefined;
}

/** Every key of `ExecutionSettings`, once: what a strategy's options hand on to each execution. */
const settingKeys = [
  "concurrency",
  "retry",
  "agentMaxSteps",
  "agentContext",
  "agentWaitTools",
  "prompts",
  "runner",
  "slots",
  "tenant",
  "models",
  "latencies",
] as const;
// A setting added to the interface and not to the list above fails to compile here.
const everySetting: Record<keyof ExecutionSettings, true> = Object.fromEntries(settingKeys.map((key) => [key, true])) as {
  [Key in (typeof settingKeys)[number]]: true;
};

/** The execution settings among a strategy's options (which hold much else: planners, critics). */
export function executionSettingsOf(options: ExecutionSettings): ExecutionSettings {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(everySetting) as Array<keyof ExecutionSettings>) {
    if (options[key] !== undefined) settings[key] = options[key];
  }
  return settings as ExecutionSettings;
}

export type { RunSettings };

export interface ExecutePlanOptions extends ExecutionSettings, RunSettings, HumanDecisions, DurableOptions {
  /** The steps and their `depends_on`; validated before anything runs. */
  plan: PlanInput;
  /** Tools for tool steps, and for the inner loops of agent steps. */
  tools?: readonly Tool[] | undefined;
  /** Runs agent steps (steps without a `tool`). Required when the plan has any. */
  model?: Model | undefined;
  /** `result.state` of a paused or stopped run, to continue it. */
  resume?: PlanRunState | undefined;
  /** Results of steps done before (e.g. before a replan), by step id: succeeded ones are not run again. */
  reuse?: Record<string, StepRecord> | undefined;
  /**
   * Sees every step's output as it arrives; returning `{ replan: reason }` marks the plan as
   * contradicted or outdated: the steps after this one are not started (the run's other
   * branches go on), and the result lists the request in `replanRequests`.
   */
  observe?: Observer | undefined;
  /**
   * Concerns the plan already deals with (a planner replanned for them): when a check or
   * `observe` raises one of these again, it is not a reason to stop the steps after it.
   */
  acknowledged?: readonly string[] | undefined;
  /**
   * Told the moment a step fails for good or an output asks for a new plan, while other
   * steps may still run, with every record so far: a planner can start replanning early.
   * The run itself goes on; a throwing listener is ignored with a warning.
   */
  onProblem?: ProblemListener | undefined;
  /** The plan's version number, for events (a planner counts its replans). Default 1. */
  planVersion?: number | undefined;
}

/** A problem as `onProblem` hears it: the steps that have ended so far and the replan requests. */
export interface PlanProblem {
  stepId: string | number;
  /** The steps that have ended, gathered when first read: read it during the call to see the run as it was then. */
  steps: Record<string, StepRecord>;
  replanRequests: ReadonlyArray<{ stepId: string | number; reason: string }>;
}
export type ProblemListener = (problem: PlanProblem) => void;

/** What an observer says about a step's output. */
export type ObservationVerdict = { replan: string } | undefined | void;
export type Observer = (observation: { step: PlanStep; output: unknown }) => ObservationVerdict | Promise<ObservationVerdict>;

export interface PlanConfig {
  plan: Plan;
  graph: PlanGraph;
  /** Tool arguments the plan check already parsed, by step index. */
  parsedArgs: CheckedPlan["parsedArgs"];
  /** The plan check's topological order; none for a streamed plan. */
  order: Int32Array | undefined;
  tools: readonly Tool[];
  toolsByName: Map<string, Tool>;
  guard: ToolRunner;
  /** As given (an adapter keeps its `modelId` for events); checked to be a model. */
  model: Model | undefined;
  /** The models agent steps may name, by name. */
  models: Map<string, Model>;
  concurrency: number;
  signal: AbortSignal | undefined;
  budget: Budget | BudgetLimits;
  onEvent: EventListener | undefined;
  retry: RetryPolicy;
  agentMaxSteps: number;
  agentContext: ContextPolicy | undefined;
  agentWaitTools: boolean;
  secretKeys: SecretKeys;
  approvalExpiresInMs: number | undefined;
  resume: PlanRunState | undefined;
  reuse: Record<string, StepRecord>;
  observe: Observer | undefined;
  onProblem: ProblemListener | undefined;
  acknowledged: readonly string[];
  planVersion: number;
  prompts: Prompts;
  approvals: Record<string, ApprovalDecision>;
  answers: Record<string, string>;
  /** Who gave the decisions, kept with them in the journal. */
  decidedBy: string | undefined;
  runner: StepRunner | undefined;
  slots: StepSlots | undefined;
  tenant: string | undefined;
  latencies: LatencyBook | undefined;
  /** Decisions used before (by earlier resumes) and by this run. */
  used: string[];
  stateSecret: string | undefined;
  clock: Clock;
}

/**
 * How the plan reaches the run besides `options.plan`: already checked (a planner's plan,
 * checked against the same tools: it is not checked again), or streamed (its steps arrive
 * later and are checked one by one as they come).
 */
export type GivenPlan = { kind: "checked"; checked: CheckedPlan } | { kind: "streamed"; plan: Plan; graph: PlanGraph };

/** Checks the options, and the plan unless it comes checked (see `GivenPlan`). */
export function readPlanOptions(options: ExecutePlanOptions, given?: GivenPlan): PlanConfig {
  if (typeof options !== "object" || options === null) throw new InvalidOptionsError("executePlan needs an options object");
  const tools = options.tools ?? [];
  const guard = guardTools(tools);
  checkSecret(options.stateSecret);
  verifyState(options.resume, options.stateSecret);
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const read = options.resume === undefined ? undefined : readPlanState(options.resume);
  const resume = read === undefined ? undefined : askCutShortAnew(read, toolsByName);
  if (resume !== undefined) checkSamePlan(resume, given?.kind === "checked" ? given.checked.plan : options.plan);
  const checked = readGivenPlan(given, { resumed: resume !== undefined, tools }) ?? checkPlan(resume?.plan ?? options.plan, { tools });
  if (!checked.ok) throw new InvalidPlanError(checked.errors);
  const model = options.model !== undefined && toModelFunction(options.model) ? options.model : undefined;
  if (options.model !== undefined && !model) throw new InvalidOptionsError("model must be a function or an object with generate(request)");
  const models = readModels(options.models);
  const agentSteps = checked.plan.steps.filter((step) => stepKind(step) === "agent");
  checkStepModels(agentSteps, models, options.runner !== undefined || options.models === undefined);
  if (agentSteps.some((step) => step.model === undefined || !models.has(step.model)) && !model && options.runner === undefined) {
    throw new InvalidOptionsError(
      `steps ${agentSteps.map((step) => step.id).join(", ")} have no tool, so an agent runs them: pass executePlan({ model })`,
    );
  }
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new InvalidOptionsError(`concurrency must be an integer >= 1, got ${shown(concurrency)}`);
  const agentMaxSteps = options.agentMaxSteps ?? 5;
  readContextPolicy(options.agentContext);
  if (!Number.isInteger(agentMaxSteps) || agentMaxSteps < 1) throw new InvalidOptionsError("agentMaxSteps must be an integer >= 1");
  for (const name of ["onEvent", "observe", "onProblem"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new InvalidOptionsError(`${name} must be a function`);
  }
  return {
    plan: checked.plan,
    graph: checked.graph,
    parsedArgs: checked.parsedArgs,
    order: checked.order,
    tools,
    toolsByName,
    guard,
    model,
    models,
    concurrency,
    signal: options.signal,
    budget: options.budget instanceof Budget ? options.budget : checkBudgetLimits(options.budget),
    onEvent: options.onEvent,
    retry: readRetry(options.retry),
    agentMaxSteps,
    agentContext: options.agentContext,
    agentWaitTools: options.agentWaitTools === true,
    secretKeys: options.secretKeys ?? defaultSecretKeys,
    approvalExpiresInMs: checkedExpiry(options.approvalExpiresInMs),
    resume,
    reuse: options.reuse ?? {},
    observe: options.observe,
    onProblem: options.onProblem,
    acknowledged: options.acknowledged ?? [],
    planVersion: options.planVersion ?? 1,
    prompts: resolvePrompts(options.prompts),
    ...resolveDecisions(resume === undefined ? [] : decidableCalls(resume), options, resume?.usedApprovals),
    decidedBy: options.decidedBy,
    stateSecret: options.stateSecret,
    clock: options.clock ?? systemClock,
    runner: checkRunner(options.runner),
    slots: checkSlots(options.slots),
    tenant: checkTenant(options.tenant),
    latencies: checkLatencies(options.latencies),
  };
}

function readModels(given: Record<string, Model> | undefined): Map<string, Model> {
  const models = new Map<string, Model>();
  if (given === undefined) return models;
  if (typeof given !== "object" || given === null) throw new InvalidOptionsError("models must be an object of models by name");
  for (const [name, each] of Object.entries(given)) {
    if (!toModelFunction(each)) throw new InvalidOptionsError(`models.${name} must be a function or an object with generate(request)`);
    models.set(name, each);
  }
  return models;
}

/**
 * An agent step that names a model the run does not have is an error before anything runs,
 * listing the names there are. Without `models` the name is left to the worker (with a runner)
 * or ignored (the run's model runs every agent step).
 */
function checkStepModels(agentSteps: readonly PlanStep[], models: Map<string, Model>, lenient: boolean): void {
  if (lenient) return;
  const unknown = agentSteps.filter((step) => step.model !== undefined && !models.has(step.model));
  if (unknown.length === 0) return;
  const names = [...models.keys()].join(", ");
  throw new InvalidOptionsError(
    unknown.map((step) => `step ${step.id} asks for model "${step.model}", which is not in models (${names})`).join("; "),
  );
}

function checkLatencies(latencies: LatencyBook | undefined): LatencyBook | undefined {
  if (latencies !== undefined && !(latencies instanceof LatencyBook))
    throw new InvalidOptionsError("latencies must be made by latencyBook()");
  return latencies;
}

function checkRunner(runner: StepRunner | undefined): StepRunner | undefined {
  if (runner === undefined) return undefined;
  if (typeof runner?.runTool !== "function" || typeof runner.runAgent !== "function")
    throw new InvalidOptionsError("runner must have runTool and runAgent (e.g. bullmqRunner from planloop/bullmq)");
  return runner;
}

/** The plan as given, when it needs no check here; undefined when it must be checked. */
function readGivenPlan(given: GivenPlan | undefined, run: { resumed: boolean; tools: readonly Tool[] }) {
  if (given?.kind === "streamed") return { ok: true as const, plan: given.plan, graph: given.graph, parsedArgs: [], order: undefined };
  if (given?.kind === "checked" && !run.resumed && given.checked.tools === run.tools) return given.checked;
  return undefined;
}

/** A run's `tenant`, checked: a non-empty string, or none. */
export function checkTenant(tenant: unknown): string | undefined {
  if (tenant === undefined || (typeof tenant === "string" && tenant !== "")) return tenant;
  throw new InvalidOptionsError(`tenant must be a non-empty string, not ${JSON.stringify(tenant)}`);
}

function checkSlots(slots: unknown): StepSlots | undefined {
  if (slots === undefined || slots instanceof StepSlots) return slots;
  throw new InvalidOptionsError("slots must be a StepSlots (new StepSlots(n)), shared by the runs that take turns");
}

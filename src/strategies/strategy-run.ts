import { checkTenant } from "../executor/execution-options.js";
import type { SecretKeys } from "../trust/secrets.js";
import { Budget, type BudgetLimit } from "../core/budget.js";
import { offsetClock, systemClock, type Clock } from "../core/clock.js";
import { BudgetExceededError, errorMessage, InvalidOptionsError } from "../core/errors.js";
import { EventHub, type PlanloopEvent } from "../core/events.js";
import type { Message } from "../core/messages.js";
import { toModelFunction, type Model, type ModelPurpose, type ResponseFormat } from "../core/model.js";
import { cancelReason, createRunSignal, type AbortCause } from "../core/run-signal.js";
import { requestText } from "./text-call.js";
import type { UsageTotals } from "../core/usage.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";
import { checkSecret, verifyState } from "../trust/state-signature.js";
import { readTaskType } from "../react/agent-options.js";
import type { RunSettings } from "../core/run-settings.js";
import type { StrategyName, StrategyResult, StrategyStatus } from "./strategy-result.js";
import type { DurableOptions } from "../journal/checkpoints.js";
import type { StrategyDurability } from "./strategy-durability.js";
import { readGrounding, type GroundingPolicy } from "../grounding/grounding-policy.js";

/** Options every strategy takes, so the same task runs the same way under each. */
export interface StrategyOptions extends RunSettings, DurableOptions {
  task: string;
  /** The kind of task, for statistics over many runs (`suggestLimits`): on the result and the `strategy-end` event. */
  taskType?: string | undefined;
  /**
   * What to do with the answer's figures, dates and names (see `GroundingPolicy` and
   * docs/grounded-reports.md): check them against the step outputs and flag them (default
   * "flag"), also ask the solver once to repair the unsupported ones ("repair"), or also take
   * out what is still unsupported ("strict"); `false` checks nothing. No model call checks.
   */
  grounding?: GroundingPolicy | false | undefined;
  /**
   * Whose run it is (an API token's name, a schedule, a caller): every model call of the run
   * carries it — the planner's and the solver's as the steps' (`ModelRequest.tenant`) — so a
   * provider limit gives its turns by tenant (`providerLimit`'s `tenantWeights`).
   */
  tenant?: string | undefined;
}

export type { HumanDecisions };

/** How a strategy ended, before it becomes a result. */
export interface StrategyStop {
  status: StrategyStatus;
  reason?: string;
  limit?: BudgetLimit;
}

/** The shared machinery of one strategy run: budget, signal, events and their trace. */
export interface StrategyRun {
  strategy: StrategyName;
  task: string;
  budget: Budget;
  events: EventHub;
  trace: PlanloopEvent[];
  signal: AbortSignal;
  abortCause(): AbortCause | undefined;
  clock: Clock;
  startedAt: number;
  callerSignal: AbortSignal | undefined;
  /** Signs the states the run hands back (see `stateSecret`). */
  stateSecret: string | undefined;
  runId: string;
  taskType: string | undefined;
  /** Where a durable run keeps its answers and plan runs; undefined without a store. */
  durability: StrategyDurability | undefined;
  secretKeys: SecretKeys | undefined;
  approvalExpiresInMs: number | undefined;
  grounding: GroundingPolicy | false;
  /** Whose run it is: on every text call (plan, replan, solve, critic, join). */
  tenant: string | undefined;
  dispose(): void;
}

/** Checks what every strategy needs: a task, and for the planning ones a planner model. */
export function checkStrategyOptions(
  options: StrategyOptions & { planner?: unknown; resume?: unknown; tools?: unknown },
  needs: { planner: boolean; toolsFor?: StrategyName },
): void {
  if (typeof options?.task !== "string" || options.task.trim() === "") throw new InvalidOptionsError("task must be a non-empty string");
  if (needs.planner && !toModelFunction(options.planner))
    throw new InvalidOptionsError("planner must be a model (a function or an object with generate)");
  // Refused before the first model call: a plan of tool calls with no tool to call cannot be written.
  if (needs.toolsFor !== undefined && !(Array.isArray(options.tools) && options.tools.length > 0))
    throw new InvalidOptionsError(
      `${needs.toolsFor} needs tools: every step of its plan is a tool call; pass tools (planloop ask --tools <module>)`,
    );
  checkSecret(options.stateSecret);
  verifyState(options.resume, options.stateSecret);
}

/**
 * `identity`: the run's id, and where it is kept (see `openStrategyRun`). `saved`: what a
 * resumed run had already spent, so its budget and totals continue.
 */
export function startStrategyRun(
  strategy: StrategyName,
  options: StrategyOptions,
  identity: { runId: string; durability: StrategyDurability | undefined },
  saved?: { usage: UsageTotals; elapsedMs: number },
): StrategyRun {
  // On a store with a clock of its own (Postgres), the run's time is the store's: its plan runs' approval deadlines too.
  const offset = identity.durability?.checkpoints?.durability.lease?.clockOffsetMs ?? 0;
  const clock = options.clock ?? (offset === 0 ? systemClock : offsetClock(systemClock, offset));
  const budget =
    options.budget instanceof Budget
      ? options.budget.child()
      : new Budget(options.budget, { clock, ...(saved ? { spent: saved.usage, elapsedMs: saved.elapsedMs } : {}) });
  // A durable run stops too when its lease is lost (another process took it over).
  const lost = identity.durability?.checkpoints?.durability.lease?.signal;
  const runSignal = createRunSignal({ signal: options.signal, lost, clock, remainingMs: budget.remainingMs() });
  const trace: PlanloopEvent[] = [];
  // The result's trace keeps every event but the pieces of streamed answers (the answers are in it whole).
  const events = new EventHub({ clock, internal: (event) => event.type !== "model-delta" && trace.push(event) });
  if (options.onEvent) events.on(options.onEvent);
  return {
    strategy,
    task: options.task,
    budget,
    events,
    trace,
    signal: runSignal.signal,
    abortCause: runSignal.cause,
    clock,
    startedAt: clock.now(),
    callerSignal: options.signal,
    stateSecret: options.stateSecret,
    runId: identity.runId,
    taskType: readTaskType(options.taskType),
    durability: identity.durability,
    secretKeys: options.secretKeys,
    approvalExpiresInMs: options.approvalExpiresInMs,
    grounding: readGrounding(options.grounding),
    tenant: checkTenant(options.tenant),
    dispose: runSignal.dispose,
  };
}

/** The stop for a run whose signal aborted, or whose budget cannot pay for more; else undefined. */
export function checkStop(run: StrategyRun): StrategyStop | undefined {
  const cause = run.abortCause();
  if (cause === "cancelled") return { status: "cancelled", reason: cancelReason(run.callerSignal) };
  if (cause === "deadline") return { status: "deadline_exceeded", limit: "deadlineMs", reason: "the run's deadline passed" };
  const breach = run.budget.breach();
  if (breach)
    return { status: breach.limit === "deadlineMs" ? "deadline_exceeded" : "budget_exceeded", limit: breach.limit, reason: breach.message };
  return undefined;
}

/** The stop for a call whose worst case the budget could not hold. */
function budgetStop(error: unknown): StrategyStop | undefined {
  if (!(error instanceof BudgetExceededError)) return undefined;
  return { status: error.limit === "deadlineMs" ? "deadline_exceeded" : "budget_exceeded", limit: error.limit, reason: error.message };
}

export type AskResult = { ok: true; text: string } | { ok: false; stop: StrategyStop };

/**
 * A text call (plan, replan, solve, critic, join) that first checks the run may go on, and
 * turns a failing model into a `failed` stop instead of an exception.
 */
export function ask(run: StrategyRun, model: Model, purpose: ModelPurpose, messages: Message[]): Promise<AskResult> {
  return askFor(run, { model, purpose, messages });
}

/** `ask`, and where the answer should be JSON of a schema (a plan), the `responseFormat` to ask with. */
export async function askFor(
  run: StrategyRun,
  call: { model: Model; purpose: ModelPurpose; messages: Message[]; responseFormat?: ResponseFormat | undefined },
): Promise<AskResult> {
  const { model, purpose, messages, responseFormat } = call;
  const stop = checkStop(run);
  if (stop) return { ok: false, stop };
  try {
    const text = await requestText(
      {
        model,
        signal: run.signal,
        budget: run.budget,
        events: run.events,
        clock: run.clock,
        replay: run.durability?.replay,
        calls: run.durability?.calls,
        responseFormat,
        tenant: run.tenant,
      },
      purpose,
      messages,
    );
    return { ok: true, text };
  } catch (error) {
    return { ok: false, stop: checkStop(run) ?? budgetStop(error) ?? { status: "failed", reason: errorMessage(error) } };
  }
}

export function finishStrategy<T extends StrategyResult>(
  run: StrategyRun,
  result: Omit<T, "strategy" | "usage" | "durationMs" | "trace" | "runId">,
): T {
  const durationMs = run.clock.now() - run.startedAt;
  run.events.emit({
    type: "strategy-end",
    strategy: run.strategy,
    status: result.status,
    usage: run.budget.spent,
    durationMs,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(run.taskType === undefined ? {} : { taskType: run.taskType }),
  });
  const typed = run.taskType === undefined ? {} : { taskType: run.taskType };
  return { ...result, strategy: run.strategy, runId: run.runId, ...typed, usage: run.budget.spent, durationMs, trace: run.trace } as T;
}

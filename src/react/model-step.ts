import { raceAbort } from "../core/abort.js";
import { maxNesting, nestedTooDeep, nestsDeeperThan } from "../core/json-safe.js";
import { errorMessage, InvalidDecisionError, ModelCallError } from "../core/errors.js";
import { describeDecisionProblem, type ModelDecision, type ModelDelta, type ModelRequest } from "../core/model.js";
import type { Reservation } from "../core/budget.js";
import { CallSending, endFailedCallHold } from "../core/call-sending.js";
import type { ModelCallFacts } from "../journal/model-calls.js";
import { addUsage, modelCallDelta } from "../core/usage.js";
import type { AgentStop } from "./agent-result.js";
import type { Message } from "../core/messages.js";
import { abortStop, snapshotState, type AgentRun } from "./agent-run.js";

/**
 * What must hold before the loop may call the model again: not cancelled, within the
 * deadline, steps left, and a budget that can pay for the next call. A run whose last
 * answer was rejected and cannot afford a fix ends `incomplete`.
 */
export function checkBeforeModelCall(run: AgentRun): AgentStop | undefined {
  if (run.signal.aborted) return abortStop(run);
  const breach = run.budget.breach(run.lastCall);
  if (breach?.limit === "deadlineMs") return { status: "deadline_exceeded", limit: breach.limit, reason: breach.message };
  let stop: AgentStop | undefined;
  if (run.steps >= run.config.maxSteps) {
    stop = { status: "max_steps_exceeded", reason: `all ${run.config.maxSteps} steps were used without a final answer` };
  } else if (breach) {
    stop = { status: "budget_exceeded", limit: breach.limit, reason: breach.message };
  }
  if (!stop || !run.rejectedAnswer) return stop;
  return {
    ...stop,
    status: "incomplete",
    output: run.rejectedAnswer.output,
    reason: `the answer was rejected (${run.rejectedAnswer.feedback}) and ${stop.reason}`,
  };
}

/**
 * One model call: the step's single call, raced against cancellation, its decision checked
 * and its usage charged. A model that throws is infrastructure failure: a `ModelCallError`
 * that carries the state so far.
 */
export async function callModel(run: AgentRun, messages: Message[]): Promise<ModelDecision | AgentStop> {
  const step = run.steps;
  const sending = new CallSending();
  const request: ModelRequest = {
    messages,
    step,
    signal: run.signal,
    tools: run.runner.specs,
    purpose: "act",
    ...(run.config.tenant === undefined ? {} : { tenant: run.config.tenant }),
    onSendState: sending.onSendState,
    // Pieces of the answer become events only when someone listens.
    ...(run.events.watched
      ? { onDelta: (delta: ModelDelta) => run.events.emit({ type: "model-delta", step, purpose: "act", ...delta }) }
      : {}),
    onLimitWait: ({ limit, until }) => {
      run.events.emit({ type: "model-waiting", step, purpose: "act", limit, until: new Date(until).toISOString() });
      run.calls?.waiting({ limit, until, step });
    },
  };
  const held = await holdCallCost(run, request);
  if (!("settle" in held)) return held;
  run.steps += 1;
  run.events.emit({ type: "agent-step-start", step });
  run.events.emit({ type: "model-call-start", step, purpose: "act", ...run.config.identity });
  const startedAt = run.config.clock.now();
  let decision: ModelDecision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => run.config.model(request)),
      run.signal,
    );
  } catch (error) {
    endFailedCallHold(held, { error, aborted: run.signal.aborted, sending });
    keepCall(run, { request, startedAt, outcome: { error: errorMessage(error) } });
    if (run.signal.aborted) return abortStop(run);
    run.steps -= 1;
    const state = snapshotState(run, "failed");
    throw new ModelCallError(`the model call at step ${step} failed: ${errorMessage(error)}`, { cause: error, state });
  }
  const problem = describeDecisionProblem(decision);
  if (problem !== undefined) {
    keepCall(run, { request, startedAt, outcome: { error: problem } });
    held.settle(modelCallDelta(decision?.usage));
    throw new InvalidDecisionError(`model returned no actionable decision at step ${step}: ${problem}`, {
      decision,
      state: snapshotState(run, "failed"),
    });
  }
  // Arguments nested past the limit are not kept: the guard refuses them, and nothing that
  // writes the history as JSON meets them.
  if (decision.type === "tool_calls" && decision.calls.some((call) => nestsDeeperThan(call.arguments, maxNesting))) {
    const calls = decision.calls.map((call) =>
      nestsDeeperThan(call.arguments, maxNesting) ? { ...call, arguments: nestedTooDeep } : call,
    );
    decision = { ...decision, calls };
  }
  keepCall(run, { request, startedAt, outcome: { decision } });
  const delta = modelCallDelta(decision.usage);
  run.usage = addUsage(run.usage, delta);
  held.settle(delta);
  run.lastCall = { tokens: (delta.inputTokens ?? 0) + (delta.outputTokens ?? 0), costUsd: delta.costUsd ?? 0 };
  run.events.emit({
    type: "model-call-end",
    step,
    purpose: "act",
    decision: decision.type,
    toolCalls: decision.type === "tool_calls" ? decision.calls.length : 0,
    durationMs: run.config.clock.now() - startedAt,
    ...(decision.usage ? { usage: decision.usage } : {}),
    ...(decision.response ? { response: decision.response } : {}),
  });
  return decision;
}

/** Keeps the call in a durable loop's journal (see `ModelCallLog`). */
function keepCall(run: AgentRun, call: Pick<ModelCallFacts, "request" | "startedAt" | "outcome">): void {
  run.calls?.keep({ ...call, durationMs: run.config.clock.now() - call.startedAt, identity: run.config.identity });
}

/**
 * Holds the call's worst case against the budget while it runs: what the model says the call
 * can cost, else the dearest of this loop's last call and the run's dearest call so far. A
 * hold that cannot fit stops the loop as the check before the call would (`budget_exceeded`);
 * one that fits once calls in flight settle waits for them.
 */
async function holdCallCost(run: AgentRun, request: ModelRequest): Promise<Reservation | AgentStop> {
  const dearest = run.budget.dearestCall();
  const last = run.lastCall ?? dearest;
  const worstCase = run.config.maxCallCost(request) ?? {
    tokens: Math.max(last.tokens, dearest.tokens),
    costUsd: Math.max(last.costUsd, dearest.costUsd),
  };
  const held = await run.budget.reserve(worstCase, run.signal);
  if (run.signal.aborted) {
    if ("settle" in held) held.release();
    return abortStop(run);
  }
  if ("settle" in held) return held;
  if (held.limit === "deadlineMs") return { status: "deadline_exceeded", limit: held.limit, reason: held.message };
  return { status: "budget_exceeded", limit: held.limit, reason: held.message };
}

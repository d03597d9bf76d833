import { errorMessage } from "../core/errors.js";
import type { ToolCall } from "../core/messages.js";
import type { ToolCallsDecision } from "../core/model.js";
import { previewOf } from "../core/tools/tool-output.js";
import { failure, runAdmittedCall, type Admission, type ToolOutcome } from "../core/tools/tool-runner.js";
import type { PendingCall, Stop } from "./agent-result.js";
import { abortStop, toolMessage, type AgentRun } from "./agent-run.js";
import type { OpenRound } from "./agent-state.js";
import { recordRound } from "./no-progress.js";

type Verdict = { outcome: ToolOutcome } | { pending: PendingCall } | { admission: Extract<Admission, { kind: "run" }> };

export function openRound(run: AgentRun, decision: ToolCallsDecision): OpenRound {
  run.history.push({
    role: "assistant",
    toolCalls: decision.calls,
    ...(decision.content === undefined ? {} : { content: decision.content }),
  });
  return { step: run.steps - 1, calls: decision.calls, outcomes: decision.calls.map(() => null), pending: [] };
}

/**
 * Decides every call of a round in call order (guard, approvals, budget), runs the admitted
 * ones concurrently under the tool concurrency limit, then appends one tool message per
 * call in call order. A round with calls still awaiting a human stays open: `waiting`.
 */
export async function settleRound(run: AgentRun, round: OpenRound): Promise<Stop | undefined> {
  const pending: PendingCall[] = [];
  const running: Array<Promise<void>> = [];
  for (const [index, call] of round.calls.entries()) {
    if (round.outcomes[index]) continue;
    const startedAt = run.config.clock.now();
    run.events.emit({ type: "tool-call-start", step: round.step, callId: call.id, name: call.name, arguments: call.arguments ?? {} });
    const verdict = await decideCall(run, call, round);
    if ("admission" in verdict) {
      const options = { signal: run.signal, step: round.step, clock: run.config.clock, maxOutputChars: run.config.maxToolOutputChars };
      const admission = verdict.admission;
      running.push(run.limitTools(async () => record(run, round, index, await runAdmittedCall(call, admission, options), startedAt)));
    } else if ("pending" in verdict) {
      pending.push(verdict.pending);
      emitEnd(run, round, call, { status: "pending", startedAt });
    } else {
      record(run, round, index, verdict.outcome, startedAt);
    }
  }
  await Promise.all(running);
  round.pending = pending;
  run.openRound = round;
  if (run.signal.aborted) return abortStop(run);
  if (pending.length > 0) {
    return { status: "waiting", reason: `waiting for ${pending.map((call) => `${call.kind} of "${call.name}" (${call.callId})`).join(", ")}` };
  }
  return closeRound(run, round);
}

async function decideCall(run: AgentRun, call: ToolCall, round: OpenRound): Promise<Verdict> {
  if (call.invalidArguments !== undefined) {
    const raw = call.invalidArguments.length > 200 ? `${call.invalidArguments.slice(0, 200)}…` : call.invalidArguments;
    return { outcome: failure("invalid_arguments", `the arguments for "${call.name}" are not valid JSON (${raw}); send the call again with a JSON object`) };
  }
  const waiting = round.pending.find((pending) => pending.callId === call.id);
  let approved = false;
  if (waiting?.kind === "input") {
    const answer = run.config.answers[String(call.id)];
    return typeof answer === "string" ? { outcome: { content: answer } } : { pending: waiting };
  }
  if (waiting?.kind === "approval") {
    const decision = run.config.approvals[String(call.id)];
    if (decision === undefined) return { pending: waiting };
    if (!decision.approved) {
      const because = decision.reason ? `: ${decision.reason}` : "";
      return { outcome: failure("denied", `the user denied this call to "${call.name}"${because}`) };
    }
    approved = true;
  }
  let admission: Admission;
  try {
    admission = await run.config.runner.admit(call, {
      step: round.step,
      signal: run.signal,
      callsSoFar: run.toolCallCounts[call.name] ?? 0,
      approved,
    });
  } catch (error) {
    return { outcome: failure("execution_failed", `checking the call to "${call.name}" failed: ${errorMessage(error)}`) };
  }
  if (admission.kind === "reject") return { outcome: { content: `Error: ${admission.error.message}`, error: admission.error } };
  if (admission.kind === "pending") {
    const entry: PendingCall = { callId: call.id, name: call.name, arguments: call.arguments ?? {}, kind: admission.reason };
    if (admission.question !== undefined) entry.question = admission.question;
    return { pending: entry };
  }
  if (run.budget.remainingToolCalls() < 1) {
    return { outcome: failure("budget_exhausted", `the run's tool-call budget is used up; "${call.name}" was not called`) };
  }
  run.toolCallCounts[call.name] = (run.toolCallCounts[call.name] ?? 0) + 1;
  run.usage = { ...run.usage, toolCalls: run.usage.toolCalls + 1 };
  run.budget.charge({ toolCalls: 1 });
  return { admission };
}

function record(run: AgentRun, round: OpenRound, index: number, outcome: ToolOutcome, startedAt: number): void {
  round.outcomes[index] = outcome;
  const call = round.calls[index]!;
  if (outcome.error) {
    run.lastError = { source: "tool", kind: outcome.error.kind, message: outcome.error.message, toolCallId: call.id, name: call.name };
  }
  emitEnd(run, round, call, { status: outcome.error ? "error" : "ok", startedAt, outcome });
}

function emitEnd(
  run: AgentRun,
  round: OpenRound,
  call: ToolCall,
  details: { status: "ok" | "error" | "pending"; startedAt: number; outcome?: ToolOutcome },
): void {
  const { outcome } = details;
  run.events.emit({
    type: "tool-call-end",
    step: round.step,
    callId: call.id,
    name: call.name,
    status: details.status,
    durationMs: run.config.clock.now() - details.startedAt,
    ...(outcome?.error ? { error: outcome.error } : {}),
    ...(outcome && !outcome.error ? { preview: previewOf(outcome.content) } : {}),
  });
}

function closeRound(run: AgentRun, round: OpenRound): Stop | undefined {
  const results = round.calls.map((call, index) => ({ call, outcome: round.outcomes[index]! }));
  for (const { call, outcome } of results) run.history.push(toolMessage(call, outcome));
  run.openRound = undefined;
  const settings = run.config.noProgress;
  if (!settings) return undefined;
  const stall = recordRound(run.progress, results, settings);
  return stall === undefined ? undefined : { status: "no_progress", reason: stall };
}

import { maskSecrets } from "../trust/secrets.js";
import { andThen, type MaybePromise } from "../core/maybe-async.js";
import type { ToolCall } from "../core/messages.js";
import type { ToolCallsDecision } from "../core/model.js";
import { previewOf } from "../core/tools/tool-output.js";
import { callDigest, reactPendingId } from "../core/tools/approvals.js";
import { effectOf, type Tool } from "../core/tools/define-tool.js";
import { admitCall, callExecution, runAdmittedCall, type GuardedCallOptions } from "../core/tools/guarded-call.js";
import type { AdmittedCall, ToolOutcome } from "../core/tools/tool-runner.js";
import type { PendingCall, AgentStop } from "./agent-result.js";
import { abortStop, toolMessage, type AgentRun } from "./agent-run.js";
import type { OpenRound } from "./agent-state.js";
import { recordRound } from "./no-progress.js";

type Verdict = { outcome: ToolOutcome } | { pending: PendingCall } | { options: GuardedCallOptions; admission: AdmittedCall };

export function openRound(run: AgentRun, decision: ToolCallsDecision): OpenRound {
  run.history.push({
    role: "assistant",
    toolCalls: decision.calls,
    ...(decision.content === undefined ? {} : { content: decision.content }),
    ...(decision.reasoning === undefined ? {} : { reasoning: decision.reasoning }),
  });
  return { step: run.steps - 1, calls: decision.calls, outcomes: decision.calls.map(() => null), pending: [] };
}

/**
 * Decides every call of a round in call order (guard, approvals, budget), runs the admitted
 * ones concurrently under the tool concurrency limit, then appends one tool message per
 * call in call order. A round with calls still awaiting a human stays open: `waiting`.
 */
export async function settleRound(run: AgentRun, round: OpenRound): Promise<AgentStop | undefined> {
  const pending: PendingCall[] = [];
  const running: Array<Promise<void>> = [];
  for (const [index, call] of round.calls.entries()) {
    if (round.outcomes[index]) continue;
    const startedAt = run.config.clock.now();
    run.events.emit(() => ({
      type: "tool-call-start",
      step: round.step,
      callId: call.id,
      name: call.name,
      arguments: maskSecrets(call.arguments ?? {}, run.config.secretKeys),
    }));
    const verdict = await decideCall(run, round, index);
    if ("admission" in verdict) {
      const { options, admission } = verdict;
      // A side-effecting call is marked started before it runs: after a crash it is asked about, not run again.
      if (run.checkpoints && effectOf(admission.tool as Partial<Tool>) === "side-effecting") {
        run.checkpoints.write([{ kind: "call-start", turn: round.step, position: index }]);
        await run.checkpoints.commit();
      }
      const execution = callExecution(options);
      running.push(
        run.limitTools(async () =>
          record(run, round, { index, startedAt, outcome: await runAdmittedCall(options.call, admission, execution) }),
        ),
      );
    } else if ("pending" in verdict) {
      pending.push(verdict.pending);
      emitEnd(run, round, call, { status: "pending", startedAt });
    } else {
      record(run, round, { index, startedAt, outcome: verdict.outcome });
    }
  }
  await Promise.all(running);
  round.pending = pending;
  run.openRound = round;
  if (run.signal.aborted) return abortStop(run);
  if (pending.length > 0) {
    return {
      status: "waiting",
      reason: `waiting for ${pending.map((call) => `${call.kind} of "${call.name}" (${call.id})`).join(", ")}`,
    };
  }
  return closeRound(run, round);
}

function decideCall(run: AgentRun, round: OpenRound, index: number): MaybePromise<Verdict> {
  const call = round.calls[index]!;
  // Pending calls are told apart by their place in the round, not by the model's call ids,
  // which may repeat ("call_0" from every turn of a server that sends none; 1 and "1").
  const id = reactPendingId(round.step, index);
  const waiting = round.pending.find((pending) => pending.id === id);
  const options: GuardedCallOptions = {
    scope: run.callScope,
    // Only a durable loop's calls can run again after a crash: only they carry a key.
    call: run.checkpoints === undefined ? call : { ...call, idempotencyKey: `${run.runId}/${id}` },
    step: round.step,
    waiting: waiting === undefined ? undefined : { kind: waiting.kind, key: id, expiresAt: waiting.expiresAt },
  };
  return andThen(admitCall(options), (verdict): Verdict => {
    if (verdict.kind === "run") {
      run.usage = { ...run.usage, toolCalls: run.usage.toolCalls + 1 };
      return { options, admission: verdict };
    }
    if (verdict.kind !== "pending") return { outcome: verdict.outcome };
    if (waiting !== undefined) return { pending: waiting };
    const args = call.arguments ?? {};
    const entry: PendingCall = {
      id,
      callId: call.id,
      name: call.name,
      arguments: args,
      kind: verdict.reason,
      digest: callDigest(call.name, args),
    };
    if (verdict.question !== undefined) entry.question = verdict.question;
    const expiresInMs = verdict.expiresInMs ?? (verdict.reason === "approval" ? run.config.approvalExpiresInMs : undefined);
    if (expiresInMs !== undefined) entry.expiresAt = run.config.clock.now() + expiresInMs;
    return { pending: entry };
  });
}

function record(run: AgentRun, round: OpenRound, ended: { index: number; startedAt: number; outcome: ToolOutcome }): void {
  const { index, startedAt, outcome } = ended;
  round.outcomes[index] = outcome;
  if (run.checkpoints) {
    run.checkpoints.write([{ kind: "call-end", turn: round.step, position: index, outcome }]);
    void run.checkpoints.commit();
  }
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

function closeRound(run: AgentRun, round: OpenRound): AgentStop | undefined {
  const results = round.calls.map((call, index) => ({ call, outcome: round.outcomes[index]! }));
  for (const { call, outcome } of results) run.history.push(toolMessage(call, outcome));
  run.openRound = undefined;
  const settings = run.config.noProgress;
  if (!settings) return undefined;
  const stall = recordRound(run.progress, results, { ...settings, secretKeys: run.config.secretKeys });
  return stall === undefined ? undefined : { status: "no_progress", reason: stall };
}

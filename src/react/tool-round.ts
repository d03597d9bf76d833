import { maskSecrets } from "../trust/secrets.js";
import { andThen, type MaybePromise } from "../core/maybe-async.js";
import type { ToolCall } from "../core/messages.js";
import type { ToolCallsDecision } from "../core/model.js";
import { previewOf } from "../core/tools/tool-output.js";
import { callDigest, pendingPosition, reactPendingId } from "../core/tools/approvals.js";
import { effectOf, type Tool } from "../core/tools/define-tool.js";
import { admitCall, callExecution, runAdmittedCall, type GuardedCallOptions } from "../core/tools/guarded-call.js";
import type { AdmittedCall, ToolOutcome } from "../core/tools/tool-runner.js";
import type { PendingCall, AgentStop } from "./agent-result.js";
import { abortStop, toolMessage, type AgentRun } from "./agent-run.js";
import type { OpenRound } from "./agent-state.js";
import { recordRound } from "./no-progress.js";
import { roundWakeAt, waitToolName, wakeTimeOf, wokeOutcome } from "./wait-tool.js";
import { sleep } from "../core/clock.js";

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
    // A wait the round began keeps waiting when the loop is continued without waitTools.
    if ((run.config.waitTools && call.name === waitToolName) || round.wakeAt?.[index] !== undefined) {
      const sleeping = waitCall(run, round, { index, startedAt });
      if (sleeping !== undefined) running.push(sleeping);
      continue;
    }
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
  const wakeAt = roundWakeAt(round);
  const waitsFor = wakeAt === undefined ? [] : [`${waitToolName}: ${new Date(wakeAt).toISOString()}`];
  if (pending.length > 0 || wakeAt !== undefined) {
    return {
      status: "waiting",
      reason: `waiting for ${[...pending.map((call) => `${call.kind} of "${call.name}" (${call.id})`), ...waitsFor].join(", ")}`,
    };
  }
  return closeRound(run, round);
}

/**
 * A `wait_until` call, run by the loop: it wakes at once if its time has come; else a durable
 * loop keeps the time in the round and pauses (nothing held), and one without a store sleeps on
 * its clock (the promise returned). Arguments that name no time are the model's to fix.
 */
function waitCall(run: AgentRun, round: OpenRound, at: { index: number; startedAt: number }): Promise<void> | undefined {
  const { index, startedAt } = at;
  const clock = run.config.clock;
  const until = round.wakeAt?.[index] ?? wakeTimeOf(round.calls[index]!.arguments, clock.now());
  if (typeof until !== "number") return void record(run, round, { index, startedAt, outcome: until });
  const woke = () => {
    if (round.wakeAt !== undefined) delete round.wakeAt[index];
    run.usage = { ...run.usage, toolCalls: run.usage.toolCalls + 1 };
    record(run, round, { index, startedAt, outcome: wokeOutcome(until, clock.now()) });
  };
  if (until <= clock.now()) return void woke();
  if (run.checkpoints !== undefined) {
    (round.wakeAt ??= {})[index] = until;
    emitEnd(run, round, round.calls[index]!, { status: "pending", startedAt });
    return undefined;
  }
  // A stopped run leaves the call without a result: the round stays open, as for any call the stop cut off.
  return sleep(until - clock.now(), { clock, signal: run.signal }).then(woke, () => undefined);
}

function decideCall(run: AgentRun, round: OpenRound, index: number): MaybePromise<Verdict> {
  const call = round.calls[index]!;
  // Pending calls are told apart by their place in the round, not by the model's call ids,
  // which may repeat ("call_0" from every turn of a server that sends none; 1 and "1").
  const place = reactPendingId(round.step, index);
  const waiting = round.pending.find((pending) => pendingPosition(pending.id, place));
  const id = waiting?.id ?? place;
  const options: GuardedCallOptions = {
    scope: run.callScope,
    // Only a durable loop's calls can run again after a crash: only they carry a key.
    call: run.checkpoints === undefined ? call : { ...call, idempotencyKey: `${run.runId}/${place}` },
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
    run.checkpoints.commitSoon();
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

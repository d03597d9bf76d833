import type { LimitFunction } from "p-limit";
import { maskSecrets } from "../../trust/secrets.js";
import { callDigest, interruptedQuestion, nextDecisionId, pendingPosition, type PendingCall } from "../../core/tools/approvals.js";
import { effectOf, type Tool } from "../../core/tools/define-tool.js";
import {
  admitCall,
  callExecution,
  runAdmittedCall,
  type CallScope,
  type CallVerdict,
  type GuardedCallOptions,
} from "../../core/tools/guarded-call.js";
import type { ToolOutcome } from "../../core/tools/tool-runner.js";
import { previewOf } from "../../core/tools/tool-output.js";
import type { HostCall, HostReply } from "../../sandbox/program-outcome.js";
import { checkStop, type StrategyRun, type StrategyStop } from "../strategy-run.js";
import type { KeptCall } from "./code-mode-state.js";
import { keepCallEnd, keepCallStart } from "./code-journal.js";

/**
 * The host's side of one run of a program: every `tools.<name>(args)` it makes is the run's
 * ordinary guarded call (arguments checked, approvals, call limits, the tool-call budget, the
 * tool's timeout, an idempotency key, events), with at most `limit`'s concurrency running at
 * once. A call is known by what it asks, not by when it is made: the n-th call of a program
 * with the same tool and arguments is the same call in every run of it, so a replay (after an
 * approval, or a repair) reads the kept outcome instead of calling again. A kept failure is
 * read again only by the program that met it: a repaired program may try the call anew.
 */
export class ProgramCalls {
  private readonly occurrences = new Map<string, number>();
  /** The calls that wait for a person, found in this run of the program. */
  readonly pending: PendingCall[] = [];
  /** What each call the program made read (kept or made now), in the order it made them; a call that got nothing leaves a hole. */
  private readonly outcomes: Array<KeptCall | undefined> = [];
  /** Why the host stopped the program (the run's budget, signal or deadline), if it did. */
  stopped: StrategyStop | undefined = undefined;

  constructor(
    private readonly setup: {
      run: StrategyRun;
      scope: CallScope;
      /** Every call of the run so far, with its outcome; new ones are added as they end. */
      kept: KeptCall[];
      /** The calls the run waited on when it paused, with the ids their decisions come under. */
      waiting: readonly PendingCall[];
      attempt: number;
      limit: LimitFunction;
      /** Side-effecting calls a crash cut short, by `<attempt>/<key>` (see `readCodeJournal`): asked about, not run again. */
      cutShort: ReadonlySet<string>;
    },
  ) {}

  /** Answers one call of the program; never rejects. */
  async call(request: HostCall): Promise<HostReply> {
    const { run, attempt } = this.setup;
    const digest = callDigest(request.name, request.args);
    const count = (this.occurrences.get(digest) ?? 0) + 1;
    this.occurrences.set(digest, count);
    const key = `${digest}:${count}`;
    const place = this.outcomes.length;
    this.outcomes.push(undefined);
    const kept = this.setup.kept.findLast((call) => call.key === key && (call.attempt === attempt || call.outcome.error === undefined));
    if (kept !== undefined) {
      this.outcomes[place] = kept;
      return replyOf(kept.outcome);
    }
    const stop = this.stopped ?? checkStop(run);
    if (stop !== undefined) return this.stop(stop);
    const callPlace = `code:${attempt}:${key}`;
    // The latest question asked of this call: its place, or `<place>#2`… once a crash cut it short.
    const asked = this.setup.waiting.findLast((pending) => pendingPosition(pending.id, callPlace));
    const cut = this.setup.cutShort.has(`${attempt}/${key}`);
    // Approved, started and cut short by a crash: asked about under a new id, so the approval
    // already given (and given again to the continued run) does not run it a second time.
    const askAgain = cut && asked?.kind !== "interrupted";
    const id = askAgain ? nextDecisionId(callPlace, asked?.id) : (asked?.id ?? callPlace);
    const waiting = askAgain ? undefined : asked;
    const options: GuardedCallOptions = {
      scope: this.setup.scope,
      call: { id, name: request.name, arguments: request.args, idempotencyKey: `${run.runId}/${id}` },
      step: attempt,
      waiting: waiting === undefined ? undefined : { kind: waiting.kind, key: waiting.id, expiresAt: waiting.expiresAt },
    };
    const startedAt = run.clock.now();
    run.events.emit(() => ({
      type: "tool-call-start",
      step: attempt,
      callId: id,
      name: request.name,
      arguments: maskSecrets(request.args ?? {}, run.secretKeys),
    }));
    // A side-effecting call a crash cut short is asked about, not decided again.
    const verdict: CallVerdict = askAgain
      ? { kind: "pending", reason: "interrupted", question: interruptedQuestion(request.name) }
      : await admitCall(options);
    if (verdict.kind === "pending") {
      this.pending.push(waiting ?? this.pendingEntry(id, request, verdict));
      this.emitEnd(options, { startedAt });
      return { park: true };
    }
    if (verdict.kind === "refused" && verdict.outcome.error?.kind === "budget_exhausted") {
      this.emitEnd(options, { startedAt, outcome: verdict.outcome });
      return this.stop({ status: "budget_exceeded", limit: "maxToolCalls", reason: verdict.outcome.error.message });
    }
    const call = { key, attempt, name: request.name, arguments: request.args };
    const made: KeptCall = { ...call, outcome: await this.outcomeOf(verdict, options, call) };
    this.setup.kept.push(made);
    keepCallEnd(run, made);
    this.outcomes[place] = made;
    this.emitEnd(options, { startedAt, outcome: made.outcome });
    // A call cut short by the run's own stop is not the program's failure to read.
    if (run.signal.aborted) return this.stop(checkStop(run) ?? { status: "cancelled", reason: "the run was cancelled" });
    return replyOf(made.outcome);
  }

  /** A decided call's outcome: run (within the concurrency cap), or how it ended without running. */
  private async outcomeOf(
    verdict: Exclude<CallVerdict, { kind: "pending" }>,
    options: GuardedCallOptions,
    call: Omit<KeptCall, "outcome">,
  ): Promise<ToolOutcome> {
    if (verdict.kind !== "run") return verdict.outcome;
    // Marked before it runs: after a crash a person is asked about it, it is not run again.
    if (effectOf(verdict.tool as Partial<Tool>) === "side-effecting") await keepCallStart(this.setup.run, call);
    return this.setup.limit(() => runAdmittedCall(options.call, verdict, callExecution(options)));
  }

  /** The calls the program read, in the order it made them (not the order they ended): the answer's evidence, `[s1]` first. */
  get read(): KeptCall[] {
    return this.outcomes.filter((call): call is KeptCall => call !== undefined);
  }

  private stop(stop: StrategyStop): HostReply {
    this.stopped ??= stop;
    return { stop: stop.reason ?? stop.status };
  }

  private pendingEntry(
    id: string,
    request: HostCall,
    verdict: { reason: PendingCall["kind"]; question?: string; expiresInMs?: number },
  ): PendingCall {
    const args = request.args ?? {};
    const entry: PendingCall = {
      id,
      callId: id,
      name: request.name,
      arguments: args,
      kind: verdict.reason,
      digest: callDigest(request.name, args),
    };
    if (verdict.question !== undefined) entry.question = verdict.question;
    const expiresInMs = verdict.expiresInMs ?? (verdict.reason === "approval" ? this.setup.run.approvalExpiresInMs : undefined);
    if (expiresInMs !== undefined) entry.expiresAt = this.setup.run.clock.now() + expiresInMs;
    return entry;
  }

  private emitEnd(options: GuardedCallOptions, ended: { startedAt: number; outcome?: ToolOutcome }): void {
    const { run } = this.setup;
    const { outcome } = ended;
    run.events.emit({
      type: "tool-call-end",
      step: options.step,
      callId: options.call.id,
      name: options.call.name,
      status: outcome === undefined ? "pending" : outcome.error ? "error" : "ok",
      durationMs: run.clock.now() - ended.startedAt,
      ...(outcome?.error ? { error: outcome.error } : {}),
      ...(outcome && !outcome.error ? { preview: previewOf(outcome.content) } : {}),
    });
  }
}

/** A kept outcome as the program reads it: the tool's output, or an Error with its message and kind. */
function replyOf(outcome: ToolOutcome): HostReply {
  if (outcome.error) return { error: { message: outcome.error.message, kind: outcome.error.kind } };
  return { value: outcome.content };
}

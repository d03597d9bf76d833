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
import { callPlace, keepCallEnd, keepCallStart } from "./code-journal.js";
import { journalTime } from "../../core/clock.js";

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
  /** The kept calls by key, in the order they were kept: a program of n calls looks each up once, not n times over all. */
  private byKey: Map<string, KeptCall[]> | undefined;
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
    const position = this.outcomes.length;
    this.outcomes.push(undefined);
    // Read back (after an approval, a crash, or from an earlier program in a repair): not a step again.
    const kept = this.keptByKey()
      .get(key)
      ?.findLast((call) => call.attempt === attempt || call.outcome.error === undefined);
    if (kept !== undefined) {
      this.outcomes[position] = kept;
      return replyOf(kept.outcome);
    }
    const stop = this.stopped ?? checkStop(run);
    if (stop !== undefined) return this.stop(stop);
    const place = callPlace(attempt, key);
    // The latest question asked of this call: its place, or `<place>#2`… once a crash cut it short.
    const asked = this.setup.waiting.findLast((pending) => pendingPosition(pending.id, place));
    const cut = this.setup.cutShort.has(`${attempt}/${key}`);
    // Approved, started and cut short by a crash: asked about under a new id, so the approval
    // already given (and given again to the continued run) does not run it a second time.
    const askAgain = cut && asked?.kind !== "interrupted";
    const id = askAgain ? nextDecisionId(place, asked?.id) : (asked?.id ?? place);
    const waiting = askAgain ? undefined : asked;
    const options: GuardedCallOptions = {
      scope: this.setup.scope,
      call: { id, name: request.name, arguments: request.args, idempotencyKey: `${run.runId}/${id}` },
      step: attempt,
      waiting: waiting === undefined ? undefined : { kind: waiting.kind, key: waiting.id, expiresAt: waiting.expiresAt },
    };
    // A side-effecting call a crash cut short is asked about, not decided again.
    const verdict: CallVerdict = askAgain
      ? { kind: "pending", reason: "interrupted", question: interruptedQuestion(request.name) }
      : await admitCall(options);
    if (verdict.kind === "pending") {
      this.pending.push(waiting ?? this.pendingEntry(id, request, verdict));
      this.emitEnd(options, { startedAt: this.announce(options, place), place });
      return { park: true };
    }
    if (verdict.kind === "refused" && verdict.outcome.error?.kind === "budget_exhausted") {
      this.emitEnd(options, { startedAt: this.announce(options, place), place, outcome: verdict.outcome });
      return this.stop({ status: "budget_exceeded", limit: "maxToolCalls", reason: verdict.outcome.error.message });
    }
    const call = { key, attempt, name: request.name, arguments: request.args };
    const { outcome, startedAt } = await this.outcomeOf(verdict, { options, call, place });
    const made: KeptCall = { ...call, outcome };
    const byKey = this.keptByKey();
    byKey.set(key, [...(byKey.get(key) ?? []), made]);
    this.setup.kept.push(made);
    keepCallEnd(run, made, startedAt.wall);
    this.outcomes[position] = made;
    this.emitEnd(options, { startedAt, place, outcome });
    // A call cut short by the run's own stop is not the program's failure to read.
    if (run.signal.aborted) return this.stop(checkStop(run) ?? { status: "cancelled", reason: "the run was cancelled" });
    return replyOf(made.outcome);
  }

  /** The kept calls by key, each key's in the order they were kept (indexed from `kept` when first asked). */
  private keptByKey(): Map<string, KeptCall[]> {
    if (this.byKey === undefined) {
      this.byKey = new Map();
      for (const call of this.setup.kept) this.byKey.set(call.key, [...(this.byKey.get(call.key) ?? []), call]);
    }
    return this.byKey;
  }

  /**
   * A decided call's outcome: run (its step starting once the concurrency cap lets it), or how
   * it ended without running; with when its step started.
   */
  private async outcomeOf(
    verdict: Exclude<CallVerdict, { kind: "pending" }>,
    made: { options: GuardedCallOptions; call: Omit<KeptCall, "outcome">; place: string },
  ): Promise<{ outcome: ToolOutcome; startedAt: CallStart }> {
    const { options, call, place } = made;
    if (verdict.kind !== "run") return { outcome: verdict.outcome, startedAt: this.announce(options, place) };
    // Marked before it runs: after a crash a person is asked about it, it is not run again.
    if (effectOf(verdict.tool as Partial<Tool>) === "side-effecting") await keepCallStart(this.setup.run, call);
    return this.setup.limit(async () => {
      const startedAt = this.announce(options, place);
      return { outcome: await runAdmittedCall(options.call, verdict, callExecution(options)), startedAt };
    });
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

  /**
   * A call the program makes now is a step of the run (`step-start` with its tool and
   * arguments), and the tool call inside it: traces, the ui and spans show one per call.
   */
  private announce(options: GuardedCallOptions, place: string): CallStart {
    const { run } = this.setup;
    const { name, arguments: args } = options.call;
    const masked = () => maskSecrets(args ?? {}, run.secretKeys);
    run.events.emit(() => ({ type: "step-start", stepId: place, kind: "tool", attempt: 1, tool: name, args: masked() }), { stepId: place });
    run.events.emit(() => ({ type: "tool-call-start", step: options.step, callId: options.call.id, name, arguments: masked() }), {
      stepId: place,
    });
    return { clock: run.clock.now(), wall: journalTime() };
  }

  /** The call's end, then its step's: waiting for a person, cancelled by the run's budget, succeeded or failed. */
  private emitEnd(options: GuardedCallOptions, ended: { startedAt: CallStart; place: string; outcome?: ToolOutcome }): void {
    const { run } = this.setup;
    const { outcome, place } = ended;
    const durationMs = run.clock.now() - ended.startedAt.clock;
    const failed = outcome?.error;
    const preview = outcome && !failed ? { preview: previewOf(outcome.content) } : {};
    run.events.emit(
      {
        type: "tool-call-end",
        step: options.step,
        callId: options.call.id,
        name: options.call.name,
        status: outcome === undefined ? "pending" : failed ? "error" : "ok",
        durationMs,
        ...(failed ? { error: failed } : {}),
        ...preview,
      },
      { stepId: place },
    );
    const status = outcome === undefined ? "waiting" : failed?.kind === "budget_exhausted" ? "cancelled" : failed ? "failed" : "succeeded";
    run.events.emit(
      { type: "step-end", stepId: place, status, attempts: 1, durationMs, ...(failed ? { error: failed.message } : {}), ...preview },
      { stepId: place },
    );
  }
}

/** When a call's step started: on the run's clock (for events), and on the wall (for the journal's timeline). */
interface CallStart {
  clock: number;
  wall: number;
}

/** A kept outcome as the program reads it: the tool's output, or an Error with its message and kind. */
function replyOf(outcome: ToolOutcome): HostReply {
  if (outcome.error) return { error: { message: outcome.error.message, kind: outcome.error.kind } };
  return { value: outcome.content };
}

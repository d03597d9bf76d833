import { SettleWaiter, whenSettled } from "../../core/abort.js";
import { isPromiseLike } from "../../core/maybe-async.js";
import { isGated } from "../../core/tools/call-gates.js";
import {
  admitCall,
  callExecution,
  callTool,
  OwnSignal,
  outcomeOfError,
  outputContent,
  runAdmittedCall,
  stoppedBefore,
  type CallIdentity,
  type CallResult,
  type CallVerdict,
  type GuardedCallOptions,
  type RanCall,
} from "../../core/tools/guarded-call.js";
import type { AdmittedCall, RunOptions, ToolOutcome } from "../../core/tools/tool-runner.js";
import type { RemoteCall } from "../step-runner.js";

/*
 * The step's call in continuation style: `admitCall` then `runAdmittedCall`
 * (core/tools/guarded-call.ts), the same policy and the same outcomes, but reported to a sink
 * instead of through promises. A hundred thousand steps in flight at once each hold one
 * object (the step's call, which is its own sink) and one reaction on the tool's promise; a
 * synchronous tool makes no promise at all. tool-step.property.test.ts holds it to the plain call.
 */

/** Where a call reports how it ended, once. An object, so the step's call can be its own. */
export interface CallSink {
  callEnded(result: CallResult): void;
}

export interface StepCallOptions extends GuardedCallOptions {
  /** Runs admitted calls in a worker process instead of here (a plan run with a `runner`). */
  remote: RemoteCall | undefined;
}

/**
 * Decides the call and runs it: the result when it ended at once; else undefined, and
 * `sink.callEnded(result)` once it ends. Never throws; `callEnded` must not throw either.
 */
export function startCall(options: StepCallOptions, sink: CallSink): CallResult | undefined {
  const verdict = admitCall(options);
  if (!isPromiseLike(verdict)) return runVerdict(options, verdict, sink);
  void Promise.resolve(verdict).then((decided) => {
    const now = runVerdict(options, decided, sink);
    if (now !== undefined) sink.callEnded(now);
  });
  return undefined;
}

function runVerdict(options: StepCallOptions, verdict: CallVerdict, sink: CallSink): CallResult | undefined {
  if (verdict.kind !== "run") return verdict;
  const admission = verdict;
  const execution = callExecution(options);
  if (options.remote === undefined && admission.timeoutMs === undefined && !isGated(admission.tool))
    return runHere(options.call, admission, execution, sink);
  // A call with a timer, behind a gate (a limit, resources), or in another process, is slow anyway: the plain promise serves it.
  const running = options.remote ? options.remote(options.call, admission, execution) : runAdmittedCall(options.call, admission, execution);
  running.then(
    (outcome) => sink.callEnded(ran(outcome)),
    (error: unknown) =>
      sink.callEnded(ran(outcomeOfError(options.call.name, error, { aborted: execution.signal.aborted, timedOut: false }))),
  );
  return undefined;
}

/** `runAdmittedCall` for a call with no timeout, here: a synchronous tool makes no promise. */
function runHere(call: CallIdentity, admission: AdmittedCall, options: RunOptions, sink: CallSink): CallResult | undefined {
  if (options.signal.aborted) return ran(stoppedBefore(call.name));
  const own = new OwnSignal(options.signal, call.id, options.step, call.idempotencyKey);
  let returned: unknown;
  try {
    returned = callTool(call, admission, own, options.step);
  } catch (error) {
    own.release();
    return ran(outcomeOfError(call.name, error, { aborted: options.signal.aborted, timedOut: false }));
  }
  if (!isPromiseLike(returned)) {
    own.release();
    return ranWith(returned, options);
  }
  whenSettled(returned, options.signal, new CallInFlight(call.name, options, sink, own));
  return undefined;
}

/** A tool call whose promise is out: the one object that waits for it (see `whenSettled`). */
class CallInFlight extends SettleWaiter {
  constructor(
    private readonly name: string,
    private readonly options: RunOptions,
    private readonly sink: CallSink,
    private readonly own: OwnSignal,
  ) {
    super();
  }

  settle(ok: boolean, value: unknown): void {
    const { options } = this;
    this.own.release();
    this.sink.callEnded(
      ok ? ranWith(value, options) : ran(outcomeOfError(this.name, value, { aborted: options.signal.aborted, timedOut: false })),
    );
  }
}

function ran(outcome: ToolOutcome): RanCall {
  return { kind: "ran", ...outcome };
}

/** What a tool returned, as the call's result: one object. */
function ranWith(output: unknown, options: RunOptions): RanCall {
  return { kind: "ran", content: outputContent(output, options) };
}

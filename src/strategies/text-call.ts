import { raceAbort } from "../core/abort.js";
import type { Budget, Reservation } from "../core/budget.js";
import { CallSending, endFailedCallHold } from "../core/call-sending.js";
import type { Clock } from "../core/clock.js";
import { BudgetExceededError, errorMessage, InvalidDecisionError, ModelCallError } from "../core/errors.js";
import type { EventHub } from "../core/events.js";
import type { Message } from "../core/messages.js";
import {
  maxCallCostOf,
  modelIdentity,
  toModelFunction,
  type Model,
  type ModelPurpose,
  type ModelRequest,
  type ModelResponseInfo,
  type ResponseFormat,
  type TextStreamPart,
} from "../core/model.js";
import type { MaybePromise } from "../core/maybe-async.js";
import type { ModelCallFacts, ModelCallLog } from "../journal/model-calls.js";
import { modelCallDelta, type Usage } from "../core/usage.js";

/** What a text call (plan, replan, solve, critic, join) needs from the run around it. */
export interface TextCallContext {
  model: Model;
  signal: AbortSignal;
  budget: Budget;
  events: EventHub;
  clock: Clock;
  /** A durable run's answers kept from before: a call it has an answer for asks no model. */
  replay?: TextReplay | undefined;
  /** Asks for JSON of this schema where the model can (a plan: see `ModelRequest.responseFormat`). */
  responseFormat?: ResponseFormat | undefined;
  /** Where a durable run keeps what each call was sent and answered. */
  calls?: ModelCallLog | undefined;
  /** Whose run it is: the request carries it to the model's limit (`ModelRequest.tenant`). */
  tenant?: string | undefined;
}

/** A text answer as a durable run keeps it. `partial`: a stream cut short, kept up to its last full line. */
export interface KeptText {
  text: string;
  usage?: Usage | undefined;
  partial?: boolean;
}

/**
 * Where a durable run keeps its text answers, by what was asked. `keep` is committed before
 * the caller acts on the answer; a stream is kept as it goes, at each line it completes.
 */
export interface TextReplay {
  /** Opens one call: the answer kept for it before, if any, and where to keep a new one. */
  open(purpose: ModelPurpose, messages: Message[]): { kept: KeptText | undefined; keep(answer: KeptText): MaybePromise<void> };
}

/**
 * One model call whose answer is text: it must be a final decision. Usage is charged to the
 * budget and the call is announced like every other model call. A model that throws, or
 * answers with tool calls, is an error for the caller to report.
 */
export async function requestText(context: TextCallContext, purpose: ModelPurpose, messages: Message[]): Promise<string> {
  const call = context.replay?.open(purpose, messages);
  return call?.kept ? replayed(context, call.kept) : askModel(context, { purpose, messages, call });
}

type OpenedCall = ReturnType<TextReplay["open"]> | undefined;

async function askModel(
  context: TextCallContext,
  { purpose, messages, call }: { purpose: ModelPurpose; messages: Message[]; call: OpenedCall },
): Promise<string> {
  const model = toModelFunction(context.model)!;
  const sending = new CallSending();
  const request = textRequest(
    context,
    { purpose, messages, sending },
    {
      ...(context.responseFormat ? { responseFormat: context.responseFormat } : {}),
      ...deltasOf(context, purpose),
    },
  );
  const held = await holdCallCost(context, request);
  context.events.emit({ type: "model-call-start", step: 0, purpose, ...modelIdentity(context.model) });
  const startedAt = context.clock.now();
  let decision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => model(request)),
      context.signal,
    );
  } catch (error) {
    endFailedCallHold(held, { error, aborted: context.signal.aborted, sending });
    keepCall(context, { request, startedAt, outcome: { error: errorMessage(error) } });
    if (context.signal.aborted) throw error;
    throw new ModelCallError(`the ${purpose} call failed: ${errorMessage(error)}`, { cause: error });
  }
  if (decision?.type !== "final" || typeof decision.content !== "string") {
    keepCall(context, { request, startedAt, outcome: { error: `the ${purpose} call must answer with text (a "final" decision)` } });
    held.settle(modelCallDelta(decision?.usage));
    throw new InvalidDecisionError(`the ${purpose} call must answer with text (a "final" decision)`, { decision });
  }
  keepCall(context, { request, startedAt, outcome: { decision } });
  finishCall(context, { purpose, usage: decision.usage, startedAt, held, response: decision.response });
  await call?.keep({ text: decision.content, usage: decision.usage });
  return decision.content;
}

/** A kept answer: charged as it was the first time, and no model is asked. */
function replayed(context: TextCallContext, kept: KeptText): string {
  context.budget.charge(modelCallDelta(kept.usage));
  return kept.text;
}

/**
 * Streams a text answer when the model can (`streamText`), else yields the whole answer at
 * once. Usage is charged when the stream ends. In a durable run the text is kept at each
 * line it completes, before that line is yielded, and a kept answer is yielded whole.
 */
export async function* streamText(context: TextCallContext, purpose: ModelPurpose, messages: Message[]): AsyncGenerator<string> {
  const call = context.replay?.open(purpose, messages);
  if (call?.kept) {
    yield replayed(context, call.kept);
    return;
  }
  const stream = (context.model as { streamText?: (request: ModelRequest) => AsyncIterable<TextStreamPart> }).streamText;
  if (typeof stream !== "function") {
    yield await askModel(context, { purpose, messages, call });
    return;
  }
  const { onDelta: announce, onLimitWait } = deltasOf(context, purpose);
  const sending = new CallSending();
  // The deltas are announced here, as the stream yields them, not by the model.
  const request = textRequest(context, { purpose, messages, sending }, { onLimitWait });
  const held = await holdCallCost(context, request);
  context.events.emit({ type: "model-call-start", step: 0, purpose, ...modelIdentity(context.model) });
  const startedAt = context.clock.now();
  let usage: Usage | undefined;
  let text = "";
  let ended = false;
  try {
    for await (const part of stream.call(context.model, request)) {
      if (context.signal.aborted) throw context.signal.reason;
      if (part.type !== "text") {
        usage = part.usage;
        continue;
      }
      text += part.text;
      announce?.({ text: part.text });
      if (call && part.text.includes("\n")) await call.keep({ text: text.slice(0, text.lastIndexOf("\n") + 1), partial: true });
      yield part.text;
    }
    ended = true;
  } catch (error) {
    keepCall(context, { request, startedAt, outcome: { error: errorMessage(error) } });
    endFailedCallHold(held, { error, aborted: context.signal.aborted, sending });
    throw error;
  } finally {
    // A stream that ended gives its hold back (its usage is charged below); one a reader left
    // early may have been spent: the shared ledger keeps its hold (after a failure, a no-op).
    if (ended) held.release();
    else held.cutOff();
  }
  keepCall(context, { request, startedAt, outcome: { decision: { type: "final", content: text, ...(usage ? { usage } : {}) } } });
  finishCall(context, { purpose, usage, startedAt, held });
  await call?.keep({ text, usage });
}

/** A text call's request: no tools, step 0, the run's signal and tenant; `extra` adds what differs. */
function textRequest(
  context: TextCallContext,
  { purpose, messages, sending }: { purpose: ModelPurpose; messages: Message[]; sending: CallSending },
  extra: Partial<ModelRequest>,
): ModelRequest {
  return {
    messages,
    step: 0,
    signal: context.signal,
    tools: [],
    purpose,
    tenant: context.tenant,
    onSendState: sending.onSendState,
    ...extra,
  };
}

function finishCall(
  context: TextCallContext,
  call: { purpose: ModelPurpose; usage: Usage | undefined; startedAt: number; held: Reservation; response?: ModelResponseInfo | undefined },
): void {
  const { purpose, usage, startedAt, response } = call;
  call.held.settle(modelCallDelta(usage));
  context.events.emit({
    type: "model-call-end",
    step: 0,
    purpose,
    decision: "final",
    toolCalls: 0,
    durationMs: context.clock.now() - startedAt,
    ...(usage ? { usage } : {}),
    ...(response ? { response } : {}),
  });
}

/** Keeps the call in a durable run's journal (see `ModelCallLog`). */
function keepCall(context: TextCallContext, call: Pick<ModelCallFacts, "request" | "startedAt" | "outcome">): void {
  context.calls?.keep({ ...call, durationMs: context.clock.now() - call.startedAt, identity: modelIdentity(context.model) });
}

/** Each piece of an answer as a `model-delta` event, when someone listens. */
function deltasOf(context: TextCallContext, purpose: ModelPurpose): Pick<ModelRequest, "onDelta" | "onLimitWait"> {
  const onLimitWait = ({ limit, until }: { limit: string; until: number }) => {
    context.events.emit({ type: "model-waiting", step: 0, purpose, limit, until: new Date(until).toISOString() });
    context.calls?.waiting({ limit, until, step: 0 });
  };
  if (!context.events.watched) return { onLimitWait };
  return { onDelta: (delta) => context.events.emit({ type: "model-delta", step: 0, purpose, ...delta }), onLimitWait };
}

/**
 * Holds the call's worst case against the budget while it runs (see `Budget.reserve`): what
 * the model says it can cost, else the run's dearest call so far. A hold that cannot fit is
 * the budget's breach, thrown as the stop it is; one that fits once calls in flight settle
 * waits for them.
 */
async function holdCallCost(context: TextCallContext, request: ModelRequest): Promise<Reservation> {
  const held = await context.budget.reserve(maxCallCostOf(context.model, request) ?? context.budget.dearestCall(), context.signal);
  if (context.signal.aborted) {
    if ("settle" in held) held.release();
    throw context.signal.reason;
  }
  if ("settle" in held) return held;
  throw new BudgetExceededError(held);
}

import { raceAbort } from "./abort.js";
import type { Budget } from "./budget.js";
import type { Clock } from "./clock.js";
import { errorMessage, InvalidDecisionError, ModelCallError } from "./errors.js";
import type { EventHub } from "./events.js";
import type { Message } from "./messages.js";
import { toModelFunction, type Model, type ModelPurpose, type ModelRequest, type TextStreamPart } from "./model.js";
import { modelCallDelta, type Usage } from "./usage.js";

/** What a text call (plan, replan, solve, critic, join) needs from the run around it. */
export interface TextCallContext {
  model: Model;
  signal: AbortSignal;
  budget: Budget;
  events: EventHub;
  clock: Clock;
}

/**
 * One model call whose answer is text: it must be a final decision. Usage is charged to the
 * budget and the call is announced like every other model call. A model that throws, or
 * answers with tool calls, is an error for the caller to report.
 */
export async function requestText(context: TextCallContext, purpose: ModelPurpose, messages: Message[]): Promise<string> {
  const model = toModelFunction(context.model)!;
  const request: ModelRequest = { messages, step: 0, signal: context.signal, tools: [], purpose };
  context.events.emit({ type: "model-call-start", step: 0, purpose });
  const startedAt = context.clock.now();
  let decision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => model(request)),
      context.signal,
    );
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw new ModelCallError(`the ${purpose} call failed: ${errorMessage(error)}`, { cause: error });
  }
  if (decision?.type !== "final" || typeof decision.content !== "string") {
    throw new InvalidDecisionError(`the ${purpose} call must answer with text (a "final" decision)`, { decision });
  }
  finishCall(context, purpose, decision.usage, startedAt);
  return decision.content;
}

/**
 * Streams a text answer when the model can (`streamText`), else yields the whole answer at
 * once. Usage is charged when the stream ends.
 */
export async function* streamText(context: TextCallContext, purpose: ModelPurpose, messages: Message[]): AsyncGenerator<string> {
  const stream = (context.model as { streamText?: (request: ModelRequest) => AsyncIterable<TextStreamPart> }).streamText;
  if (typeof stream !== "function") {
    yield await requestText(context, purpose, messages);
    return;
  }
  const request: ModelRequest = { messages, step: 0, signal: context.signal, tools: [], purpose };
  context.events.emit({ type: "model-call-start", step: 0, purpose });
  const startedAt = context.clock.now();
  let usage: Usage | undefined;
  for await (const part of stream.call(context.model, request)) {
    if (context.signal.aborted) throw context.signal.reason;
    if (part.type === "text") yield part.text;
    else usage = part.usage;
  }
  finishCall(context, purpose, usage, startedAt);
}

function finishCall(context: TextCallContext, purpose: ModelPurpose, usage: Usage | undefined, startedAt: number): void {
  context.budget.charge(modelCallDelta(usage));
  context.events.emit({
    type: "model-call-end",
    step: 0,
    purpose,
    decision: "final",
    toolCalls: 0,
    durationMs: context.clock.now() - startedAt,
    ...(usage ? { usage } : {}),
  });
}

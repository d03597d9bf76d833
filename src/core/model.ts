import type { Message, ToolCall } from "./messages.js";
import type { Usage } from "./usage.js";

/** Why planloop is calling the model, so one function can route or log by purpose. */
export type ModelPurpose = "act" | "plan" | "replan" | "solve" | "critic" | "join" | "summarize";

/** A tool as the model sees it: name, description and JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  /**
   * The conversation so far. It is the loop's own history, passed without copying so a
   * long run stays linear: read it, copy it if you keep it, never change it.
   */
  messages: readonly Message[];
  /** Zero-based index of this model call within the loop. */
  step: number;
  /** Aborts on cancellation or deadline; pass it on to your HTTP client. */
  signal: AbortSignal;
  tools: readonly ToolSpec[];
  purpose: ModelPurpose;
  /**
   * Asks for an answer that is JSON matching `schema` (structured output), where the provider
   * can; one that cannot may ignore it: the caller still reads and checks the text.
   */
  responseFormat?: ResponseFormat;
  /**
   * Set when someone listens to the run's events: an adapter that streams calls it with each
   * piece of the answer as it arrives (text, reasoning, tool-call argument fragments).
   */
  onDelta?: ((delta: ModelDelta) => void) | undefined;
  /**
   * Called when the call must wait for its provider's limit (`providerLimit`: its rate, or a
   * cooldown after a 429) before it is sent: which limit, and when its turn comes (ms since 1970).
   */
  onLimitWait?: ((wait: { limit: string; until: number }) => void) | undefined;
  /**
   * Whose call it is (the run's `tenant`): a provider limit gives its next turn to the tenant it
   * served least recently (`providerLimit`'s `tenantWeights`).
   */
  tenant?: string | undefined;
  /**
   * Set by the loop, for a shared budget (`tenantBudget`): an adapter that waits before it sends
   * (a provider limit's turn, a cooldown) says `"waiting"` first and `"sent"` as an attempt goes
   * out. A call given up while only `"waiting"` was said was never sent, so its hold on the
   * tenant's day goes back; without a word, a call given up counts as sent (the provider may have
   * spent its worst case), and once `"sent"` it stays so.
   */
  onSendState?: ((state: "waiting" | "sent") => void) | undefined;
}

/** A piece of an answer while it streams in (see `ModelRequest.onDelta`). */
export type ModelDelta =
  { text: string } | { reasoning: string } | { toolCall: { index: number; id?: string; name?: string; arguments: string } };

/** JSON of a given schema, as a planner's plan (see `ModelRequest.responseFormat`). */
export interface ResponseFormat {
  type: "json";
  name: string;
  schema: Record<string, unknown>;
}

/** What the provider said of its answer, where it said it: for traces (`gen_ai.response.*`). */
export interface ModelResponseInfo {
  /** The provider's id of the answer. */
  id?: string;
  /** The model that answered (may be more specific than the one asked for). */
  model?: string;
  /** The provider's own finish reason ("stop", "tool_calls", "end_turn", …). */
  finishReason?: string;
}

export interface FinalDecision {
  type: "final";
  content: string;
  /** Reasoning text the provider sent apart from the answer (DeepSeek's `reasoning_content`, `reasoning`). */
  reasoning?: string;
  usage?: Usage;
  response?: ModelResponseInfo;
}

export interface ToolCallsDecision {
  type: "tool_calls";
  calls: ToolCall[];
  /** Optional text the model wrote alongside its calls (a visible thought). */
  content?: string;
  /** Reasoning text the provider sent apart from the answer and the arguments. */
  reasoning?: string;
  usage?: Usage;
  response?: ModelResponseInfo;
}

export type ModelDecision = FinalDecision | ToolCallsDecision;

export type ModelFunction = (request: ModelRequest) => Promise<ModelDecision> | ModelDecision;

/** A piece of a streamed answer: text as it is written, then what the call consumed. */
export type TextStreamPart = { type: "text"; text: string } | { type: "usage"; usage: Usage };

/** An adapter object (OpenAI-compatible, AI SDK, scripted, offline) instead of a function. */
export interface ModelAdapter {
  /** The model's name, for traces (`gen_ai.request.model`). */
  readonly modelId?: string;
  /** Who serves it ("openai", "anthropic", …), for traces (`gen_ai.provider.name`). */
  readonly provider?: string;
  /**
   * Where it is served, for traces: present for a model called over the network (its calls are
   * CLIENT spans), with the host and port where the adapter knows them (`server.*`).
   */
  readonly server?: { address?: string; port?: number };
  generate(request: ModelRequest): Promise<ModelDecision> | ModelDecision;
  /**
   * Optional: the answer as text while it is written. The LLMCompiler planner starts tasks
   * from it before the plan is finished; without it, the plan arrives in one piece.
   */
  streamText?(request: ModelRequest): AsyncIterable<TextStreamPart>;
  /**
   * Optional: the most this call can cost, its prompt's tokens plus the most it may write,
   * priced. It is held against the run's budget while the call runs, so calls made at once
   * cannot together spend past a limit. Without it, the dearest call of the run so far is held.
   */
  maxCallCost?(request: ModelRequest): CallCost | undefined;
}

/** Tokens and dollars of one model call. */
export interface CallCost {
  tokens: number;
  costUsd: number;
}

export type Model = ModelFunction | ModelAdapter;

/** The most a call to `model` can cost, if the model says (see `ModelAdapter.maxCallCost`). */
export function maxCallCostOf(model: unknown, request: ModelRequest): CallCost | undefined {
  const declared = (model as Partial<ModelAdapter> | null | undefined)?.maxCallCost;
  if (typeof declared !== "function") return undefined;
  const cost = declared.call(model, request);
  return cost !== undefined && cost.tokens >= 0 && cost.costUsd >= 0 ? cost : undefined;
}

/** The name and provider a model declares, for events and traces. */
export function modelIdentity(model: unknown): { model?: string; provider?: string; server?: { address?: string; port?: number } } {
  const declared =
    (typeof model === "object" || typeof model === "function") && model !== null
      ? (model as { modelId?: unknown; provider?: unknown; server?: unknown })
      : {};
  const server = declared.server as { address?: unknown; port?: unknown } | undefined;
  return {
    ...(typeof declared.modelId === "string" ? { model: declared.modelId } : {}),
    ...(typeof declared.provider === "string" ? { provider: declared.provider } : {}),
    ...(typeof server === "object" && server !== null
      ? {
          server: {
            ...(typeof server.address === "string" ? { address: server.address } : {}),
            ...(typeof server.port === "number" ? { port: server.port } : {}),
          },
        }
      : {}),
  };
}

/** The callable behind a model option, or undefined when the value is not a model. */
export function toModelFunction(model: unknown): ModelFunction | undefined {
  if (typeof model === "function") return model as ModelFunction;
  if (typeof model === "object" && model !== null) {
    const generate = (model as Partial<ModelAdapter>).generate;
    if (typeof generate === "function") return (request) => generate.call(model, request);
  }
  return undefined;
}

/**
 * What is wrong with a decision, or undefined when it is a final answer with content or a
 * non-empty list of well-formed calls with distinct ids.
 */
export function describeDecisionProblem(decision: unknown): string | undefined {
  if (typeof decision !== "object" || decision === null) {
    return `the model returned ${decision === null ? "null" : typeof decision} instead of a decision object`;
  }
  const candidate = decision as { type?: unknown; content?: unknown; calls?: unknown };
  if (candidate.type === "final") {
    return candidate.content === undefined || candidate.content === null ? 'a "final" decision needs "content"' : undefined;
  }
  if (candidate.type !== "tool_calls") {
    return `decision type must be "final" or "tool_calls", got ${JSON.stringify(candidate.type)}`;
  }
  if (!Array.isArray(candidate.calls) || candidate.calls.length === 0) {
    return 'a "tool_calls" decision needs a non-empty "calls" array';
  }
  const seen = new Set<string | number>();
  for (const [index, call] of candidate.calls.entries()) {
    const { id, name } = (call ?? {}) as Partial<ToolCall>;
    if (typeof id !== "string" && typeof id !== "number") return `call ${index} has no "id"`;
    if (typeof name !== "string" || name === "") return `call ${index} has no "name"`;
    if (seen.has(id)) return `call id ${JSON.stringify(id)} is used twice in one decision`;
    seen.add(id);
  }
  return undefined;
}

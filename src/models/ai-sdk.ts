import { InvalidOptionsError } from "../core/errors.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { ModelAdapter, ModelDecision, ModelDelta, ModelRequest, ModelResponseInfo, TextStreamPart } from "../core/model.js";
import type { Usage } from "../core/usage.js";
import { resolvePrices, withCost, type PriceTable } from "./prices.js";
import { callCostCeiling, tokenCap } from "./call-cost.js";
import { withArguments } from "./tool-call-arguments.js";
import { checkAnswerEnd, isCutShort } from "./answer-end.js";

/**
 * The part of the AI SDK's provider specification (LanguageModelV2 in `ai` 5, V3 in `ai` 6,
 * V4 in `ai` 7)
 * that planloop uses. Declared here so `ai` stays an optional peer dependency.
 */
export interface AISDKLanguageModel {
  readonly specificationVersion: string;
  readonly modelId: string;
  readonly provider?: string | undefined;
  doGenerate(options: Record<string, unknown>): PromiseLike<{
    content: AISDKContent[];
    usage?: AISDKUsage | undefined;
    finishReason?: AISDKFinishReason;
    response?: { id?: string | undefined; modelId?: string | undefined } | undefined;
  }>;
  doStream?(options: Record<string, unknown>): PromiseLike<{ stream: ReadableStream<AISDKStreamPart> }>;
}

// Fields are `| undefined` as well as optional: the AI SDK's own types set them to undefined.
type AISDKContent = {
  type: string;
  text?: string | undefined;
  toolCallId?: string | undefined;
  toolName?: string | undefined;
  input?: string | undefined;
};
type AISDKTokens = number | { total?: number | undefined } | undefined;
type AISDKUsage = { inputTokens?: AISDKTokens; outputTokens?: AISDKTokens };
/** V2 a word, V3 and V4 `{ unified, raw }`. */
type AISDKFinishReason = string | { unified?: string | undefined; raw?: string | undefined } | undefined;
type AISDKStreamPart = {
  type: string;
  delta?: string | undefined;
  textDelta?: string | undefined;
  usage?: AISDKUsage | undefined;
  finishReason?: AISDKFinishReason;
  id?: string | undefined;
  modelId?: string | undefined;
  toolName?: string | undefined;
  toolCallId?: string | undefined;
  input?: string | undefined;
};

/**
 * Wraps any Vercel AI SDK language model (`openai("gpt-4o")`, `anthropic(...)`, `google(...)`,
 * Bedrock, Mistral, ...) as a planloop model, streaming where the provider streams.
 *
 * @example
 * import { anthropic } from "@ai-sdk/anthropic";
 * const model = fromAISDK(anthropic("claude-sonnet-4-0"));
 */
export function fromAISDK(
  languageModel: AISDKLanguageModel,
  options: {
    prices?: PriceTable;
    callOptions?: Record<string, unknown>;
    /** A stream that ends with no finish part is asked again this many times (2). */
    maxRetries?: number;
  } = {},
): ModelAdapter & { readonly modelId: string } {
  if (typeof languageModel?.doGenerate !== "function") {
    throw new InvalidOptionsError("fromAISDK needs an AI SDK language model (an object with doGenerate), e.g. openai('gpt-4o')");
  }
  const prices = resolvePrices(options.prices);
  const callOptions = (request: ModelRequest) => ({
    ...options.callOptions,
    prompt: toPrompt(request.messages),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: "function",
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
          })),
        }
      : {}),
    ...(request.responseFormat
      ? { responseFormat: { type: "json", schema: request.responseFormat.schema, name: request.responseFormat.name } }
      : {}),
    abortSignal: request.signal,
  });
  const priced = (usage: AISDKUsage | undefined): Usage =>
    withCost({ inputTokens: count(usage?.inputTokens), outputTokens: count(usage?.outputTokens) }, languageModel.modelId, prices);

  const maxOutputTokens = tokenCap(options.callOptions?.maxOutputTokens);
  const maxRetries = options.maxRetries ?? 2;
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new InvalidOptionsError("maxRetries must be a whole number, 0 or more");
  const adapter: ModelAdapter & { readonly modelId: string } = {
    modelId: languageModel.modelId,
    // With `callOptions.maxOutputTokens`, a call's worst case is held against the run's budget.
    maxCallCost: (request) => callCostCeiling(request, { modelId: languageModel.modelId, prices, maxOutputTokens }),
    ...(languageModel.provider === undefined ? {} : { provider: providerName(languageModel.provider) }),
    // A provider's model is called over the network: its calls are CLIENT spans.
    server: {},
    async generate(request) {
      // Someone watches the answer being written: stream it, and tell each piece.
      if (request.onDelta && typeof languageModel.doStream === "function") return retriedStream(request, request.onDelta);
      const result = await languageModel.doGenerate(callOptions(request));
      checkAnswerEnd(result.finishReason, { streamed: false, sawEnd: true });
      const info = responseInfo(result.response?.id, result.response?.modelId, result.finishReason);
      return { ...toDecision(result.content), usage: priced(result.usage), ...(info ? { response: info } : {}) };
    },
  };
  /** A stream cut short (no finish part, no tool run on it) is asked again, like openAICompatible's. */
  async function retriedStream(request: ModelRequest, onDelta: (delta: ModelDelta) => void): Promise<ModelDecision> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await streamedDecision(request, onDelta);
      } catch (error) {
        if (!isCutShort(error) || attempt >= maxRetries || request.signal.aborted) throw error;
      }
    }
  }
  /** A whole decision read from the provider's stream, its pieces told as they come. */
  async function streamedDecision(request: ModelRequest, onDelta: (delta: ModelDelta) => void): Promise<ModelDecision> {
    const { stream } = await languageModel.doStream!(callOptions(request));
    const reader = stream.getReader();
    const content: AISDKContent[] = [];
    const inputs = new Map<string, { index: number; name: string }>();
    let usage: AISDKUsage | undefined;
    let finished: { reason: AISDKFinishReason } | undefined;
    let metadata: { id?: string | undefined; modelId?: string | undefined } = {};
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const piece = value.delta ?? value.textDelta ?? "";
        if (value.type === "text-delta" || value.type === "reasoning-delta") {
          content.push({ type: value.type === "text-delta" ? "text" : "reasoning", text: piece });
          onDelta(value.type === "text-delta" ? { text: piece } : { reasoning: piece });
        } else if (value.type === "tool-input-start" && value.id !== undefined) {
          inputs.set(value.id, { index: inputs.size, name: value.toolName ?? "" });
          onDelta({ toolCall: { index: inputs.size - 1, id: value.id, name: value.toolName ?? "", arguments: "" } });
        } else if (value.type === "tool-input-delta" && value.id !== undefined) {
          const input = inputs.get(value.id);
          if (input) onDelta({ toolCall: { index: input.index, id: value.id, name: input.name, arguments: piece } });
        } else if (value.type === "tool-call") content.push(value);
        else if (value.type === "finish") {
          usage = value.usage;
          finished = { reason: value.finishReason };
        } else if (value.type === "response-metadata") metadata = value;
        else if (value.type === "error") throw (value as { error?: unknown }).error ?? new Error("the provider's stream failed");
      }
    } finally {
      reader.releaseLock();
    }
    checkStreamEnd(finished);
    const info = responseInfo(metadata.id, metadata.modelId, finished?.reason);
    return { ...toDecision(content), usage: priced(usage), ...(info ? { response: info } : {}) };
  }
  const doStream = languageModel.doStream;
  if (typeof doStream === "function") {
    adapter.streamText = async function* (request: ModelRequest): AsyncGenerator<TextStreamPart> {
      const { stream } = await doStream.call(languageModel, callOptions(request));
      const reader = stream.getReader();
      let finished: { reason: AISDKFinishReason } | undefined;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return checkStreamEnd(finished);
          if (value.type === "text-delta") yield { type: "text", text: value.delta ?? value.textDelta ?? "" };
          else if (value.type === "finish") {
            finished = { reason: value.finishReason };
            yield { type: "usage", usage: priced(value.usage) };
          } else if (value.type === "error") throw (value as { error?: unknown }).error ?? new Error("the provider's stream failed");
        }
      } finally {
        reader.releaseLock();
      }
    };
  }
  return adapter;
}

/** The answer's id, model and the provider's own finish reason, those it gave. */
function responseInfo(id: string | undefined, modelId: string | undefined, reason: AISDKFinishReason): ModelResponseInfo | undefined {
  const raw = typeof reason === "object" && reason !== null ? (reason.raw ?? reason.unified) : reason;
  const info: ModelResponseInfo = {
    ...(typeof id === "string" ? { id } : {}),
    ...(typeof modelId === "string" ? { model: modelId } : {}),
    ...(typeof raw === "string" ? { finishReason: raw } : {}),
  };
  return Object.keys(info).length === 0 ? undefined : info;
}

/**
 * The AI SDK's provider ids ("openai.chat", "anthropic.messages", "google.generative-ai") as
 * the GenAI conventions' provider names ("openai", "anthropic", "gcp.gemini"); others as given.
 */
function providerName(provider: string): string {
  const family = provider.split(".")[0]!;
  const known: Record<string, string> = {
    openai: "openai",
    anthropic: "anthropic",
    google: "gcp.gemini",
    vertex: "gcp.vertex_ai",
    azure: "azure.ai.openai",
    "amazon-bedrock": "aws.bedrock",
    bedrock: "aws.bedrock",
    mistral: "mistral_ai",
    groq: "groq",
    deepseek: "deepseek",
    xai: "x_ai",
    cohere: "cohere",
    perplexity: "perplexity",
  };
  return known[family] ?? provider;
}

/** A stream with no finish part was cut short; one with a finish part ended as its reason says. */
function checkStreamEnd(finished: { reason: AISDKFinishReason } | undefined): void {
  // A finish part with no reason at all (older providers) still ends the stream.
  checkAnswerEnd(finished === undefined ? undefined : (finished.reason ?? "stop"), { streamed: true, sawEnd: finished !== undefined });
}

/** planloop's history in the provider format; consecutive tool results share one tool message. */
function toPrompt(messages: readonly Message[]): unknown[] {
  const prompt: Array<{ role: string; content: unknown }> = [];
  for (const message of messages) {
    if (message.role === "system") prompt.push({ role: "system", content: message.content });
    else if (message.role === "user") prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
    else if (message.role === "assistant") {
      const parts: unknown[] = message.content ? [{ type: "text", text: message.content }] : [];
      for (const call of message.toolCalls ?? [])
        parts.push({ type: "tool-call", toolCallId: String(call.id), toolName: call.name, input: call.arguments ?? {} });
      prompt.push({ role: "assistant", content: parts });
    } else {
      const output = message.error
        ? { type: "error-text", value: String(message.content) }
        : typeof message.content === "string"
          ? { type: "text", value: message.content }
          : { type: "json", value: message.content ?? null };
      const part = { type: "tool-result", toolCallId: String(message.toolCallId), toolName: message.name, output };
      const last = prompt.at(-1);
      if (last?.role === "tool") (last.content as unknown[]).push(part);
      else prompt.push({ role: "tool", content: [part] });
    }
  }
  return prompt;
}

function toDecision(content: readonly AISDKContent[]): ModelDecision {
  const text = content
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
  const reasoningText = content
    .filter((part) => part.type === "reasoning")
    .map((part) => part.text ?? "")
    .join("");
  const reasoning = reasoningText === "" ? {} : { reasoning: reasoningText };
  const calls: ToolCall[] = content
    .filter((part) => part.type === "tool-call")
    .map((part, index) => withArguments({ id: part.toolCallId ?? `call_${index}`, name: part.toolName ?? "" }, part.input));
  if (calls.length > 0) return { type: "tool_calls", calls, ...(text ? { content: text } : {}), ...reasoning };
  return { type: "final", content: text, ...reasoning };
}

/** V2 reports a number, V3 `{ total }`. */
function count(value: AISDKTokens): number {
  const total = typeof value === "number" ? value : value?.total;
  return typeof total === "number" && Number.isFinite(total) ? total : 0;
}

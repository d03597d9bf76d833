import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { ModelAdapter, ModelDecision, ModelRequest, ModelResponseInfo, ResponseFormat, TextStreamPart } from "../core/model.js";
import type { Usage } from "../core/usage.js";
import { checkAnswerEnd, isCutShort } from "./answer-end.js";
import { ChatStreamAssembler, type StreamChunk } from "./chat-stream.js";
import { decisionFromChoice, toChatMessages, toChatTools } from "./chat-wire-format.js";
import { ModelHttpError, postWithRetries } from "./http-request.js";
import type { ProviderLimit } from "../limits/provider-limit.js";
import { resolvePrices, withCost, type PriceTable } from "./prices.js";
import { readBody, readEvents } from "./server-sent-events.js";
import { estimatePromptTokens, estimateTextTokens } from "./token-estimate.js";
import { callCostCeiling, tokenCap } from "./call-cost.js";

export interface OpenAICompatibleOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or Ollama's `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  apiKey?: string;
  model: string;
  headers?: Record<string, string>;
  /** Per request attempt; default 60 s. */
  timeoutMs?: number;
  /** Retries after 429, 5xx, a dropped connection or a timeout; default 2. */
  maxRetries?: number;
  /** First backoff delay; default 500 ms, doubling, with jitter. */
  retryDelayMs?: number;
  /**
   * Stream every answer (tool calls are put back together from their chunks); default true.
   * A server that answers a streaming request with a whole JSON answer is read as such.
   */
  stream?: boolean;
  /** Prices to add to or override the built-in table, for `usage.costUsd`. */
  prices?: PriceTable;
  /** Extra fields for every request body (temperature, seed, ...). */
  body?: Record<string, unknown>;
  /**
   * The most tokens an answer may have (sent as `max_tokens`). With it, each call's worst case
   * (prompt plus this, priced) is held against a run's budget while the call runs, so parallel
   * steps cannot together spend past `maxCostUsd` or `maxTokens`. A `max_tokens` or
   * `max_completion_tokens` in `body` counts as the same.
   */
  maxOutputTokens?: number;
  /** Largest answer accepted, streamed or not; default 10 MB. A larger one is an error. */
  maxResponseBytes?: number;
  /**
   * Send `response_format: { type: "json_schema" }` when a caller asks for JSON of a schema
   * (a planner's plan); default true. A server that refuses it is asked again without it,
   * and not asked with it again.
   */
  structuredOutput?: boolean;
  fetch?: typeof fetch;
  /**
   * The provider's limit, shared by every call that names it (`providerLimit`): requests per
   * minute, requests at once, and one cooldown for all when the provider answers 429 with a time.
   */
  limit?: ProviderLimit | undefined;
}

/**
 * A model speaking the Chat Completions format: OpenAI, and everything that copies its API
 * (Ollama, vLLM, llama.cpp's server, LM Studio, DeepSeek, OpenRouter). Use it wherever
 * planloop takes a model; it streams text for the LLMCompiler planner.
 *
 * @example
 * const model = openAICompatible({ baseURL: "https://api.openai.com/v1", apiKey: process.env.OPENAI_API_KEY, model: "gpt-4o-mini" });
 * const local = openAICompatible({ baseURL: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b" });
 */
export function openAICompatible(options: OpenAICompatibleOptions): ModelAdapter & { readonly modelId: string } {
  const settings = readOptions(options);
  let structured = options.structuredOutput !== false;
  const limit = options.limit;
  /** A call's worst case in tokens, held on a limit that counts tokens until its usage is known. */
  const tokensHeld = (request: ModelRequest): number | undefined =>
    limit?.countsTokens === true ? estimatePromptTokens(request.messages, request.tools) + (settings.maxOutputTokens ?? 0) : undefined;
  const send = (request: ModelRequest, stream: boolean, format: ResponseFormat | undefined) =>
    postWithRetries({
      limit,
      tokens: tokensHeld(request),
      tenant: request.tenant,
      onLimitWait: request.onLimitWait,
      onSendState: request.onSendState,
      url: settings.url,
      body: {
        ...(settings.maxOutputTokens === undefined || settings.capInBody ? {} : { max_tokens: settings.maxOutputTokens }),
        ...options.body,
        model: options.model,
        messages: toChatMessages(request.messages),
        ...(request.tools.length > 0 ? { tools: toChatTools(request.tools) } : {}),
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
        ...(format
          ? { response_format: { type: "json_schema", json_schema: { name: format.name, schema: format.schema, strict: false } } }
          : {}),
      },
      headers: settings.headers,
      fetch: settings.fetch,
      timeoutMs: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      retryDelayMs: settings.retryDelayMs,
      signal: request.signal,
      model: options.model,
    });
  /** A request with its response format where the server takes one; one that refuses it is asked again without. */
  const post = async (request: ModelRequest, stream: boolean) => {
    const format = structured ? request.responseFormat : undefined;
    try {
      return await send(request, stream, format);
    } catch (error) {
      const refused = error instanceof ModelHttpError && error.status === 400 && /response_format|json_schema|structured/i.test(error.body);
      if (format === undefined || !refused) throw error;
      structured = false;
      return send(request, stream, undefined);
    }
  };

  const usageOf = (request: ModelRequest, reported: StreamChunk["usage"], answer: string): Usage => {
    const usage: Usage =
      reported && typeof reported.prompt_tokens === "number"
        ? {
            inputTokens: reported.prompt_tokens,
            outputTokens: typeof reported.completion_tokens === "number" ? reported.completion_tokens : 0,
          }
        : { inputTokens: estimatePromptTokens(request.messages, request.tools), outputTokens: estimateTextTokens(answer), estimated: true };
    const held = tokensHeld(request);
    // The limit's line gets back what the call held and did not use (or is told it used more).
    if (held !== undefined) void limit?.settleTokens(held, usage.inputTokens + usage.outputTokens).catch(() => {});
    return withCost(usage, options.model, settings.prices);
  };

  /** One streamed answer, used only if the stream finished as it should. */
  async function streamedDecision(request: ModelRequest): Promise<ModelDecision> {
    const reading = await openStream(request);
    if ("whole" in reading) return reading.whole;
    const assembler = new ChatStreamAssembler(request.onDelta);
    for await (const chunk of readEvents(reading.body, reading)) assembler.add(chunk as StreamChunk);
    assembler.checkComplete(reading.sawDone);
    const decision = assembler.decision();
    const response = responseInfo({ id: assembler.responseId, model: assembler.responseModel, finishReason: assembler.finishReason });
    return { ...decision, usage: usageOf(request, assembler.usage, answerText(decision)), ...(response ? { response } : {}) };
  }

  /** The stream of an answer; or, from a server that does not stream, the whole answer it sent instead. */
  async function openStream(request: ModelRequest) {
    const response = await post(request, true);
    if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
      return { whole: await wholeDecision(request, response) };
    }
    return { body: response.body!, signal: request.signal, maxBytes: settings.maxResponseBytes, sawDone: false };
  }

  async function wholeDecision(request: ModelRequest, response: Response): Promise<ModelDecision> {
    const json = readJson(await readBody(response, settings.maxResponseBytes), settings.url) as {
      id?: unknown;
      model?: unknown;
      choices?: unknown;
      usage?: StreamChunk["usage"];
    } | null;
    const choice: unknown = isRecord(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
    if (!isRecord(json) || !isRecord(choice))
      throw new ModelHttpError(`the server at ${settings.url} answered without choices`, { body: JSON.stringify(json) });
    checkAnswerEnd(choice.finish_reason, { streamed: false, sawEnd: true });
    const decision = decisionFromChoice(isRecord(choice.message) ? choice.message : undefined);
    const info = responseInfo({ id: json.id, model: json.model, finishReason: choice.finish_reason });
    return { ...decision, usage: usageOf(request, json.usage, answerText(decision)), ...(info ? { response: info } : {}) };
  }

  async function generate(request: ModelRequest): Promise<ModelDecision> {
    if (settings.stream) {
      // A stream cut short is asked again (no tool has run on it); a token limit is not.
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await streamedDecision(request);
        } catch (error) {
          if (!isCutShort(error) || attempt >= settings.maxRetries || request.signal.aborted) throw error;
        }
      }
    }
    return wholeDecision(request, await post(request, false));
  }

  async function* streamText(request: ModelRequest): AsyncGenerator<TextStreamPart> {
    // The caller announces the text it is given; the assembler tells only what it yields.
    const assembler = new ChatStreamAssembler();
    const reading = await openStream(request);
    if ("whole" in reading) {
      const { whole } = reading;
      if (whole.type === "final" && whole.content) yield { type: "text", text: whole.content };
      if (whole.usage) yield { type: "usage", usage: whole.usage };
      return;
    }
    let text = "";
    for await (const chunk of readEvents(reading.body, reading)) {
      const delta = assembler.add(chunk as StreamChunk);
      text += delta;
      if (delta) yield { type: "text", text: delta };
    }
    assembler.checkComplete(reading.sawDone);
    yield { type: "usage", usage: usageOf(request, assembler.usage, text) };
  }

  const maxCallCost = (request: ModelRequest) =>
    callCostCeiling(request, { modelId: options.model, prices: settings.prices, maxOutputTokens: settings.maxOutputTokens });
  return { modelId: options.model, provider: providerOf(settings.url), server: serverOf(settings.url), generate, streamText, maxCallCost };
}

/** Where the server is, for traces (`server.address`, `server.port`: the scheme's port when the URL names none). */
function serverOf(url: string): { address: string; port: number } {
  const parsed = new URL(url);
  return { address: parsed.hostname, port: parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port) };
}

/** The answer's id, model and finish reason, those the server sent. */
function responseInfo(sent: { id: unknown; model: unknown; finishReason: unknown }): ModelResponseInfo | undefined {
  const info: ModelResponseInfo = {
    ...(typeof sent.id === "string" ? { id: sent.id } : {}),
    ...(typeof sent.model === "string" ? { model: sent.model } : {}),
    ...(typeof sent.finishReason === "string" ? { finishReason: sent.finishReason } : {}),
  };
  return Object.keys(info).length === 0 ? undefined : info;
}

function readOptions(options: OpenAICompatibleOptions) {
  if (typeof options?.baseURL !== "string" || !/^https?:\/\//.test(options.baseURL)) {
    throw new InvalidOptionsError("baseURL must be an http(s) URL, e.g. https://api.openai.com/v1");
  }
  if (typeof options.model !== "string" || options.model === "")
    throw new InvalidOptionsError("model must name the model, e.g. gpt-4o-mini");
  if (options.maxOutputTokens !== undefined && tokenCap(options.maxOutputTokens) === undefined)
    throw new InvalidOptionsError("maxOutputTokens must be a positive integer");
  const capInBody = tokenCap(options.body?.max_tokens) ?? tokenCap(options.body?.max_completion_tokens);
  const maxBytes = options.maxResponseBytes;
  if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && maxBytes > 0))
    throw new InvalidOptionsError("maxResponseBytes must be a positive integer");
  return {
    url: `${options.baseURL.replace(/\/+$/, "")}/chat/completions`,
    headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    stream: options.stream ?? true,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    prices: resolvePrices(options.prices),
    maxOutputTokens: capInBody ?? options.maxOutputTokens,
    capInBody: capInBody !== undefined,
  };
}

function answerText(decision: ModelDecision): string {
  return decision.type === "final" ? decision.content : `${decision.content ?? ""}${JSON.stringify(decision.calls)}`;
}

function readJson(text: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelHttpError(`the server at ${url} answered with a body that is not JSON: ${text.slice(0, 300)}`, {
      body: text,
      cause: error,
    });
  }
}

/** The provider a base URL names, for traces: the API host's known name, else "openai-compatible". */
function providerOf(url: string): string {
  const host = new URL(url).hostname;
  const known: Array<[RegExp, string]> = [
    [/(^|\.)openai\.com$/, "openai"],
    [/(^|\.)openai\.azure\.com$/, "azure.ai.openai"],
    [/(^|\.)deepseek\.com$/, "deepseek"],
    [/(^|\.)groq\.com$/, "groq"],
    [/(^|\.)mistral\.ai$/, "mistral_ai"],
    [/(^|\.)x\.ai$/, "x_ai"],
  ];
  return known.find(([pattern]) => pattern.test(host))?.[1] ?? "openai-compatible";
}

import type { ModelDecision, ModelDelta } from "../core/model.js";
import { isRecord } from "../core/is-record.js";
import { fromChatToolCalls } from "./chat-wire-format.js";
import { ModelHttpError } from "./http-request.js";
import { checkAnswerEnd } from "./answer-end.js";

interface ChunkDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

export interface StreamChunk {
  id?: unknown;
  model?: unknown;
  choices?: Array<{ delta?: ChunkDelta; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: unknown;
}

interface CallParts {
  id?: string;
  name: string;
  arguments: string;
  /** Fields other than index, id, type and function: sent back with the call. */
  extra: Record<string, unknown>;
}

/** The keys of a streamed tool-call part that are the call itself; any other is the provider's. */
const callKeys = new Set(["index", "id", "type", "function"]);

/**
 * Puts a streamed answer back together: text deltas in order, reasoning deltas apart from
 * them, and each tool call's name and argument fragments, however the server split them: by
 * `index`; by `id` when a server sends no index (a part with no id continues the last call);
 * a name sent again whole in later chunks is not doubled.
 */
export class ChatStreamAssembler {
  private text = "";
  private reasoning = "";
  private readonly calls: CallParts[] = [];
  private readonly byIndex = new Map<number, CallParts>();
  usage: StreamChunk["usage"] = undefined;
  /** The last `finish_reason` the server sent: how the answer ended. */
  finishReason: string | undefined = undefined;
  /** The answer's `id` and `model`, as the chunks carry them. */
  responseId: string | undefined = undefined;
  responseModel: string | undefined = undefined;

  /** `onDelta`: told each piece as it arrives (text, reasoning, a tool call's fragment). */
  constructor(private readonly onDelta?: ((delta: ModelDelta) => void) | undefined) {}

  /** Takes one chunk; returns its text delta, if any. Parts of the wrong kind are passed over. An error event throws. */
  add(chunk: StreamChunk): string {
    if (!isRecord(chunk)) return "";
    if (chunk.error !== undefined && chunk.error !== null) {
      const message = isRecord(chunk.error) && typeof chunk.error.message === "string" ? chunk.error.message : JSON.stringify(chunk.error);
      throw new ModelHttpError(`the server's stream reported an error: ${message}`, { body: JSON.stringify(chunk) });
    }
    if (isRecord(chunk.usage)) this.usage = chunk.usage;
    if (typeof chunk.id === "string") this.responseId = chunk.id;
    if (typeof chunk.model === "string") this.responseModel = chunk.model;
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (isRecord(choice) && typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
    const delta: unknown = isRecord(choice) ? choice.delta : undefined;
    if (!isRecord(delta)) return "";
    const parts: unknown = delta.tool_calls;
    for (const part of Array.isArray(parts) ? parts : []) if (isRecord(part)) this.addCallPart(part);
    for (const key of ["reasoning_content", "reasoning"] as const) {
      if (typeof delta[key] !== "string" || delta[key] === "") continue;
      this.reasoning += delta[key];
      this.onDelta?.({ reasoning: delta[key] });
    }
    const text = typeof delta.content === "string" ? delta.content : "";
    this.text += text;
    if (text) this.onDelta?.({ text });
    return text;
  }

  private addCallPart(part: Record<string, unknown>): void {
    const call = this.callFor(part);
    if (typeof part.id === "string" && part.id) call.id = part.id;
    const fn = isRecord(part.function) ? part.function : {};
    // Some servers send the whole name again in every chunk: a name that repeats (or extends)
    // what is there replaces it; a fragment that does not is appended.
    if (typeof fn.name === "string" && fn.name) call.name = fn.name.startsWith(call.name) ? fn.name : call.name + fn.name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
    for (const [key, value] of Object.entries(part)) if (!callKeys.has(key) && value !== undefined) call.extra[key] = value;
    if (this.onDelta) {
      const index = this.calls.indexOf(call);
      this.onDelta({
        toolCall: {
          index,
          ...(call.id ? { id: call.id } : {}),
          ...(call.name ? { name: call.name } : {}),
          arguments: typeof fn.arguments === "string" ? fn.arguments : "",
        },
      });
    }
  }

  private callFor(part: Record<string, unknown>): CallParts {
    const start = (): CallParts => {
      const call: CallParts = { name: "", arguments: "", extra: {} };
      this.calls.push(call);
      return call;
    };
    if (Number.isInteger(part.index)) {
      const index = part.index as number;
      const known = this.byIndex.get(index);
      if (known) return known;
      const call = start();
      this.byIndex.set(index, call);
      return call;
    }
    const id = typeof part.id === "string" && part.id ? part.id : undefined;
    if (id === undefined) return this.calls.at(-1) ?? start();
    return this.calls.find((call) => call.id === id) ?? start();
  }

  /** The reasoning text, when the server sent any. */
  reasoningText(): string | undefined {
    return this.reasoning === "" ? undefined : this.reasoning;
  }

  /** Throws unless the answer is whole: see `answerEnd`. */
  checkComplete(sawDone: boolean): void {
    checkAnswerEnd(this.finishReason, { streamed: true, sawEnd: sawDone });
  }

  decision(): ModelDecision {
    const reasoning = this.reasoningText();
    const withReasoning = reasoning === undefined ? {} : { reasoning };
    if (this.calls.length === 0) return { type: "final", content: this.text, ...withReasoning };
    const indexOf = new Map([...this.byIndex].map(([index, call]) => [call, index]));
    // By index where the server gave one; calls without an index keep their order of arrival.
    const ordered = [...this.calls].sort((a, b) => (indexOf.get(a) ?? Infinity) - (indexOf.get(b) ?? Infinity));
    const calls = fromChatToolCalls(
      ordered.map((call) => ({
        ...call.extra,
        ...(call.id ? { id: call.id } : {}),
        function: { name: call.name, arguments: call.arguments },
      })),
    );
    return { type: "tool_calls", calls, ...(this.text ? { content: this.text } : {}), ...withReasoning };
  }
}

import type { ModelDecision } from "../core/model.js";
import { isRecord } from "../core/is-record.js";
import { fromChatToolCalls } from "./chat-wire-format.js";
import { ModelHttpError } from "./http-request.js";

interface ChunkDelta {
  content?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

export interface StreamChunk {
  choices?: Array<{ delta?: ChunkDelta; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: unknown;
}

/**
 * Puts a streamed answer back together: text deltas in order, and each tool call's name
 * and argument fragments by their `index`, however the server split them.
 */
export class ChatStreamAssembler {
  private text = "";
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();
  usage: StreamChunk["usage"] = undefined;
  /** The last `finish_reason` the server sent: how the answer ended. */
  finishReason: string | undefined = undefined;

  /** Takes one chunk; returns its text delta, if any. Parts of the wrong kind are passed over. An error event throws. */
  add(chunk: StreamChunk): string {
    if (!isRecord(chunk)) return "";
    if (chunk.error !== undefined && chunk.error !== null) {
      const message = isRecord(chunk.error) && typeof chunk.error.message === "string" ? chunk.error.message : JSON.stringify(chunk.error);
      throw new ModelHttpError(`the server's stream reported an error: ${message}`, { body: JSON.stringify(chunk) });
    }
    if (isRecord(chunk.usage)) this.usage = chunk.usage;
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (isRecord(choice) && typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
    const delta: unknown = isRecord(choice) ? choice.delta : undefined;
    if (!isRecord(delta)) return "";
    const parts: unknown = delta.tool_calls;
    for (const part of Array.isArray(parts) ? parts : []) {
      if (!isRecord(part)) continue;
      const index = Number.isInteger(part.index) ? (part.index as number) : this.calls.size;
      const call = this.calls.get(index) ?? { name: "", arguments: "" };
      if (typeof part.id === "string" && part.id) call.id = part.id;
      const fn = isRecord(part.function) ? part.function : {};
      if (typeof fn.name === "string") call.name += fn.name;
      if (typeof fn.arguments === "string") call.arguments += fn.arguments;
      this.calls.set(index, call);
    }
    const text = typeof delta.content === "string" ? delta.content : "";
    this.text += text;
    return text;
  }

  /**
   * Throws unless the answer is whole: the server gave a reason it finished (other than the
   * token limit or a content filter), or at least sent `[DONE]`.
   */
  checkComplete(sawDone: boolean): void {
    const reason = this.finishReason;
    if (reason === "length") throw new ModelHttpError("the answer was cut off at the token limit (finish_reason: length)", {});
    if (reason === "content_filter") throw new ModelHttpError("the answer was cut off by the server's content filter", {});
    if (reason === undefined && !sawDone) {
      throw new ModelHttpError("the stream ended before the answer was complete (no finish_reason, no [DONE])", {});
    }
  }

  decision(): ModelDecision {
    if (this.calls.size === 0) return { type: "final", content: this.text };
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    const calls = fromChatToolCalls(
      ordered.map((call) => ({ ...(call.id ? { id: call.id } : {}), function: { name: call.name, arguments: call.arguments } })),
    );
    return { type: "tool_calls", calls, ...(this.text ? { content: this.text } : {}) };
  }
}

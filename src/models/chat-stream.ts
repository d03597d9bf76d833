import type { ModelDecision } from "../core/model.js";
import { fromChatToolCalls } from "./chat-wire-format.js";

interface ChunkDelta {
  content?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

export interface StreamChunk {
  choices?: Array<{ delta?: ChunkDelta }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/**
 * Puts a streamed answer back together: text deltas in order, and each tool call's name
 * and argument fragments by their `index`, however the server split them.
 */
export class ChatStreamAssembler {
  private text = "";
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();
  usage: StreamChunk["usage"] = undefined;

  /** Takes one chunk; returns its text delta, if any. */
  add(chunk: StreamChunk): string {
    if (chunk.usage) this.usage = chunk.usage;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return "";
    for (const part of delta.tool_calls ?? []) {
      const index = part.index ?? this.calls.size;
      const call = this.calls.get(index) ?? { name: "", arguments: "" };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
      this.calls.set(index, call);
    }
    const text = delta.content ?? "";
    this.text += text;
    return text;
  }

  decision(): ModelDecision {
    if (this.calls.size === 0) return { type: "final", content: this.text };
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    const calls = fromChatToolCalls(ordered.map((call) => ({ ...(call.id ? { id: call.id } : {}), function: { name: call.name, arguments: call.arguments } })));
    return { type: "tool_calls", calls, ...(this.text ? { content: this.text } : {}) };
  }
}

import type { ModelDecision } from "../core/model.js";
import { isRecord } from "../core/is-record.js";
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

  /** Takes one chunk; returns its text delta, if any. Parts of the wrong kind are passed over. */
  add(chunk: StreamChunk): string {
    if (!isRecord(chunk)) return "";
    if (isRecord(chunk.usage)) this.usage = chunk.usage;
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
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

  decision(): ModelDecision {
    if (this.calls.size === 0) return { type: "final", content: this.text };
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    const calls = fromChatToolCalls(
      ordered.map((call) => ({ ...(call.id ? { id: call.id } : {}), function: { name: call.name, arguments: call.arguments } })),
    );
    return { type: "tool_calls", calls, ...(this.text ? { content: this.text } : {}) };
  }
}

import type { Message, ToolCall } from "../core/messages.js";
import type { ModelDecision, ToolSpec } from "../core/model.js";
import { isRecord } from "../core/is-record.js";
import { withArguments } from "./tool-call-arguments.js";

/** A message as the Chat Completions API takes it. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  [providerField: string]: unknown;
}

/** planloop's history in the wire format: tool calls by id, tool results as text. */
export function toChatMessages(messages: readonly Message[]): ChatMessage[] {
  return messages.map((message): ChatMessage => {
    switch (message.role) {
      case "assistant":
        return {
          role: "assistant",
          content: message.content ?? null,
          ...(message.toolCalls?.length
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  // A provider's own fields (a thought signature) go back as they came.
                  ...call.providerFields,
                  id: String(call.id),
                  type: "function" as const,
                  function: { name: call.name, arguments: call.invalidArguments ?? JSON.stringify(call.arguments ?? {}) },
                })),
              }
            : {}),
        };
      case "tool":
        return { role: "tool", tool_call_id: String(message.toolCallId), content: asText(message.content) };
      default:
        return { role: message.role, content: message.content };
    }
  });
}

/** Tools as function definitions; the JSON Schema's `$schema` key is left out (some servers refuse it). */
export function toChatTools(
  tools: readonly ToolSpec[],
): Array<{ type: "function"; function: { name: string; description: string; parameters: unknown } }> {
  return tools.map((tool) => {
    const { $schema: _schema, ...parameters } = tool.inputSchema;
    return { type: "function", function: { name: tool.name, description: tool.description, parameters } };
  });
}

/**
 * Tool calls as planloop reads them; arguments that are not JSON are kept raw and flagged.
 * A malformed entry (not an object, no name) becomes a call without a name, which the
 * guard answers with the list of tools, rather than an exception.
 */
export function fromChatToolCalls(calls: readonly unknown[]): ToolCall[] {
  return calls.map((entry, index) => {
    const call = isRecord(entry) ? (entry as { id?: unknown; function?: unknown }) : {};
    const id = typeof call.id === "string" || typeof call.id === "number" ? call.id : `call_${index}`;
    const fn = isRecord(call.function) ? (call.function as { name?: unknown; arguments?: unknown }) : {};
    const read = withArguments({ id, name: typeof fn.name === "string" ? fn.name : "" }, fn.arguments ?? "");
    const extra = Object.fromEntries(Object.entries(call).filter(([key]) => !["id", "type", "function", "index"].includes(key)));
    return Object.keys(extra).length === 0 ? read : { ...read, providerFields: extra };
  });
}

/** A non-streamed response's first choice as a decision (usage is added by the caller). */
export function decisionFromChoice(
  message: { content?: unknown; tool_calls?: unknown; reasoning_content?: unknown; reasoning?: unknown } | undefined,
): ModelDecision {
  const content = textOf(message?.content);
  const reasoningText = [message?.reasoning_content, message?.reasoning].find((value) => typeof value === "string" && value !== "");
  const reasoning = reasoningText === undefined ? {} : { reasoning: reasoningText as string };
  const calls = message?.tool_calls;
  if (Array.isArray(calls) && calls.length > 0) {
    return { type: "tool_calls", calls: fromChatToolCalls(calls), ...(content ? { content } : {}), ...reasoning };
  }
  return { type: "final", content, ...reasoning };
}

/** Message content as text: a string, the text parts of a list of parts, or nothing. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === undefined || content === null) return "";
  if (Array.isArray(content)) return content.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join("");
  return asText(content);
}

function asText(content: unknown): string {
  return typeof content === "string" ? content : (JSON.stringify(content) ?? String(content));
}

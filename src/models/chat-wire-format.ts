import type { Message, ToolCall } from "../core/messages.js";
import type { ModelDecision, ToolSpec } from "../core/model.js";
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
export function toChatTools(tools: readonly ToolSpec[]): Array<{ type: "function"; function: { name: string; description: string; parameters: unknown } }> {
  return tools.map((tool) => {
    const { $schema: _schema, ...parameters } = tool.inputSchema;
    return { type: "function", function: { name: tool.name, description: tool.description, parameters } };
  });
}

/** Tool calls as planloop reads them; arguments that are not JSON are kept raw and flagged. */
export function fromChatToolCalls(calls: ReadonlyArray<{ id?: string; function?: { name?: string; arguments?: string } }>): ToolCall[] {
  return calls.map((call, index) => withArguments({ id: call.id ?? `call_${index}`, name: call.function?.name ?? "" }, call.function?.arguments ?? ""));
}

/** A non-streamed response's first choice as a decision (usage is added by the caller). */
export function decisionFromChoice(message: { content?: string | null; tool_calls?: unknown[] } | undefined): ModelDecision {
  const calls = (message?.tool_calls ?? []) as Parameters<typeof fromChatToolCalls>[0];
  if (calls.length > 0) {
    return { type: "tool_calls", calls: fromChatToolCalls(calls), ...(message?.content ? { content: message.content } : {}) };
  }
  return { type: "final", content: message?.content ?? "" };
}

function asText(content: unknown): string {
  return typeof content === "string" ? content : (JSON.stringify(content) ?? String(content));
}

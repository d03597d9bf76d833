import { createRequire } from "node:module";
import type { Message } from "../core/messages.js";
import type { ToolSpec } from "../core/model.js";

type GptTokenizer = { countTokens(text: string): number };

/**
 * Token counts with a real tokenizer (o200k, GPT-4o's), for servers that report no usage
 * and for the offline model. Every message costs a few tokens of framing, as in the chat
 * format.
 */
export function estimatePromptTokens(messages: readonly Message[], tools: readonly ToolSpec[] = []): number {
  let total = 3;
  for (const message of messages) {
    total += 4 + countTokens(messageText(message));
  }
  for (const tool of tools) total += countTokens(`${tool.name} ${tool.description} ${JSON.stringify(tool.inputSchema)}`);
  return total;
}

export function estimateTextTokens(text: string): number {
  return countTokens(text);
}

let tokenCounter: ((text: string) => number) | undefined;

/**
 * The tokenizer's tables take about 20 MB of heap and a noticeable load time: they are loaded
 * on the first count (synchronously, from the package's CommonJS build), not when planloop is
 * imported, so programs that never estimate tokens never pay for them.
 */
function countTokens(text: string): number {
  tokenCounter ??= (createRequire(import.meta.url)("gpt-tokenizer") as GptTokenizer).countTokens;
  return tokenCounter(text);
}

function messageText(message: Message): string {
  switch (message.role) {
    case "assistant":
      return `${message.content ?? ""}${message.toolCalls ? JSON.stringify(message.toolCalls) : ""}`;
    case "tool":
      return typeof message.content === "string" ? message.content : (JSON.stringify(message.content) ?? "");
    default:
      return message.content;
  }
}

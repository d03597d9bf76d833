import type { Message } from "../core/messages.js";
import { loadOptionalPackage, MissingPackageError } from "../core/optional-package.js";
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
 * imported, so programs that never estimate tokens never pay for them. `gpt-tokenizer` is an
 * optional peer: without it, counts are estimated at four characters a token, with a warning.
 */
function countTokens(text: string): number {
  tokenCounter ??= loadTokenizer();
  return tokenCounter(text);
}

function loadTokenizer(): (text: string) => number {
  try {
    return loadOptionalPackage<GptTokenizer>({ name: "gpt-tokenizer", neededFor: "exact token counts" }).countTokens;
  } catch (error) {
    if (!(error instanceof MissingPackageError)) throw error;
    process.emitWarning(`planloop: ${error.message}; counting four characters a token until then`);
    return (text) => Math.ceil(text.length / 4);
  }
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

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
  if (text.length <= pieceChars && !hasLongRun(text)) return tokenCounter(text);
  let total = 0;
  for (const piece of piecesForCounting(text)) total += tokenCounter(piece);
  return total;
}

/** Text is counted in pieces of about this many characters, cut at white space. */
const pieceChars = 4_096;
/** Longer runs without white space are cut: BPE on one long run takes time quadratic in its length. */
const longestRun = 64;

function hasLongRun(text: string): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    run = isSpace(text.charCodeAt(index)) ? 0 : run + 1;
    if (run > longestRun) return true;
  }
  return false;
}

/**
 * Cuts text for counting so that the whole count takes time linear in its length: at white
 * space once a piece is long, and inside any run of more than `longestRun` characters
 * without white space (a cut there may count a token or two more than the whole would).
 */
export function* piecesForCounting(text: string): Generator<string> {
  let start = 0;
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    const space = isSpace(text.charCodeAt(index));
    run = space ? 0 : run + 1;
    if (run > longestRun || (space && index - start >= pieceChars)) {
      yield text.slice(start, index);
      start = index;
      run = space ? 0 : 1;
    }
  }
  if (start < text.length) yield text.slice(start);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
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

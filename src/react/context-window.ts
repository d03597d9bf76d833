import { InvalidOptionsError, shown } from "../core/errors.js";
import type { Message, ToolMessage } from "../core/messages.js";
import { toModelFunction, type Model, type ModelFunction, type ToolSpec } from "../core/model.js";

/**
 * How much of the conversation a ReAct loop sends the model (seed 001 §3: every observation
 * is appended, so a long task grows input tokens, cost and latency without bound). The
 * history itself stays whole (in the result and the state); each request gets a view of it.
 */
export interface ContextPolicy {
  /** The most input tokens a request should carry, as `countTokens` counts them. */
  maxTokens: number;
  /**
   * What becomes of older turns once the view is over `maxTokens`: left out ("recent", the
   * default), folded into a summary by a model call with purpose "summarize" ("summarize"),
   * or your function. The system prompt, the task and the newest turn are always kept, and a
   * tool call is never separated from its results.
   */
  keep?: "recent" | "summarize" | ContextTrimmer;
  /**
   * A tool output in an older turn longer than this many tokens is replaced by a preview and
   * a handle the model can read it back with (the built-in `read_observation` tool). Default:
   * an eighth of `maxTokens`.
   */
  maxObservationTokens?: number;
  /**
   * Counts the tokens of a request: its messages and the tools it offers. Default: about
   * four characters a token. `estimatePromptTokens` counts with a real tokenizer.
   */
  countTokens?: TokenCounter;
  /** With "summarize": the model that writes the summary; default the loop's model. */
  summarizer?: Model;
}

export type TokenCounter = (messages: readonly Message[], tools?: readonly ToolSpec[]) => number;

/** Your own policy: the whole history in, the messages to send out. */
export type ContextTrimmer = (
  messages: Message[],
  limits: { maxTokens: number; countTokens: TokenCounter },
) => Message[] | Promise<Message[]>;

/** The policy, checked and filled in. */
export interface ContextConfig {
  maxTokens: number;
  keep: "recent" | "summarize" | ContextTrimmer;
  maxObservationTokens: number;
  countTokens: TokenCounter;
  summarizer: ModelFunction | undefined;
}

/**
 * Where the view of the history starts, kept across steps (and in a paused state): older
 * turns up to `through` are out of the view, folded into `summary` with "summarize". The cut
 * moves only when the view is over the limit, and then well past it, so most requests share
 * their prefix with the one before (and a summary is written now and then, not every step).
 */
export interface ContextCut {
  through: number;
  summary?: string;
}

/** The name of the built-in tool that reads a replaced output back. */
export const readObservationName = "read_observation";

export function readContextPolicy(policy: ContextPolicy | undefined): ContextConfig | undefined {
  if (policy === undefined) return undefined;
  if (typeof policy !== "object" || policy === null) throw new InvalidOptionsError("context must be an object: { maxTokens, keep }");
  const { maxTokens, keep = "recent" } = policy;
  if (!Number.isInteger(maxTokens) || maxTokens < 64)
    throw new InvalidOptionsError(`context.maxTokens must be an integer >= 64, got ${shown(maxTokens)}`);
  if (keep !== "recent" && keep !== "summarize" && typeof keep !== "function")
    throw new InvalidOptionsError(`context.keep must be "recent", "summarize" or a function, got ${shown(keep)}`);
  const maxObservationTokens = policy.maxObservationTokens ?? Math.floor(maxTokens / 8);
  if (!Number.isInteger(maxObservationTokens) || maxObservationTokens < 1)
    throw new InvalidOptionsError(`context.maxObservationTokens must be a positive integer, got ${shown(maxObservationTokens)}`);
  if (policy.countTokens !== undefined && typeof policy.countTokens !== "function")
    throw new InvalidOptionsError("context.countTokens must be a function (messages) => number");
  const summarizer = policy.summarizer === undefined ? undefined : toModelFunction(policy.summarizer);
  if (policy.summarizer !== undefined && !summarizer) throw new InvalidOptionsError("context.summarizer must be a model");
  return { maxTokens, keep, maxObservationTokens, countTokens: policy.countTokens ?? approximateTokens, summarizer };
}

/** About four characters a token, plus a few tokens of framing per message. */
export function approximateTokens(messages: readonly Message[], tools: readonly ToolSpec[] = []): number {
  let chars = 0;
  for (const tool of tools) chars += tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
  for (const message of messages) {
    const content = message.content;
    chars += 16 + (typeof content === "string" ? content.length : (JSON.stringify(content)?.length ?? 0));
    if (message.role === "assistant" && message.toolCalls) chars += JSON.stringify(message.toolCalls).length;
  }
  return Math.ceil(chars / 4);
}

/** The messages every request keeps: the leading system messages and the task (the first user message). */
export function headLength(history: readonly Message[]): number {
  const task = history.findIndex((message) => message.role === "user");
  if (task >= 0) return task + 1;
  const systems = history.findIndex((message) => message.role !== "system");
  return systems < 0 ? history.length : systems;
}

/**
 * The history after the head cut into turns that are kept or left out whole: an assistant
 * message with the results of its calls, or a single message. Returns each turn's start.
 */
export function turnStarts(history: readonly Message[], from: number): number[] {
  const starts: number[] = [];
  for (let index = from; index < history.length; index += 1) {
    if (history[index]!.role !== "tool" || starts.length === 0) starts.push(index);
  }
  return starts;
}

/**
 * A tool output too long for an older turn, as the model sees it there: a preview and the
 * handle to read the whole of it back with.
 */
export function shortenedOutput(message: ToolMessage, index: number, previewChars: number): ToolMessage {
  const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  const handle = observationHandle(index);
  return {
    ...message,
    content: `${text.slice(0, previewChars)}… [${text.length} characters in all; call ${readObservationName} with {"handle":"${handle}"} to read the rest]`,
  };
}

export function observationHandle(index: number): string {
  return `obs:${index}`;
}

/** The history index a handle names, or undefined when it is not one. */
export function handleIndex(handle: unknown): number | undefined {
  if (typeof handle !== "string") return undefined;
  const match = /^obs:(\d+)$/.exec(handle);
  return match ? Number(match[1]) : undefined;
}

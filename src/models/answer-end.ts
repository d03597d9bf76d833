import { ModelHttpError } from "./http-request.js";

/**
 * How a model's answer ended, whichever adapter read it. Both adapters map their provider's
 * finish reason through here, so the same situation has the same outcome (docs/models.md):
 * - `whole`: the answer is used;
 * - `token-limit`, `content-filter`, `provider-error`: an `IncompleteAnswerError`, not retried;
 * - `cut-short`: a stream that ended with no finish reason: asked again (no tool has run on it).
 */
export type AnswerEnd = "whole" | "token-limit" | "content-filter" | "provider-error" | "cut-short";

/** An answer the model did not finish: cut at the token limit, filtered, failed or cut short. */
export class IncompleteAnswerError extends ModelHttpError {
  readonly end: Exclude<AnswerEnd, "whole">;

  constructor(end: Exclude<AnswerEnd, "whole">, reason: string | undefined) {
    super(messages[end](reason), { body: reason ?? "" });
    this.name = "IncompleteAnswerError";
    this.end = end;
  }
}

const messages: Record<Exclude<AnswerEnd, "whole">, (reason: string | undefined) => string> = {
  "token-limit": (reason) => `the answer was cut off at the token limit (finish reason: ${reason})`,
  "content-filter": (reason) => `the answer was cut off by the provider's content filter (finish reason: ${reason})`,
  "provider-error": (reason) => `the provider ended the answer with an error (finish reason: ${reason})`,
  "cut-short": () => "the stream ended before the answer was complete (no finish reason, no end of stream)",
};

/**
 * The end of an answer from its finish reason: OpenAI's `finish_reason` (`stop`, `length`,
 * `content_filter`, `tool_calls`), the AI SDK's (`stop`, `length`, `content-filter`,
 * `tool-calls`, `error`, `other`, `unknown`; V3's and V4's `{ unified, raw }`, V4's `interrupted`). With no reason, a
 * stream is whole only if it was seen to end (`[DONE]`); a whole response body always is.
 */
export function answerEnd(reason: unknown, options: { streamed: boolean; sawEnd: boolean }): AnswerEnd {
  const word = reasonWord(reason);
  if (word === undefined) return options.streamed && !options.sawEnd ? "cut-short" : "whole";
  if (word === "length" || word === "max-tokens") return "token-limit";
  if (word === "content-filter") return "content-filter";
  if (word === "error") return "provider-error";
  // The AI SDK's V4: the provider's stream ended without its completion signal.
  if (word === "interrupted") return "cut-short";
  return "whole";
}

/** Throws `IncompleteAnswerError` unless the answer ended whole. */
export function checkAnswerEnd(reason: unknown, options: { streamed: boolean; sawEnd: boolean }): void {
  const end = answerEnd(reason, options);
  if (end !== "whole") throw new IncompleteAnswerError(end, reasonWord(reason));
}

/** Whether asking again may help: only a stream cut short. */
export function isCutShort(error: unknown): boolean {
  return error instanceof IncompleteAnswerError && error.end === "cut-short";
}

function reasonWord(reason: unknown): string | undefined {
  const raw = typeof reason === "object" && reason !== null ? (reason as { unified?: unknown }).unified : reason;
  return typeof raw === "string" && raw !== "" ? raw.toLowerCase().replaceAll("_", "-") : undefined;
}

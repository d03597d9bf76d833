import type { Message, ToolCall } from "../core/messages.js";
import type { ModelPurpose, ModelResponseInfo } from "../core/model.js";
import type { Usage } from "../core/usage.js";

/**
 * One model call as a stored run keeps it (journal entry `model-call`), for the web app and
 * for evaluations: what was asked and what came back. The messages are kept as a difference:
 * those of the earlier call `base` up to `shared`, then `added`; a loop's long history is not
 * written again at each turn, so what a run keeps grows with what it says, not its square.
 */
export interface KeptModelCall {
  /** Unique within the run. */
  id: string;
  purpose: ModelPurpose;
  /** The loop's step (0 for a strategy's text calls). */
  step: number;
  /** When the call started (ms since 1970) and how long it took. */
  at: number;
  durationMs: number;
  model?: string;
  provider?: string;
  /** The name of the response format asked for (a plan's JSON schema). */
  responseFormat?: string;
  /** The names of the tools the model was offered. */
  tools?: string[];
  base?: string;
  shared?: number;
  added: Message[];
  answer?: KeptAnswer;
  /** Why the call failed, when it did (it threw, or answered with something that is not a decision). */
  error?: string;
  usage?: Usage;
  response?: ModelResponseInfo;
}

/** What the model answered: text, tool calls and reasoning, kept apart. */
export interface KeptAnswer {
  text?: string;
  toolCalls?: ToolCall[];
  reasoning?: string;
}

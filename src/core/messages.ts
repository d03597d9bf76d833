/** One tool call the model asked for. `arguments` is the parsed JSON the model wrote. */
export interface ToolCall {
  id: string | number;
  name: string;
  arguments?: unknown;
  /**
   * Set by a model adapter when the model's arguments were not valid JSON: the raw text.
   * The call is not run; the model is asked to send the arguments again.
   */
  invalidArguments?: string;
  /**
   * Fields a provider sent with the call that it needs back on the next request (e.g.
   * Gemini's `extra_content` with a thought signature): kept by the adapter, sent back as they came.
   */
  providerFields?: Record<string, unknown>;
}

export interface SystemMessage {
  role: "system";
  content: string;
}

export interface UserMessage {
  role: "user";
  content: string;
}

/** A model turn: either text (a final answer) or a round of tool calls, possibly with text. */
export interface AssistantMessage {
  role: "assistant";
  content?: string;
  toolCalls?: ToolCall[];
  /** The model's reasoning text (`reasoning_content`, `reasoning`), kept apart from the answer; not sent back. */
  reasoning?: string;
}

/** What went wrong with a tool call, as data the model reads and the caller can inspect. */
export interface ToolError {
  kind: ToolErrorKind;
  message: string;
  /**
   * False when the tool said trying again cannot help (it threw an error with `retryable: false`);
   * true when it said this failure is safe to try again (`retryable: true`: it took no effect).
   */
  retryable?: boolean;
  /**
   * The call was cut short where nobody saw its end (its job was lost with the queue's data,
   * or its worker stalled): it may have taken effect. A side-effecting call is not run again:
   * its step asks a person what became of it (a pending item of kind `interrupted`).
   */
  cutShort?: boolean;
}

export type ToolErrorKind =
  | "unknown_tool"
  | "invalid_arguments"
  | "unauthorized"
  | "denied"
  | "timeout"
  | "call_limit"
  | "execution_failed"
  | "budget_exhausted"
  | "cancelled";

/** The result of one tool call, matched to its call by `toolCallId`. */
export interface ToolMessage {
  role: "tool";
  toolCallId: string | number;
  name: string;
  content: unknown;
  error?: ToolError;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export function userMessage(content: string): UserMessage {
  return { role: "user", content };
}

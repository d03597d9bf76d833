import type { ToolCall } from "../core/messages.js";

/**
 * Sets a call's arguments from the JSON text a model wrote; text that does not parse is
 * kept as `invalidArguments`, so the loop can ask the model to send it again.
 */
export function withArguments(call: ToolCall, raw: unknown): ToolCall {
  if (typeof raw !== "string") return { ...call, arguments: raw ?? {} };
  try {
    return { ...call, arguments: raw.trim() === "" ? {} : JSON.parse(raw) };
  } catch {
    return { ...call, invalidArguments: raw };
  }
}

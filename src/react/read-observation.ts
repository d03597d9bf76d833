import { InvalidOptionsError } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import type { ToolRunner } from "../core/tools/tool-runner.js";
import { handleIndex, readObservationName } from "./context-window.js";

/** Characters one read returns at most. */
const readChars = 4_000;

/**
 * The tools with the built-in `read_observation` added: it reads back, a slice at a time, a
 * tool output that an older turn shows only as a preview (see `ContextPolicy`). Reading
 * costs no model call and counts as a tool call like any other.
 */
export function withObservationReader(runner: ToolRunner, history: () => readonly Message[]): ToolRunner {
  if (runner.specs.some((spec) => spec.name === readObservationName))
    throw new InvalidOptionsError(`a tool named ${readObservationName} clashes with the built-in one a context policy adds; rename yours`);
  const spec = {
    name: readObservationName,
    description: "Read a tool output that an earlier turn shows only in part, by the handle shown with it, from offset (characters).",
    inputSchema: {
      type: "object",
      properties: { handle: { type: "string" }, offset: { type: "integer", minimum: 0 } },
      required: ["handle"],
      additionalProperties: false,
    },
  };
  return {
    specs: [...runner.specs, spec],
    admit(call, context) {
      if (call.name !== readObservationName) return runner.admit(call, context);
      const args = (call.arguments ?? {}) as { handle?: unknown; offset?: unknown };
      const index = handleIndex(args.handle);
      const offset = args.offset ?? 0;
      const message = index === undefined ? undefined : history()[index];
      if (message?.role !== "tool" || !Number.isInteger(offset) || (offset as number) < 0) {
        const message = `${readObservationName} takes { handle: "obs:<n>" } as shown with a shortened output, and an optional offset >= 0`;
        return { kind: "reject", error: { kind: "invalid_arguments", message } };
      }
      const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
      const from = offset as number;
      const read = { handle: args.handle, offset: from, total: text.length, text: text.slice(from, from + readChars) };
      return { kind: "run", tool: { execute: () => read }, args: call.arguments };
    },
  };
}

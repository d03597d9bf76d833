import type { ToolCall } from "../messages.js";
import type { ToolSpec } from "../model.js";
import type { ToolContext } from "./define-tool.js";
import type { ToolRunner } from "./tool-runner.js";

/**
 * The seed's executor form: one `execute(call, context)` for every call, its return value
 * used as the tool message's content. It may list `tools` to show the model.
 */
export interface ToolExecutor {
  execute(call: ToolCall, context: ToolContext): unknown;
  tools?: readonly ToolSpec[];
}

/** A runner for a seed-style executor: every call is admitted; failures still become messages. */
export function executorRunner(executor: ToolExecutor): ToolRunner {
  return {
    specs: executor.tools ?? [],
    admit: (call) => ({ kind: "run", tool: { execute: (_args, context) => executor.execute(call, context) }, args: call.arguments }),
  };
}

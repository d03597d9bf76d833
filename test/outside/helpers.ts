import { z } from "zod";
import { defineTool, runAgent, type ModelDecision, type ModelRequest, type ResourceLocks } from "../../src/index.js";

/** A scripted model: asks for one call of `tool` with `args`, then answers "done". */
export function oneCallModel(tool: string, args: unknown) {
  return (request: ModelRequest): ModelDecision => {
    const asked = request.messages.some((message) => message.role === "tool");
    return asked ? { type: "final", content: "done" } : { type: "tool_calls", calls: [{ id: "c1", name: tool, arguments: args }] };
  };
}

export interface CallLog {
  started: boolean;
  startedAt?: number;
  abortedAt?: number;
  abortReason?: unknown;
  endedAt?: number;
}

/**
 * Runs one call of a write-key tool through runAgent. The tool's execute waits `runMs` or until its
 * signal aborts, and logs what happened.
 */
export async function runWriteCall(options: {
  locks: ResourceLocks;
  resources: (args: { keys: string[] }) => string[];
  keys: string[];
  runMs: number;
  signal?: AbortSignal;
}) {
  const log: CallLog = { started: false };
  const tool = defineTool({
    name: "saveRows",
    description: "writes rows",
    input: z.object({ keys: z.array(z.string()) }),
    resources: options.resources,
    locks: options.locks,
    execute: async (_args, { signal }) => {
      log.started = true;
      log.startedAt = performance.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.runMs);
        signal.addEventListener(
          "abort",
          () => {
            log.abortedAt = performance.now();
            log.abortReason = signal.reason;
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
      log.endedAt = performance.now();
      return "ok";
    },
  });
  const result = await runAgent({
    model: oneCallModel("saveRows", { keys: options.keys }),
    tools: [tool],
    task: "save",
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { log, result };
}

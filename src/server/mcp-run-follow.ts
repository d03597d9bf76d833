import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { RunHost } from "../runs/run-host.js";
import { runAnswer } from "./mcp-outcome.js";
import { progressTokenOf, stepProgress } from "./mcp-progress.js";
import type { RunChanges } from "./run-changes.js";
import { viewOfRun } from "./run-view.js";

/**
 * What a tool call gives its handler, whichever SDK line serves it: the call's signal, its
 * `_meta` (where a progress token is), and a way to send a notification related to it.
 */
export interface McpCall {
  signal: AbortSignal;
  meta?: unknown;
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
}

export interface RunFollowOptions {
  store: CheckpointStore;
  host: RunHost;
  changes: RunChanges;
}

/** Progress notifications for the run's steps, sent on the call's progress token. */
export function progressOf(options: RunFollowOptions, runId: string, call: McpCall) {
  return stepProgress(options.changes, runId, progressTokenOf(call.meta), (params) =>
    call.notify({ method: "notifications/progress", params }),
  );
}

/** Waits until the run stops running here (or the call is given up), then what it came to. */
export async function stoppedRun(options: RunFollowOptions, runId: string, call: McpCall, progress: ReturnType<typeof progressOf>) {
  try {
    const aborted = new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
    await Promise.race([options.host.settled(runId), aborted]);
  } finally {
    progress.stop();
  }
  await progress.drained();
  return runAnswer(await viewOfRun(options.store, runId), runId);
}

/** Begins (listening first: no step's end is missed), then waits until the run stops here. */
export async function followRun(options: RunFollowOptions, runId: string, call: McpCall, begin: () => Promise<unknown>) {
  const progress = progressOf(options, runId, call);
  try {
    await begin();
  } catch (error) {
    progress.stop();
    throw error;
  }
  return stoppedRun(options, runId, call, progress);
}

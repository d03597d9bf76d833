import type { RunChanges } from "./run-changes.js";

/** How long the answer to a run tool waits after its last progress notification (see `drained`). */
const answerGapMs = 25;

export type ProgressToken = string | number;
/** Sends one `notifications/progress` (the request's own `sendNotification`). */
export type SendProgress = (params: { progressToken: ProgressToken; progress: number; total?: number; message: string }) => Promise<void>;

/**
 * Sends a progress notification as each of the run's steps ends in this process, heard live (so
 * every one goes out before the answer): `progress` steps ended of `total` planned so far.
 */
export function stepProgress(changes: RunChanges, runId: string, token: ProgressToken | undefined, send: SendProgress) {
  let total = 0;
  let ended = 0;
  let sending: Promise<unknown> = Promise.resolve();
  let lastSent = 0;
  const stop = changes.listen(runId, (event) => {
    if (event.type === "plan-created") total += event.steps.length;
    if (event.type !== "step-end" || token === undefined) return;
    ended += 1;
    const params = {
      progressToken: token,
      progress: ended,
      ...(total > 0 ? { total } : {}),
      message: `step ${String(event.stepId)} ${event.status}`,
    };
    sending = sending
      .then(() => send(params))
      .then(() => (lastSent = Date.now()))
      .catch(() => {});
  });
  return {
    stop,
    /**
     * Waits until the last notification went out, and a moment after it: a client may read a
     * notification and the answer in one go and handle the answer first (the TypeScript SDK's
     * client does, dropping the notification), so the answer arrives on its own.
     */
    async drained(): Promise<void> {
      await sending;
      const since = Date.now() - lastSent;
      if (since < answerGapMs) await new Promise((resolve) => setTimeout(resolve, answerGapMs - since));
    },
  };
}

/** The progress token a request carries, if any. */
export function progressTokenOf(meta: unknown): ProgressToken | undefined {
  return (meta as { progressToken?: ProgressToken } | undefined)?.progressToken;
}

import type { PlanloopEvent } from "../core/events.js";

/**
 * Tells a run's open streams that its run wrote something in this process, so they look at
 * the store at once; what other processes write is found by looking every `pollMs`.
 */
export class RunChanges {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly listeners = new Map<string, Set<(event: PlanloopEvent) => void>>();

  /** Hears the run's events as this process's run emits them (live: an MCP call's progress); returns how to stop. */
  listen(runId: string, listener: (event: PlanloopEvent) => void): () => void {
    const listeners = this.listeners.get(runId) ?? new Set();
    this.listeners.set(runId, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(runId);
    };
  }

  /** Resolves at the run's next change here, or after `ms`, whichever comes first. */
  next(runId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(runId) ?? new Set();
      this.waiting.set(runId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }

  /** The run (or a run kept inside it: `<runId>/…`) wrote something, or emitted `event`. */
  changed(runId: string, event?: PlanloopEvent): void {
    const top = runId.split("/")[0]!;
    if (event !== undefined) for (const listener of [...(this.listeners.get(top) ?? [])]) listener(event);
    for (const id of new Set([runId, top])) for (const wake of [...(this.waiting.get(id) ?? [])]) wake();
  }

  /** Drops the run's entry once no stream waits on it. */
  forget(runId: string): void {
    if (this.waiting.get(runId)?.size === 0) this.waiting.delete(runId);
  }
}

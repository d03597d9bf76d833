import { InvalidOptionsError } from "../core/errors.js";

/**
 * How a service backs off a run whose continuation fails to start (its command exits before the
 * run writes anything: a tools module that exits on import, a crash in the process): the run is
 * tried again after `firstDelayMs`, then twice as long each time up to `maxDelayMs`, and after
 * `attempts` failed starts in a row it is given up on. A start that moved the run resets its count.
 */
export interface StartRetries {
  /** Failed starts in a row after which the run is left alone. Default 5. */
  attempts?: number | undefined;
  /** The wait after the first failed start (ms); each next one doubles it. Default: the service's tick. */
  firstDelayMs?: number | undefined;
  /** The longest wait between two starts (ms). Default 5 minutes. */
  maxDelayMs?: number | undefined;
}

/** What one more failed start means for the run: try again from `notBefore`, or give up after `failures`. */
export type FailedStartMove = { kind: "retry"; notBefore: number; failures: number } | { kind: "give-up"; failures: number };

/** The failed starts in a row of each run, and when it may be tried again; pure but for its own map. */
export class FailedStarts {
  private readonly runs = new Map<string, { failures: number; notBefore: number }>();
  private readonly attempts: number;
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(retries: StartRetries & { firstDelayMs: number }) {
    this.attempts = retries.attempts ?? 5;
    this.firstDelayMs = retries.firstDelayMs;
    this.maxDelayMs = retries.maxDelayMs ?? 300_000;
    if (!Number.isInteger(this.attempts) || this.attempts < 1)
      throw new InvalidOptionsError(`startRetries.attempts must be a whole number >= 1, got ${String(this.attempts)}`);
  }

  /** Notes a failed start at `at`; the run's next move. */
  failed(runId: string, at: number): FailedStartMove {
    const failures = (this.runs.get(runId)?.failures ?? 0) + 1;
    if (failures >= this.attempts) {
      this.runs.delete(runId);
      return { kind: "give-up", failures };
    }
    const notBefore = at + Math.min(this.firstDelayMs * 2 ** (failures - 1), this.maxDelayMs);
    this.runs.set(runId, { failures, notBefore });
    return { kind: "retry", notBefore, failures };
  }

  /** The run started (it wrote to the store): its count starts again. */
  started(runId: string): void {
    this.runs.delete(runId);
  }

  /** Whether the run is still waiting out its backoff at `at`. */
  backingOff(runId: string, at: number): boolean {
    const run = this.runs.get(runId);
    return run !== undefined && at < run.notBefore;
  }
}

const marker = Symbol.for("planloop.error");

/**
 * Base class of every error planloop throws. Check with `PlanloopError.isInstance(error)`
 * rather than `instanceof`, so two copies of the package in one program still agree.
 */
export class PlanloopError extends Error {
  readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PlanloopError";
  }

  static isInstance(value: unknown): value is PlanloopError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

/**
 * Bad options passed by the caller. A `TypeError`, as the seed loop promises, that also
 * carries planloop's marker.
 */
export class InvalidOptionsError extends TypeError {
  readonly [marker] = true;

  constructor(message: string) {
    super(message);
    this.name = "InvalidOptionsError";
  }
}

/** The model returned something that is neither a final answer nor a list of tool calls. */
export class InvalidDecisionError extends PlanloopError {
  readonly decision: unknown;
  /** Resumable state of the run up to the bad decision, when the loop had one. */
  readonly state: unknown;

  constructor(message: string, details: { decision: unknown; state?: unknown }) {
    super(message);
    this.name = "InvalidDecisionError";
    this.decision = details.decision;
    this.state = details.state;
  }
}

/** The model call itself failed (network, provider, a bug in a model function). */
export class ModelCallError extends PlanloopError {
  /** Resumable state of the run before the failed call: nothing done so far is lost. */
  readonly state: unknown;

  constructor(message: string, details: { cause: unknown; state?: unknown }) {
    super(message, { cause: details.cause });
    this.name = "ModelCallError";
    this.state = details.state;
  }
}

/**
 * A text call (plan, solve, join, …) whose worst case the run's budget cannot hold: the
 * strategy stops as `budget_exceeded` with this limit, as it would before the call.
 */
export class BudgetExceededError extends PlanloopError {
  readonly limit: "maxTokens" | "maxCostUsd" | "maxToolCalls" | "deadlineMs";

  constructor(breach: { limit: BudgetExceededError["limit"]; message: string }) {
    super(breach.message);
    this.name = "BudgetExceededError";
    this.limit = breach.limit;
  }
}

/**
 * Another process holds a stored run's lease: this call did not start it. Wait for it
 * (`lease: { onBusy: "wait" }`), or try again once its owner is done or its lease runs out.
 */
export class RunBusyError extends PlanloopError {
  readonly runId: string;
  readonly owner: string;
  /** When the owner's lease runs out unless it renews it (milliseconds since the epoch). */
  readonly expiresAt: number;

  constructor(runId: string, holder: { owner: string; expiresAt: number }) {
    super(
      `run "${runId}" is being run by ${holder.owner} (its lease runs to ${new Date(holder.expiresAt).toISOString()}); ` +
        `nothing was started. Wait for it with lease: { onBusy: "wait" }, or try again once it is done`,
    );
    this.name = "RunBusyError";
    this.runId = runId;
    this.owner = holder.owner;
    this.expiresAt = holder.expiresAt;
  }
}

/**
 * This process lost a stored run's lease (it could not renew it in time, and another process
 * took the run over): its writes are refused, it stopped starting steps and calls, and what
 * it was doing is the new owner's to finish.
 */
export class LeaseLostError extends PlanloopError {
  readonly runId: string;

  constructor(runId: string, token: number) {
    super(
      `run "${runId}" is no longer this process's (lease ${token} was taken over by another process): ` +
        "this process stopped and wrote nothing more; the run goes on where it is owned now",
    );
    this.name = "LeaseLostError";
    this.runId = runId;
  }
}

/**
 * A tool call's hold on a write key (`ToolOptions.resources`, held by `resourceLocks`) was lost
 * while the call ran: its holder could not renew it in time (a process paused, a store out of
 * reach) and another call may have taken the key. The reason the call's signal aborts with; the
 * call ends failed with this message.
 */
export class WriteKeyLostError extends PlanloopError {
  readonly resource: string;

  constructor(resource: string, how: string) {
    super(
      `the hold on write key "${resource}" was lost while the call ran (${how}): another call may be writing it, ` +
        "so this call was aborted; check what it wrote before trying it again",
    );
    this.name = "WriteKeyLostError";
    this.resource = resource;
  }
}

/**
 * A checkpoint store that cannot be read or written, or holds what planloop did not write: the
 * message names the store and the run, and says what to do. A run stopped by a store that went
 * away continues by id once the store is back.
 */
export class StoreError extends PlanloopError {
  readonly store: string;
  readonly runId: string | undefined;

  constructor(details: { store: string | undefined; runId?: string | undefined; problem: string; cause?: unknown }) {
    const store = details.store ?? "the checkpoint store";
    super(`${store}${details.runId === undefined ? "" : ` (run "${details.runId}")`}: ${details.problem}`, { cause: details.cause });
    this.name = "StoreError";
    this.store = store;
    this.runId = details.runId;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? shown(error);
  } catch {
    return shown(error);
  }
}

/** A value as an error message shows it (`String(value)`), even one whose `toString` is broken. */
export function shown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * The first `limit` items of a list of problems, then one item that counts the rest (worded
 * by `rest`): a message about ten thousand failed steps stays a few lines long.
 */
export function cappedList(items: readonly string[], rest: (count: number) => string, limit = 20): string[] {
  return items.length <= limit ? [...items] : [...items.slice(0, limit), rest(items.length - limit)];
}

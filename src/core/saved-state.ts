import { InvalidOptionsError, shown } from "./errors.js";
import { isRecord } from "./is-record.js";

/**
 * The common check of every saved state planloop reads back: an object of the right kind
 * and version. `what` names the function whose result it must come from.
 */
export function readSavedState<T>(value: unknown, expected: { kind: string; version: number; what: string }): Partial<T> {
  const state = value as { kind?: unknown; version?: unknown } | null;
  if (typeof state !== "object" || state === null || state.kind !== expected.kind) {
    throw new InvalidOptionsError(
      `resume is not a ${expected.what} state (kind ${JSON.stringify(state?.kind)}); pass result.state from ${expected.what}`,
    );
  }
  if (state.version !== expected.version) {
    throw new InvalidOptionsError(`resume state has version ${shown(state.version)}; this planloop reads version ${expected.version}`);
  }
  return state as Partial<T>;
}

/** Usage totals as results write them: five finite numbers. */
export function isUsageTotals(value: unknown): boolean {
  return (
    isRecord(value) && ["modelCalls", "inputTokens", "outputTokens", "costUsd", "toolCalls"].every((field) => Number.isFinite(value[field]))
  );
}

/** A duration a state carries: a finite number of milliseconds, not negative. */
export function isElapsedMs(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

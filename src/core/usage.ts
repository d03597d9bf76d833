/** What one model call consumed, as the model or its adapter reports it. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
  /** True when the counts were estimated with a tokenizer rather than reported by the server. */
  estimated?: boolean;
}

/** Totals for a run (or a part of one). Always present on a result. */
export interface UsageTotals {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  toolCalls: number;
}

export function emptyUsage(): UsageTotals {
  return { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 0 };
}

/** Adds `delta` to `totals` in place. */
export function addUsageInto(totals: UsageTotals, delta: Partial<UsageTotals>): void {
  totals.modelCalls += delta.modelCalls ?? 0;
  totals.inputTokens += delta.inputTokens ?? 0;
  totals.outputTokens += delta.outputTokens ?? 0;
  totals.costUsd += delta.costUsd ?? 0;
  totals.toolCalls += delta.toolCalls ?? 0;
}

export function addUsage(totals: UsageTotals, delta: Partial<UsageTotals>): UsageTotals {
  const sum = { ...totals };
  addUsageInto(sum, delta);
  return sum;
}

/** The totals delta of one model call; a missing or malformed usage counts as zero tokens. */
export function modelCallDelta(usage: Usage | undefined): Partial<UsageTotals> {
  return {
    modelCalls: 1,
    inputTokens: finiteOrZero(usage?.inputTokens),
    outputTokens: finiteOrZero(usage?.outputTokens),
    costUsd: finiteOrZero(usage?.costUsd),
  };
}

function finiteOrZero(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

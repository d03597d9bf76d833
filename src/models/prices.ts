import type { Usage } from "../core/usage.js";

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

export type PriceTable = Record<string, ModelPrice>;

/**
 * List prices of common models, USD per million tokens, as published by their providers
 * (late 2025). Prices change: pass your own with `prices` to override or extend these.
 */
export const defaultPrices: PriceTable = {
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  o3: { input: 2, output: 8 },
  "o3-mini": { input: 1.1, output: 4.4 },
  "o4-mini": { input: 1.1, output: 4.4 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  "claude-3-5-sonnet": { input: 3, output: 15 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-opus-4": { input: 15, output: 75 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5 },
  "gemini-2.5-pro": { input: 1.25, output: 10 },
  "deepseek-chat": { input: 0.27, output: 1.1 },
  "deepseek-reasoner": { input: 0.55, output: 2.19 },
  "mistral-large": { input: 2, output: 6 },
  "mistral-small": { input: 0.1, output: 0.3 },
};

/**
 * The price of a model id: an exact entry, or the longest entry the id starts with, so
 * `gpt-4o-mini-2024-07-18` is priced as `gpt-4o-mini`, not `gpt-4o`. A provider prefix
 * (`openai/gpt-4o`) is ignored. Undefined for an unknown model (a local one, say).
 */
export function priceOf(modelId: string, table: PriceTable = defaultPrices): ModelPrice | undefined {
  const id = modelId.includes("/") ? modelId.slice(modelId.lastIndexOf("/") + 1) : modelId;
  if (table[id]) return table[id];
  const prefix = Object.keys(table)
    .filter((key) => id.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? undefined : table[prefix];
}

/** `usage` with `costUsd` from the table, when the model has a price and the cost is not known yet. */
export function withCost(usage: Usage, modelId: string, table: PriceTable = defaultPrices): Usage {
  if (usage.costUsd !== undefined) return usage;
  const price = priceOf(modelId, table);
  if (!price) return usage;
  return { ...usage, costUsd: (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000 };
}

/** The default table with your entries on top. */
export function resolvePrices(overrides: PriceTable | undefined): PriceTable {
  return { ...defaultPrices, ...overrides };
}

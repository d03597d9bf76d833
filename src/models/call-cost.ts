import type { CallCost, ModelRequest } from "../core/model.js";
import { priceOf, type PriceTable } from "./prices.js";
import { estimatePromptTokens } from "./token-estimate.js";

/**
 * The most a call can cost (`ModelAdapter.maxCallCost`): its prompt's tokens plus the most the
 * model may write, priced from the table (no cost for a model without a price; its tokens
 * still count against `maxTokens`). Undefined when nothing caps the answer's length.
 */
export function callCostCeiling(
  request: ModelRequest,
  model: { modelId: string; prices: PriceTable; maxOutputTokens: number | undefined },
): CallCost | undefined {
  const { maxOutputTokens } = model;
  if (maxOutputTokens === undefined) return undefined;
  const prompt = estimatePromptTokens(request.messages, request.tools);
  const price = priceOf(model.modelId, model.prices);
  const costUsd = price === undefined ? 0 : (prompt * price.input + maxOutputTokens * price.output) / 1_000_000;
  return { tokens: prompt + maxOutputTokens, costUsd };
}

/** A positive whole number of tokens, or undefined. */
export function tokenCap(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

import { describe, expect, it } from "vitest";
import { defaultPrices, priceOf, resolvePrices, withCost } from "./prices.js";

describe("prices", () => {
  it("finds the longest matching entry and ignores a provider prefix", () => {
    expect(priceOf("gpt-4o-mini-2024-07-18")).toEqual(defaultPrices["gpt-4o-mini"]);
    expect(priceOf("gpt-4o-2024-08-06")).toEqual(defaultPrices["gpt-4o"]);
    expect(priceOf("openai/gpt-4.1-nano")).toEqual(defaultPrices["gpt-4.1-nano"]);
    expect(priceOf("qwen2.5:7b")).toBeUndefined();
  });

  it("computes the cost from the table, overridable and extendable", () => {
    expect(withCost({ inputTokens: 1_000_000, outputTokens: 500_000 }, "gpt-4o").costUsd).toBeCloseTo(2.5 + 5, 10);
    const table = resolvePrices({ "qwen2.5": { input: 0.1, output: 0.2 }, "gpt-4o": { input: 1, output: 1 } });
    expect(withCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, "qwen2.5:7b", table).costUsd).toBeCloseTo(0.3, 10);
    expect(withCost({ inputTokens: 1_000_000, outputTokens: 0 }, "gpt-4o", table).costUsd).toBeCloseTo(1, 10);
    expect(withCost({ inputTokens: 10, outputTokens: 10, costUsd: 0.5 }, "gpt-4o").costUsd).toBe(0.5);
    expect(withCost({ inputTokens: 10, outputTokens: 10 }, "unknown-model").costUsd).toBeUndefined();
  });
});

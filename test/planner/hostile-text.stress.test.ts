// Untrusted text cannot hold the event loop: every parser and estimator takes time linear in
// its input. (bench/hostile-text.ts measures 1 MB inputs; these use a quarter of that and a
// bound about a hundred times what linear code takes, far below what quadratic code needs.)
import { describe, expect, it } from "vitest";
import { parsePlanText, validatePlan } from "planloop";
import { CompilerPlanReader } from "../../src/planner/parsers/compiler-plan.js";
import { countTokens } from "gpt-tokenizer";
import { estimateTextTokens } from "../../src/models/token-estimate.js";

const size = 256 * 1024;
const bound = 2_000;

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

describe("hostile text", () => {
  const hostile: Record<string, string> = {
    "open brackets": "[".repeat(size),
    "open braces": "{".repeat(size),
    "blank lines": "\n".repeat(size),
    "empty fences": "```\n".repeat(size / 4),
    "an unclosed call": `1. t(${"(".repeat(size)}`,
  };

  it.each(Object.entries(hostile))("reads a plan text of %s in linear time, in every format", (_, text) => {
    for (const format of ["json", "rewoo", "llm-compiler", undefined] as const) {
      expect(timed(() => parsePlanText(text, format ? { format } : {}))).toBeLessThan(bound);
    }
  });

  it("reads a long streamed line piece by piece in linear time", () => {
    const reader = new CompilerPlanReader([]);
    const text = "[".repeat(size);
    expect(
      timed(() => {
        for (let index = 0; index < text.length; index += 16) reader.push(text.slice(index, index + 16));
        reader.end();
      }),
    ).toBeLessThan(bound);
  });

  it("estimates the tokens of a long run of one character in linear time", () => {
    estimateTextTokens("load the tokenizer first");
    expect(timed(() => estimateTextTokens("a".repeat(size)))).toBeLessThan(bound);
    // Counting in pieces changes an ordinary text's count by little.
    const prose = "The weekly report compares orders, refunds and tickets. ".repeat(400);
    expect(Math.abs(estimateTextTokens(prose) - countTokens(prose))).toBeLessThanOrEqual(countTokens(prose) / 200);
  });

  it("checks a plan of 20,000 steps with look-alike ids in linear time", () => {
    const steps = Array.from({ length: 20_000 }, (_, index) => ({ id: `step-${"x".repeat(40)}-${index}`, task: "t" }));
    expect(timed(() => expect(validatePlan({ steps }).ok).toBe(true))).toBeLessThan(bound);
  });
});

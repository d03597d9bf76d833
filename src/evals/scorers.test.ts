import { describe, expect, it } from "vitest";
import { checkClaims } from "../grounding/check-claims.js";
import type { Provenance } from "../grounding/claim-report.js";
import type { StrategyResult } from "../strategies/strategy-result.js";
import { grounded, scoreRun, type Scorer } from "./scorers.js";
import type { SuiteTask } from "./task-suite.js";

const steps = [{ id: "1", output: { orders: 127, revenue_cny: 64577.01 } }];

/** A completed run whose answer was checked against `steps`, as a strategy with `grounding: "flag"` leaves it. */
function groundedResult(output: string): StrategyResult {
  const provenance: Provenance = { policy: "flag", ...checkClaims(output, steps), repaired: false, removed: [] };
  return { strategy: "react", status: "completed", output, provenance } as unknown as StrategyResult;
}

const task: SuiteTask = { id: "weekly", task: "write the weekly report", expected: { scorer: "grounded" } };

describe("the grounded scorer", () => {
  it("passes an answer whose every claim its steps support, and scores the share supported otherwise", async () => {
    expect(await scoreRun(task, groundedResult("127 orders brought ¥64,577.01 [s1]."))).toEqual({ passed: true, score: 1 });
    const half = await scoreRun(task, groundedResult("127 orders brought ¥91,000.00 [s1]."));
    expect(half).toEqual({ passed: false, score: 0.5 });
  });

  it("is built in (no --scorers module), a module's own scorer of the same name wins, and a run without grounding scores 0", async () => {
    const ungrounded = { strategy: "react", status: "completed", output: "127 orders [s1]." } as unknown as StrategyResult;
    expect(await grounded({ task, output: ungrounded.output, result: ungrounded })).toBe(0);
    const mine: Scorer = () => true;
    expect(await scoreRun(task, ungrounded, { grounded: mine })).toEqual({ passed: true, score: 1 });
    await expect(scoreRun({ ...task, expected: { scorer: "nowhere" } }, ungrounded)).rejects.toThrow(/no scorer "nowhere"/);
  });
});

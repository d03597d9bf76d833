import { describe, expect, it } from "vitest";
import type { StepRecord } from "../plan/step-record.js";
import { planSchema } from "../plan/plan-schema.js";
import { reusableResults } from "./merge-plan.js";

const done = (output: unknown): StepRecord => ({ status: "succeeded", output, attempts: 1, startedAt: 0, endedAt: 1 });
const plan = (steps: unknown[]) => planSchema.parse({ steps });

describe("reusableResults", () => {
  const oldPlan = plan([
    { id: 1, task: "orders", tool: "sql", args: { query: "select * from orders" } },
    { id: 2, task: "refunds", tool: "sql", args: { query: "select amount from refunds" } },
    { id: 3, task: "tickets", tool: "sql", args: { query: "select * from tickets" } },
    { id: 4, task: "compute metrics", depends_on: [1, 2, 3] },
  ]);
  const records = {
    1: done("o"),
    2: { status: "failed", error: "no column amount", attempts: 2 } as StepRecord,
    3: done("t"),
    4: done("m"),
  };

  it("keeps unchanged succeeded steps and drops changed ones and their dependents", () => {
    const newPlan = plan([
      { id: 1, task: "orders again", tool: "sql", args: { query: "select * from orders" } },
      { id: 2, task: "refunds", tool: "sql", args: { query: "select refund_amount from refunds" } },
      { id: 3, task: "tickets", tool: "sql", args: { query: "select  *  from tickets", limit: 5 } },
      { id: 4, task: "compute metrics", depends_on: [1, 2, 3] },
    ]);
    expect(Object.keys(reusableResults(oldPlan, records, newPlan))).toEqual(["1"]);
  });

  it("ignores key order in arguments and needs the same dependencies", () => {
    const reordered = plan([
      { id: 1, task: "x", tool: "sql", args: { query: "select * from orders" } },
      { id: 3, task: "tickets", tool: "sql", args: { query: "select * from tickets" }, depends_on: [1] },
    ]);
    expect(Object.keys(reusableResults(oldPlan, records, reordered))).toEqual(["1"]);
  });

  it("reuses an agent step with the same task only when its inputs were reused too", () => {
    const same = plan(oldPlan.steps.map((step) => ({ ...step })));
    const allDone = { ...records, 2: done("r") };
    expect(Object.keys(reusableResults(oldPlan, allDone, same)).sort()).toEqual(["1", "2", "3", "4"]);
    expect(Object.keys(reusableResults(oldPlan, records, same)).sort()).toEqual(["1", "3"]);
  });

  it("keeps a long chain listed last step first, and nothing on a cycle", () => {
    const chain = plan(
      Array.from({ length: 20_000 }, (_, index) => ({
        id: index,
        task: "t",
        tool: "sql",
        args: { index },
        depends_on: index === 0 ? [] : [index - 1],
      })).reverse(),
    );
    const chainRecords = Object.fromEntries(chain.steps.map((step) => [String(step.id), done(step.id)]));
    expect(Object.keys(reusableResults(chain, chainRecords, chain))).toHaveLength(20_000);

    const cycle = plan([
      { id: "a", task: "a", tool: "sql", args: {}, depends_on: ["b"] },
      { id: "b", task: "b", tool: "sql", args: {}, depends_on: ["a"] },
      { id: "c", task: "c", tool: "sql", args: {} },
    ]);
    expect(Object.keys(reusableResults(cycle, { a: done(1), b: done(2), c: done(3) }, cycle))).toEqual(["c"]);
  });
});

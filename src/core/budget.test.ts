import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/fake-clock.js";
import { Budget, findBreach } from "./budget.js";
import { addUsage, emptyUsage } from "./usage.js";

const spent = (delta: Parameters<typeof addUsage>[1]) => addUsage(emptyUsage(), delta);

describe("findBreach", () => {
  it("names the limit that is reached", () => {
    expect(findBreach({ maxToolCalls: 2 }, spent({ toolCalls: 2 }), 0)?.limit).toBe("maxToolCalls");
    expect(findBreach({ maxToolCalls: 2 }, spent({ toolCalls: 1 }), 0)).toBeUndefined();
    expect(findBreach({ maxTokens: 100 }, spent({ inputTokens: 60, outputTokens: 40 }), 0)?.limit).toBe("maxTokens");
    expect(findBreach({ maxCostUsd: 0.5 }, spent({ costUsd: 0.5 }), 0)?.limit).toBe("maxCostUsd");
    expect(findBreach({ deadlineMs: 1000 }, emptyUsage(), 1000)?.limit).toBe("deadlineMs");
    expect(findBreach({ deadlineMs: 1000 }, emptyUsage(), 999)).toBeUndefined();
  });

  it("refuses a call the remaining budget cannot pay for", () => {
    const used = spent({ inputTokens: 50, outputTokens: 10 });
    expect(findBreach({ maxTokens: 100 }, used, 0, { tokens: 30, costUsd: 0 })).toBeUndefined();
    const breach = findBreach({ maxTokens: 100 }, used, 0, { tokens: 41, costUsd: 0 });
    expect(breach?.limit).toBe("maxTokens");
    expect(breach?.message).toContain("60 of 100");
    expect(findBreach({ maxCostUsd: 1 }, spent({ costUsd: 0.7 }), 0, { tokens: 0, costUsd: 0.4 })?.limit).toBe("maxCostUsd");
  });
});

describe("Budget", () => {
  it("charges its parent and is breached when the parent is", () => {
    const clock = new FakeClock();
    const run = new Budget({ maxTokens: 100 }, { clock });
    const step = run.child({ maxToolCalls: 5 });
    step.charge({ inputTokens: 80, outputTokens: 20, toolCalls: 1 });
    expect(run.spent.inputTokens).toBe(80);
    expect(step.breach()?.limit).toBe("maxTokens");
    expect(run.remainingToolCalls()).toBe(Infinity);
    expect(step.remainingToolCalls()).toBe(4);
  });

  it("reports the nearest deadline of the chain", async () => {
    const clock = new FakeClock();
    const run = new Budget({ deadlineMs: 1000 }, { clock });
    await clock.advance(300);
    const step = run.child({ deadlineMs: 2000 });
    expect(step.remainingMs()).toBe(700);
    expect(run.child().remainingMs()).toBe(700);
    expect(new Budget({}, { clock }).remainingMs()).toBeUndefined();
  });

  it("continues from elapsed time and spending restored from a saved state", () => {
    const clock = new FakeClock(5000);
    const budget = new Budget({ deadlineMs: 1000 }, { clock, elapsedMs: 400, spent: spent({ toolCalls: 3 }) });
    expect(budget.elapsedMs()).toBe(400);
    expect(budget.spent.toolCalls).toBe(3);
  });

  it("hands out what it spent as copies that later charges leave alone, and never changes the spending it was given", () => {
    const saved = spent({ toolCalls: 3, costUsd: 0.25 });
    const budget = new Budget({}, { spent: saved });
    const before = budget.spent;
    budget.charge({ toolCalls: 1, costUsd: 0.5 });
    expect(before).toEqual(spent({ toolCalls: 3, costUsd: 0.25 }));
    expect(saved).toEqual(spent({ toolCalls: 3, costUsd: 0.25 }));
    expect(budget.spent).toEqual(spent({ toolCalls: 4, costUsd: 0.75 }));
  });

  it("rejects limits that are not limits", () => {
    expect(() => new Budget({ maxTokens: -1 })).toThrow(TypeError);
    expect(() => new Budget({ maxTokenz: 5 } as never)).toThrow(/not a budget limit/);
  });
});

describe("Budget.reserve: worst cases held while calls run", () => {
  const isHold = (held: unknown): held is { settle(actual: object): void; release(): void } =>
    typeof held === "object" && held !== null && "settle" in held;

  it("holds what fits, makes a call wait while holds fill the budget, and lets it go when one settles for less", async () => {
    const run = new Budget({ maxCostUsd: 0.1 });
    const first = await run.reserve({ tokens: 0, costUsd: 0.04 });
    const second = await run.reserve({ tokens: 0, costUsd: 0.04 });
    expect(isHold(first) && isHold(second)).toBe(true);
    let third: unknown;
    const waiting = run.reserve({ tokens: 0, costUsd: 0.04 }).then((held) => (third = held));
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBeUndefined();
    // Settled for less than it held: 0.01 spent and 0.04 + 0.04 held fit under 0.1.
    if (isHold(first)) first.settle({ costUsd: 0.01 });
    await waiting;
    expect(isHold(third)).toBe(true);
    expect(run.spent.costUsd).toBeCloseTo(0.01);
    if (isHold(second)) second.settle({ costUsd: 0.04 });
    if (isHold(third)) third.settle({ costUsd: 0.04 });
    // 0.09 spent, nothing held: another 0.04 cannot fit now or later; it is the breach.
    expect(await run.reserve({ tokens: 0, costUsd: 0.04 })).toMatchObject({ limit: "maxCostUsd" });
  });

  it("holds in every parent: a step's loop and its siblings share the run's limit", async () => {
    const run = new Budget({ maxTokens: 100 });
    const a = run.child();
    const b = run.child();
    const held = await a.reserve({ tokens: 80, costUsd: 0 });
    const refused = b.reserve({ tokens: 30, costUsd: 0 });
    let answer: unknown;
    void refused.then((value) => (answer = value));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer).toBeUndefined();
    if (isHold(held)) held.release();
    expect(isHold(await refused)).toBe(true);
    expect(run.spent.inputTokens).toBe(0);
  });

  it("stops waiting when the signal aborts", async () => {
    const run = new Budget({ maxCostUsd: 0.1 });
    await run.reserve({ tokens: 0, costUsd: 0.08 });
    const controller = new AbortController();
    const waiting = run.reserve({ tokens: 0, costUsd: 0.05 }, controller.signal);
    controller.abort();
    expect(isHold(await waiting)).toBe(false);
  });

  it("remembers the dearest call settled anywhere in the run, for calls that cannot say their worst case", async () => {
    const run = new Budget();
    const step = run.child();
    const held = await step.reserve({ tokens: 0, costUsd: 0 });
    if (isHold(held)) held.settle({ inputTokens: 40, outputTokens: 10, costUsd: 0.02 });
    expect(run.dearestCall()).toEqual({ tokens: 50, costUsd: 0.02 });
    expect(step.dearestCall()).toEqual({ tokens: 50, costUsd: 0.02 });
  });
});

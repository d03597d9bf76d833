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

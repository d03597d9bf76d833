import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../core/errors.js";
import { FailedStarts } from "./failed-starts.js";

describe("failed starts", () => {
  it("doubles the wait from the first delay up to the longest, and gives up after the attempts", () => {
    const starts = new FailedStarts({ firstDelayMs: 100, maxDelayMs: 300, attempts: 4 });
    expect(starts.failed("run", 0)).toEqual({ kind: "retry", notBefore: 100, failures: 1 });
    expect(starts.backingOff("run", 99)).toBe(true);
    expect(starts.backingOff("run", 100)).toBe(false);
    expect(starts.failed("run", 100)).toEqual({ kind: "retry", notBefore: 300, failures: 2 });
    expect(starts.failed("run", 300)).toEqual({ kind: "retry", notBefore: 600, failures: 3 });
    expect(starts.failed("run", 600)).toEqual({ kind: "give-up", failures: 4 });
  });

  it("keeps each run's count apart, and a start resets it", () => {
    const starts = new FailedStarts({ firstDelayMs: 10 });
    starts.failed("a", 0);
    starts.failed("a", 10);
    expect(starts.backingOff("b", 0)).toBe(false);
    starts.started("a");
    expect(starts.backingOff("a", 0)).toBe(false);
    expect(starts.failed("a", 0)).toEqual({ kind: "retry", notBefore: 10, failures: 1 });
  });

  it("refuses attempts that are not a whole number >= 1", () => {
    expect(() => new FailedStarts({ firstDelayMs: 10, attempts: 0 })).toThrow(InvalidOptionsError);
  });
});

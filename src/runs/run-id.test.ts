import { describe, expect, it } from "vitest";
import { checkNewRunId, checkRunReference, RunIdError } from "./run-id.js";

describe("run ids callers name", () => {
  it("a new run's: letters, digits, '.', ':', '-', '_'; never an inner run's, a schedule's, nothing or too much", () => {
    for (const id of ["nightly-7", "a.b:c_d", "__proto__", "x".repeat(200)]) expect(checkNewRunId(id)).toBe(id);
    for (const id of ["victim/plan:9", "x/step", "", "x".repeat(201), "weekly@2026-12-07T08:00:00.000Z", "a b", 7, undefined])
      expect(() => checkNewRunId(id)).toThrow(RunIdError);
  });

  it("a schedule's run has exactly the id of its fire", () => {
    const origin = { schedule: { name: "weekly", fireAt: Date.parse("2026-12-07T08:00:00.000Z") } };
    expect(checkNewRunId("weekly@2026-12-07T08:00:00.000Z", { origin })).toBe("weekly@2026-12-07T08:00:00.000Z");
    expect(() => checkNewRunId("weekly@2026-12-14T08:00:00.000Z", { origin })).toThrow(/is "weekly@2026-12-07T08:00:00\.000Z"/);
  });

  it("a run acted on: a top-level run's id (a schedule's and a fork's included), never an inner run's", () => {
    for (const id of ["weekly@2026-12-07T08:00:00.000Z", "run-1~rerun-a1b2c3"]) expect(checkRunReference(id)).toBe(id);
    for (const id of ["victim/plan:1", "", "y".repeat(241)]) expect(() => checkRunReference(id, { field: "id" })).toThrow(/^id: /);
  });
});

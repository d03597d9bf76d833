import { describe, expect, it } from "vitest";
import { rerunProblems, type LogLine } from "./crash-problems.js";

const lookup = (p: number, key = "r/a"): LogLine => ({ p, call: { key, tool: "lookup", effect: "idempotent" } });
const wire = (p: number): LogLine => ({ p, call: { key: "r/w", tool: "wire", effect: "side-effecting" } });
const none = new Set<string>();
const second = { number: 2, finishedBefore: none, paused: none, answered: none };

describe("rerunProblems", () => {
  it("a call that returned while its process lived on, run again: a problem; one killed before it settled: allowed", () => {
    const returned: LogLine[] = [lookup(1), { p: 1, ended: { key: "r/a", ok: true } }];
    expect(rerunProblems("r", [...returned, { p: 1, settled: "r/a" }, lookup(2)], second)).toEqual([
      "r: lookup (r/a) returned in process 1, which lived on, and ran again in process 2: its end was not kept",
    ]);
    expect(rerunProblems("r", [...returned, lookup(2)], second)).toEqual([]);
  });

  it("a step that paused for a time (a poll) runs its tool again by design", () => {
    const lines: LogLine[] = [lookup(1), { p: 1, ended: { key: "r/a", ok: true } }, { p: 1, settled: "r/a" }, lookup(2)];
    expect(rerunProblems("r", lines, { ...second, paused: new Set(["r/a"]) })).toEqual([]);
  });

  it("a side-effecting call cut short runs again only when asked whether it took effect", () => {
    const lines = [wire(1), wire(2)];
    expect(rerunProblems("r", lines, second)).toEqual(["r: side-effecting wire (r/w) ran again in process 2 without being asked"]);
    expect(rerunProblems("r", lines, { ...second, answered: new Set(["approval"]) })).toEqual([
      "r: side-effecting wire (r/w) ran in process 1, and again in process 2 on approval, without being asked whether it took effect",
    ]);
    expect(rerunProblems("r", lines, { ...second, answered: new Set(["interrupted"]) })).toEqual([]);
    // A call whose tool failed is approved again (under a new id): that is the question.
    const failed: LogLine[] = [wire(1), { p: 1, ended: { key: "r/w", ok: false } }, wire(2)];
    expect(rerunProblems("r", failed, { ...second, answered: new Set(["approval"]) })).toEqual([]);
  });

  it("a call whose end the store kept before the kill, run again: a problem", () => {
    expect(rerunProblems("r", [lookup(1), lookup(2)], { ...second, finishedBefore: new Set(["r/a"]) })).toEqual([
      "r: lookup (r/a) had finished before the kill, and ran again in process 2",
    ]);
  });
});

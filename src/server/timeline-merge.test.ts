import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mergeTimelines } from "./timeline-merge.js";

type Drawn = { type: string; time: number; label: string };

/** Lists of events as journals draw them: mostly in time order, sometimes not (clocks of two resolutions). */
const journals = fc.array(
  fc.array(
    fc.record({
      type: fc.constantFrom("step-start", "step-end", "run-paused", "run-end"),
      time: fc.double({ min: 0, max: 20, noNaN: true }),
    }),
    {
      maxLength: 12,
    },
  ),
  { minLength: 1, maxLength: 5 },
);
const labelled = (lists: Array<Array<{ type: string; time: number }>>): Drawn[][] =>
  lists.map((list, run) => list.map((event, index) => ({ ...event, label: `${run}:${index}` })));

describe("mergeTimelines", () => {
  it("interleaves runs by time, a pause after what else happened in its millisecond, a run's end last, the outer run first on a tie", () => {
    const outer = [
      { type: "model-call-end", time: 10.4, label: "planned" },
      { type: "run-end", time: 30, label: "answered" },
    ];
    const inner = [
      { type: "plan-created", time: 10, label: "plan" },
      { type: "step-end", time: 30.7, label: "step" },
    ];
    expect(mergeTimelines([outer, inner]).map(({ event }) => event.label)).toEqual(["planned", "plan", "step", "answered"]);
    // A run's end is last even when its clock (the store's) is behind the journal's.
    const late = [{ type: "step-end", time: 31.5, label: "late step" }];
    expect(mergeTimelines([outer, late]).map(({ event }) => event.label)).toEqual(["planned", "late step", "answered"]);
    // A pause in the millisecond of a step's end comes after it.
    const paused = [{ type: "run-paused", time: 30.1, label: "paused" }];
    expect(mergeTimelines([paused, inner]).map(({ event }) => event.label)).toEqual(["plan", "step", "paused"]);
  });

  it("keeps each run's own order, loses and adds nothing (property)", () => {
    fc.assert(
      fc.property(journals, (lists) => {
        const drawn = labelled(lists);
        const merged = mergeTimelines(drawn);
        expect(merged).toHaveLength(drawn.flat().length);
        drawn.forEach((list, run) => expect(merged.filter((each) => each.list === run).map(({ event }) => event)).toEqual(list));
      }),
    );
  });

  it("from any position it reached, the merge of what is left is the rest of the whole (a resumed stream goes on as the whole one) (property)", () => {
    fc.assert(
      fc.property(journals, fc.nat(), (lists, cut) => {
        const drawn = labelled(lists);
        const whole = mergeTimelines(drawn);
        const at = whole.length === 0 ? 0 : cut % (whole.length + 1);
        const sent = drawn.map((_, run) => whole.slice(0, at).filter((each) => each.list === run).length);
        const rest = mergeTimelines(drawn.map((list, run) => list.slice(sent[run])));
        expect(rest.map(({ event }) => event.label)).toEqual(whole.slice(at).map(({ event }) => event.label));
        const had = mergeTimelines(drawn.map((list, run) => list.slice(0, sent[run])));
        expect(had.map(({ event }) => event.label)).toEqual(whole.slice(0, at).map(({ event }) => event.label));
      }),
    );
  });
});

// A journal drawn as it grows (JournalDrawing, what a stream draws at each wake) gives the
// events the plain drawing of the whole journal gives, however the journal was cut into
// appends: a stream that draws only what was appended sends what a redraw would have.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JournalEntry, StoredRun } from "../../src/journal/checkpoint-store.js";
import { JournalDrawing, journalEvents } from "../../src/trace/stored-trace.js";

const plan = (version: number): JournalEntry => ({
  kind: "plan",
  version,
  plan: { steps: [1, 2, 3].map((id) => ({ id, task: `step ${id}`, depends_on: [] })) },
});

/** An entry as a run writes them, its time `at`: a plan, a step's start or end (of one of three), a pause, a decision. */
const entry: fc.Arbitrary<(at: number) => JournalEntry> = fc.oneof(
  fc.nat({ max: 3 }).map((version) => () => plan(version)),
  fc
    .constantFrom("1", "2", "3")
    .map((stepKey) => (at: number) => ({ kind: "step-start", stepKey, attempt: 1, idempotencyKey: stepKey, at }) as JournalEntry),
  fc.constantFrom("1", "2", "3").map(
    (stepKey) => (at: number) =>
      ({
        kind: "step-end",
        stepKey,
        record: { id: Number(stepKey), status: "succeeded", attempts: 1, output: at, startedAt: 0, endedAt: 1 },
        at,
      }) as JournalEntry,
  ),
  fc.constant((at: number) => ({ kind: "paused", state: {}, at }) as JournalEntry),
  fc.constant((at: number) => ({ kind: "human-decision", id: "d", decision: { approved: true }, at }) as JournalEntry),
);

const run = (journal: JournalEntry[], finished: boolean): StoredRun =>
  ({
    runId: "r",
    entry: "executePlan",
    status: finished ? "finished" : "running",
    journal,
    createdAt: 1,
    updatedAt: 1 + journal.length,
    ...(finished ? { result: { status: "completed", usage: {} } } : {}),
  }) as unknown as StoredRun;

describe("a journal drawn as it grows", () => {
  it("draws what the whole journal draws, after each append (top run and a run kept inside it)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(entry, { maxLength: 6 }), { maxLength: 8 }), fc.boolean(), fc.boolean(), (appends, top, finish) => {
        const drawing = new JournalDrawing(top);
        const journal: JournalEntry[] = [];
        appends.forEach((appended, index) => {
          for (const make of appended) journal.push(make(10 + journal.length));
          const finished = finish && index === appends.length - 1;
          drawing.draw(run([...journal], finished));
          expect(drawing.events).toEqual(journalEvents(run([...journal], finished), top));
        });
      }),
      { numRuns: 300, seed: 54 },
    );
  });
});

import fc from "fast-check";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckpointStore, JournalEntry } from "../journal/checkpoint-store.js";
import { memoryStore } from "../journal/memory-store.js";
import { sqliteStore } from "../stores/sqlite/index.js";
import { childrenOf } from "../strategies/stored-runs.js";
import { RunReading } from "./run-reading.js";

/** What a stream read before its copy: the run whole, and the runs kept inside it whole. */
async function readWhole(store: CheckpointStore, runId: string) {
  const run = await store.getRun(runId);
  return run === undefined ? undefined : { run, children: await childrenOf(store, runId) };
}

const entry = (index: number): JournalEntry => ({
  kind: "step-start",
  stepKey: String(index),
  attempt: 1,
  idempotencyKey: `k${index}`,
  at: index,
});
const runs = ["top", "top/plan:1", "top/plan:2", "top/plan:1/3"] as const;
/** A write to one of the runs: entries appended (the run made first if need be), or the run finished. */
const write = fc.record({ run: fc.constantFrom(...runs), entries: fc.nat({ max: 3 }), finish: fc.boolean() });

/** Makes the run if need be, then appends and finishes as told (not to a finished run); says what it changed. */
async function applyWrite(store: CheckpointStore, { run, entries, finish }: { run: string; entries: number; finish: boolean }, at: number) {
  const created = (await store.createRun({ runId: run, entry: "executePlan", at })) === "created";
  if ((await store.getRun(run))?.status === "finished") return { created, wrote: false };
  if (entries > 0)
    await store.append(
      run,
      Array.from({ length: entries }, (_, index) => entry(at * 10 + index)),
      at,
    );
  if (finish) await store.finishRun(run, { status: "completed", at }, at);
  return { created, wrote: entries > 0 || finish };
}

describe("a stream's copy of its run (RunReading)", () => {
  for (const [name, open] of [
    ["memory", () => memoryStore()],
    ["SQLite", () => sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-reading-")), "runs.sqlite") })],
  ] as const)
    it(`reads what a whole read gives, after any writes to the run and the runs kept inside it (${name})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(write, { maxLength: 4 }), { maxLength: 8 }), async (looks) => {
          const store: CheckpointStore = open();
          const reading = new RunReading(store, "top");
          expect(await reading.read()).toBeUndefined();
          await store.createRun({ runId: "top", entry: "planAndExecute", at: 1 });
          let at = 2;
          for (const writes of looks) {
            for (const each of writes) await applyWrite(store, each, (at += 1));
            expect(await reading.read()).toEqual(await readWhole(store, "top"));
          }
          await store.close();
        }),
        { numRuns: 60, seed: 54 },
      );
    });

  it("told which writes were to kept runs, reads what a whole read gives and lists kept runs only after such a write", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(write, { maxLength: 4 }), { maxLength: 8 }), async (looks) => {
        const inner = memoryStore();
        let listed = 0;
        const store: CheckpointStore = { ...inner, listRuns: (filters) => (listed++, inner.listRuns(filters)) };
        // As a stream's KeptChanges: set at first and by each write (making a run, too) to a run kept inside.
        let keptChanged = true;
        const reading = new RunReading(store, "top");
        reading.keptChanged = () => {
          const changed = keptChanged;
          keptChanged = false;
          return changed;
        };
        await store.createRun({ runId: "top", entry: "planAndExecute", at: 1 });
        expect(await reading.read()).toEqual(await readWhole(inner, "top"));
        let at = 2;
        for (const writes of looks) {
          let wroteKept = false;
          for (const each of writes) {
            const { created, wrote } = await applyWrite(store, each, (at += 1));
            if (each.run !== "top" && (created || wrote)) keptChanged = wroteKept = true;
          }
          listed = 0;
          const read = await reading.read();
          expect(listed).toBe(wroteKept ? 1 : 0);
          expect(read).toEqual(await readWhole(inner, "top"));
        }
      }),
      { numRuns: 60, seed: 54 },
    );
  });
});

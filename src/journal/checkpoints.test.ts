import { describe, expect, it } from "vitest";
import { memoryStore } from "./memory-store.js";
import { type CheckpointStore, type JournalEntry } from "./checkpoint-store.js";
import { Checkpoints } from "./checkpoint-writer.js";

/** A memory store whose appends take a turn of the event loop, as a store across a network does. */
function slowStore(): { store: CheckpointStore; appends: JournalEntry[][] } {
  const inner = memoryStore();
  const appends: JournalEntry[][] = [];
  const store: CheckpointStore = {
    ...inner,
    append: async (runId, entries, at) => {
      appends.push([...entries]);
      await new Promise((resolve) => setImmediate(resolve));
      inner.append(runId, entries, at);
    },
  };
  return { store, appends };
}

const start = (stepKey: string): JournalEntry => ({ kind: "step-start", stepKey, attempt: 1, idempotencyKey: stepKey });

describe("Checkpoints", () => {
  it("commits made while an append is in flight share the next append, and each resolves only once its entries are stored", async () => {
    const { store, appends } = slowStore();
    store.createRun({ runId: "r", entry: "executePlan", at: 0 });
    const checkpoints = new Checkpoints({ store, runId: "r" });
    const committed = Array.from({ length: 8 }, (_, index) => {
      checkpoints.write([start(String(index))]);
      return Promise.resolve(checkpoints.commit()).then(async () => ((await store.getRun("r"))?.journal ?? []).length);
    });
    const seen = await Promise.all(committed);
    expect(appends.map((entries) => entries.length)).toEqual([1, 7]);
    seen.forEach((stored, index) => expect(stored, `commit ${index}`).toBeGreaterThan(index));
    expect((await store.getRun("r"))?.journal.map((entry) => (entry as { stepKey: string }).stepKey)).toEqual(
      Array.from({ length: 8 }, (_, index) => String(index)),
    );
  });

  it("a synchronous store is written at once, and finish commits what is buffered before the run is marked finished", async () => {
    const store = memoryStore();
    store.createRun({ runId: "r", entry: "executePlan", at: 0 });
    const checkpoints = new Checkpoints({ store, runId: "r" });
    checkpoints.write([start("a")]);
    expect(checkpoints.commit()).toBeUndefined();
    expect(store.getRun("r")).toMatchObject({ journal: [start("a")] });
    checkpoints.write([start("b")]);
    await checkpoints.finish({ status: "completed" });
    expect(store.getRun("r")).toMatchObject({ status: "finished", journal: [start("a"), start("b")] });
  });
});

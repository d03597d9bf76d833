import { describe, expect, it } from "vitest";
import type { RunSummary } from "../journal/checkpoint-store.js";
import { memoryStore } from "../journal/memory-store.js";
import { toldWrites } from "./told-writes.js";

describe("a store that tells of this process's writes (toldWrites)", () => {
  it("tells of a run made, an append and a finish once each is in the store, not of a write refused, and is the store otherwise", async () => {
    const inner = memoryStore();
    const told: Array<{ runId: string; entries: number | undefined }> = [];
    const store = toldWrites(inner, (runId) => told.push({ runId, entries: (inner.listRuns({ runId }) as RunSummary[])[0]?.entries }));
    expect(await store.createRun({ runId: "r", entry: "executePlan", at: 1 })).toBe("created");
    expect(told).toEqual([{ runId: "r", entries: 0 }]);
    // A run already there was not made: nothing to tell.
    expect(await store.createRun({ runId: "r", entry: "executePlan", at: 1 })).toBe("exists");
    expect(told).toHaveLength(1);
    await store.append("r", [{ kind: "plan", version: 1, plan: { steps: [] } }], 2);
    await store.finishRun("r", { status: "completed" }, 3);
    // Told after the write: what a stream then reads has it.
    expect(told).toEqual([
      { runId: "r", entries: 0 },
      { runId: "r", entries: 1 },
      { runId: "r", entries: 1 },
    ]);
    expect(() => store.append("r", [], 4)).toThrow(/has finished/);
    expect(told).toHaveLength(3);
    expect((await store.getRun("r"))?.status).toBe("finished");
    expect(store.dueRuns?.({ at: 10, limit: 5 })).toEqual([]);
    expect(store.getRunFrom).toBeTypeOf("function");
  });
});

import { describe, expect, it } from "vitest";
import { memoryStore, RunBusyError, type CheckpointStore } from "../index.js";
import { recordLaunch } from "./stored-runs.js";

const launch = { runId: "launched-1", entry: "executePlan", argv: ["run", "plan.json"] };

describe("recordLaunch", () => {
  it("writes the launch line under the run's lease, and gives the lease up for the run to take", async () => {
    const store = memoryStore();
    expect(await recordLaunch(store, launch)).toBe("launched-1");
    expect((await store.getRun("launched-1"))!.journal).toEqual([{ kind: "launch", argv: launch.argv, cwd: process.cwd() }]);
    expect(await store.acquireLease("launched-1", { owner: "the run", ttlMs: 1_000, at: Date.now() })).toMatchObject({ kind: "acquired" });
  });

  it("writes nothing when another process took the new run first: that process's run is not written into", async () => {
    const store = memoryStore();
    const raced: CheckpointStore = {
      ...store,
      createRun: async (run) => {
        const answer = await store.createRun(run);
        await store.acquireLease(run.runId, { owner: "another process", ttlMs: 60_000, at: Date.now() });
        return answer;
      },
    };
    await expect(recordLaunch(raced, launch)).rejects.toBeInstanceOf(RunBusyError);
    expect((await store.getRun("launched-1"))!.journal).toEqual([]);
  });
});

// planloop/testing's crashTest (issue 27 §6, issue 44 item 11) on a 30-step plan: killed with
// SIGKILL after chosen commit points and continued by id until done, no step that had finished
// runs again and no side-effecting call runs again unasked; killed inside each call of
// sequential steps; a side-effecting call run twice in one process is reported; and the helper
// fails a scenario that keeps nothing.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crashTest } from "planloop/testing";
import { testRoot } from "../helpers/paths.js";

const module = join(testRoot, "fixtures", "crash-scenario.ts");
const sequence = join(testRoot, "fixtures", "crash-sequence.ts");
const nodeArgs = ["--import", "tsx"];

describe("crashTest", () => {
  it("kills a 30-step plan after chosen commits and continues it: every finished step ran once, no wire was sent twice unasked", async () => {
    const report = await crashTest({ module, nodeArgs, killPoints: 5, seed: 3 });
    expect(report.problems).toEqual([]);
    expect(report.commitPoints).toBeGreaterThan(30);
    expect(report.runs).toHaveLength(5);
    for (const run of report.runs) {
      expect(run.status).toBe("completed");
      expect(run.processes).toBeGreaterThan(1);
      // Every one of the 30 steps ran, each under its own key.
      expect(run.calls).toHaveLength(30);
      for (const call of run.calls.filter((each) => each.effect === "side-effecting")) expect(call.processes.length).toBeLessThanOrEqual(2);
    }
  });

  it("kills inside every call of sequential steps too: the wire killed right after it sent is asked about, not sent again unasked", async () => {
    const report = await crashTest({ module: sequence, nodeArgs, killPoints: "every" });
    expect(report.problems).toEqual([]);
    expect(report.callPoints).toBe(3);
    const inCalls = report.runs.filter((run) => run.killedInCall !== undefined);
    expect(inCalls.map((run) => run.killedInCall)).toEqual([1, 2, 3]);
    const wire = inCalls.find((run) => run.killedInCall === 2)!;
    // Killed with the wire sent and its end not kept: the next process asked, the one after ran it again as answered.
    expect(wire.calls.find((call) => call.tool === "wire")!.processes).toEqual([1, 3]);
    expect(wire.status).toBe("completed");
  });

  it("reports a side-effecting call run twice within one process (a retry of a wire that may have gone out)", async () => {
    process.env.PLANLOOP_CRASH_LYING_WIRE = "1";
    try {
      const report = await crashTest({ module: sequence, nodeArgs, killPoints: 1, seed: 1 });
      expect(report.problems).toContain("clean: side-effecting wire (clean/send) ran more than once in process 1");
    } finally {
      delete process.env.PLANLOOP_CRASH_LYING_WIRE;
    }
  });

  it("fails a scenario that does not pass the store on: nothing it does could survive a crash", async () => {
    process.env.PLANLOOP_CRASH_FORGETFUL = "1";
    try {
      const report = await crashTest({ module, nodeArgs, killPoints: 1, seed: 1 });
      expect(report.problems).toEqual([
        "the uninterrupted run wrote no checkpoint: spread start's options (store, runId, lease) into the entry point's",
      ]);
      expect(report.runs).toEqual([]);
    } finally {
      delete process.env.PLANLOOP_CRASH_FORGETFUL;
    }
  });
});

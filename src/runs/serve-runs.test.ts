import { describe, expect, it } from "vitest";
import { RunBusyError } from "../core/errors.js";
import { executePlan } from "../executor/execute-plan.js";
import { memoryStore } from "../journal/memory-store.js";
import { type CheckpointStore } from "../journal/checkpoint-store.js";
import { runPage } from "../ui/run-rows.js";
import { leftAloneReasons } from "./left-alone.js";
import { RunService, type ContinueRequest } from "./serve-runs.js";

/** Runs that wait a moment: due once the pass looks a second later. */
async function dueRuns(store: CheckpointStore, ids: string[]): Promise<void> {
  for (const runId of ids) {
    const result = await executePlan({ plan: { steps: [{ id: 1, task: "a moment", wait: { forMs: 10 } }] }, tools: [], store, runId });
    expect(result.status).toBe("waiting");
  }
}

/** A continueRun whose calls wait until released, recording who was called and how many at once. */
function gatedContinue() {
  const called: string[] = [];
  const open = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const continueRun = async ({ runId }: ContinueRequest) => {
    called.push(runId);
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => open.set(runId, resolve));
    running -= 1;
  };
  const release = (runId: string) => open.get(runId)?.();
  const until = async (count: number) => {
    for (let turn = 0; turn < 100 && called.length < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  return { continueRun, called, release, until, most: () => most };
}

describe("the service loop", () => {
  it("continues due runs side by side: one whose wait is over does not wait behind another's continuation", async () => {
    const store = memoryStore();
    await dueRuns(store, ["slow", "quick"]);
    const gate = gatedContinue();
    const service = new RunService({ store, continueRun: gate.continueRun });
    await service.pass(Date.now() + 1_000);
    await gate.until(2);
    // The first is still in hand; the second was continued anyway.
    expect(gate.called.sort()).toEqual(["quick", "slow"]);
    expect(service.continuing.sort()).toEqual(["quick", "slow"]);
    // Another pass while they go on continues neither again.
    await service.pass(Date.now() + 1_000);
    expect(gate.called).toHaveLength(2);
    gate.release("quick");
    gate.release("slow");
    await service.settled();
    expect(service.continuing).toEqual([]);
  });

  it("keeps to its concurrency: of five due runs, two at a time", async () => {
    const store = memoryStore();
    const ids = ["r1", "r2", "r3", "r4", "r5"];
    await dueRuns(store, ids);
    const gate = gatedContinue();
    const service = new RunService({ store, continueRun: gate.continueRun, concurrency: 2 });
    await service.pass(Date.now() + 1_000);
    for (let released = 0; released < ids.length; released += 1) {
      await gate.until(Math.min(ids.length, released + 2));
      expect(gate.called).toHaveLength(Math.min(ids.length, released + 2));
      gate.release(gate.called[released]!);
    }
    await service.settled();
    expect(gate.called.sort()).toEqual(ids);
    expect(gate.most()).toBe(2);
  });

  it("tries a busy run again on the next pass, and leaves alone (saying so once) a run it cannot continue", async () => {
    const store = memoryStore();
    await dueRuns(store, ["busy", "broken"]);
    const calls: string[] = [];
    const warnings: string[] = [];
    const service = new RunService({
      store,
      warn: (line) => warnings.push(line),
      continueRun: async ({ runId }) => {
        calls.push(runId);
        if (runId === "busy") throw new RunBusyError(runId, { owner: "elsewhere", expiresAt: 0 });
        throw new Error("its tools module is gone");
      },
    });
    for (let pass = 0; pass < 3; pass += 1) {
      await service.pass(Date.now() + 1_000);
      await service.settled();
    }
    expect(calls.filter((id) => id === "busy")).toHaveLength(3);
    expect(calls.filter((id) => id === "broken")).toHaveLength(1);
    expect(warnings).toEqual(["run broken: its tools module is gone; left alone from now"]);
  });

  it("says what it needs for a run started by a program when it has no continueRun", async () => {
    const store = memoryStore();
    await dueRuns(store, ["program"]);
    const warnings: string[] = [];
    const service = new RunService({ store, warn: (line) => warnings.push(line) });
    await service.pass(Date.now() + 1_000);
    await service.settled();
    expect(warnings).toEqual([
      "run program: it was started by executePlan: give serveRuns a continueRun that calls it again; left alone from now",
    ]);
  });

  it("backs off a continuation that leaves the run as it was, and after five in a row leaves it alone, noted in the store", async () => {
    const store = memoryStore();
    await dueRuns(store, ["crashing"]);
    let clock = Date.now() + 1_000;
    const calledAt: number[] = [];
    const warnings: string[] = [];
    const service = new RunService({
      store,
      now: () => clock,
      startRetries: { firstDelayMs: 100 },
      warn: (line) => warnings.push(line),
      // A command that exits before the run moves (its tools module exits on import), its last line kept.
      continueRun: async () => {
        calledAt.push(clock);
        return { lastLine: "no TOOL_TOKEN set" };
      },
    });
    // Ten simulated seconds, a pass every 10 ms (before the fix: 878 continuations).
    for (let pass = 0; pass < 1_000; pass += 1, clock += 10) {
      await service.pass();
      await service.settled();
    }
    expect(calledAt.slice(1).map((at, index) => at - calledAt[index]!)).toEqual([100, 200, 400, 800]);
    const reason = "its command stopped before the run moved, 5 times in a row (no TOOL_TOKEN set)";
    expect(warnings.at(-1)).toBe(`run crashing: ${reason}; left alone from now`);
    expect(warnings[0]).toBe(
      "run crashing: its command stopped before the run moved (no TOOL_TOKEN set); trying again in 100 ms (failed start 1)",
    );
    // The faces read it: runs list and show, the ui's rows.
    expect((await leftAloneReasons(store, await store.listRuns({ runId: "crashing" }))).get("crashing")).toBe(reason);
    expect((await runPage(store, { limit: 10 })).waiting[0]).toMatchObject({ runId: "crashing", leftAlone: reason });
  });

  it("starts the count again once a continuation moves the run", async () => {
    const store = memoryStore();
    const plan = {
      steps: [
        { id: 1, task: "a moment", wait: { forMs: 10 } },
        { id: 2, task: "another", wait: { forMs: 10 }, depends_on: [1] },
      ],
    };
    expect((await executePlan({ plan, tools: [], store, runId: "flaky" })).status).toBe("waiting");
    let clock = Date.now() + 1_000;
    let calls = 0;
    const warnings: string[] = [];
    const service = new RunService({
      store,
      now: () => clock,
      startRetries: { firstDelayMs: 100, attempts: 3 },
      warn: (line) => warnings.push(line),
      // Two failed starts, then one that runs (the run moves on to its second wait), then failed ones again.
      continueRun: async ({ runId }) => {
        calls += 1;
        if (calls === 3) expect((await executePlan({ plan, tools: [], store, runId })).status).toBe("waiting");
      },
    });
    for (let pass = 0; pass < 500; pass += 1, clock += 10) {
      await service.pass();
      await service.settled();
    }
    expect(calls).toBe(2 + 1 + 3);
    expect(warnings.map((line) => /failed start (\d)|left alone/.exec(line)?.[0])).toEqual([
      "failed start 1",
      "failed start 2",
      "failed start 1",
      "failed start 2",
      "left alone",
    ]);
  });

  it("stops passing when its signal aborts, and resolves once the runs in hand are done", async () => {
    const store = memoryStore();
    await dueRuns(store, ["one"]);
    const stop = new AbortController();
    let finished = false;
    const service = new RunService({
      store,
      tickMs: 5,
      signal: stop.signal,
      continueRun: async () => {
        stop.abort();
        await new Promise((resolve) => setTimeout(resolve, 20));
        finished = true;
      },
    });
    // The run is due only a little later: the loop's own passes find it.
    await service.run();
    expect(finished).toBe(true);
  });
});

// The run host answers only for what it will do (outside review of issue 53): a run it queues
// behind its other runs holds its lease while it waits, so a decision sent meanwhile is refused
// as busy, not answered and then lost; a server whose tools do not fit a run's plan (a rolling
// deploy) refuses its decisions instead of answering 202 and running nothing.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, RunBusyError, takeDecisions } from "planloop";
import { CannotContinueError, RunHost } from "../../src/runs/run-host.js";
import { decideRun } from "../../src/runs/decide-run.js";
import { keepDecided, keptDecided } from "../../src/runs/hosted-request.js";
import { refundTool } from "../helpers/refund-tool.js";

const refundPlan = { steps: [{ id: 1, task: "refund A1", tool: "refund", args: { order: "A1" } }] };

async function untilWaiting(host: RunHost, store: ReturnType<typeof memoryStore>, runId: string) {
  await host.settled(runId);
  for (let look = 0; look < 200 && (await store.getRun(runId))?.journal.every((entry) => entry.kind !== "paused"); look += 1)
    await new Promise((resolve) => setImmediate(resolve));
}

describe("the run host", () => {
  it("holds a queued run's lease while it waits for a place: a decision sent meanwhile is refused as busy", async () => {
    const store = memoryStore();
    const { refund } = refundTool();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const hold = defineTool({ name: "hold", description: "Holds its run", input: z.object({}), execute: () => gate.then(() => "held") });
    const host = new RunHost({ store, tools: [refund, hold], concurrency: 1 });
    await host.start({ plan: refundPlan, runId: "pay" });
    await untilWaiting(host, store, "pay");
    await host.start({ plan: { steps: [{ id: 1, task: "hold", tool: "hold", args: {} }] }, runId: "busy" });
    // "pay" is woken (its owner gone, say) and waits behind "busy" for the one place.
    const { done } = await host.continue("pay");
    const refused = await takeDecisions({ store, runId: "pay", decisions: { pendingId: "step:1", action: "approve" }, by: "ana" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RunBusyError);
    open();
    await done;
    await host.close();
  });

  it("refuses a decision on a run whose plan does not fit its tools: nothing decided, the lease given back", async () => {
    const store = memoryStore();
    const { refund } = refundTool();
    const first = new RunHost({ store, tools: [refund] });
    await first.start({ plan: refundPlan, runId: "pay" });
    await untilWaiting(first, store, "pay");
    await first.close();
    const other = new RunHost({
      store,
      tools: [defineTool({ name: "echo", description: "Echo", input: z.object({}), execute: () => "echo" })],
    });
    await expect(other.decide("pay", { decisions: { pendingId: "step:1", action: "approve" }, by: "ana" })).rejects.toBeInstanceOf(
      CannotContinueError,
    );
    expect(await other.cannotContinue("pay")).toContain("its plan does not check against this server's tools");
    const run = await store.getRun("pay");
    expect(run!.journal.filter((entry) => entry.kind === "human-decision")).toEqual([]);
    // The lease it took for the decision is given back: the first server decides it.
    const again = new RunHost({ store, tools: [refund] });
    await (
      await again.decide("pay", { decisions: { pendingId: "step:1", action: "approve" }, by: "ana" })
    ).done;
    expect((await store.getRun("pay"))?.status).toBe("finished");
  });

  it("goes on with decisions a server answered as taken and died before the run went on with; a planted, unsigned one is not taken", async () => {
    const secret = "a server secret of 32 characters";
    for (const planted of [false, true]) {
      const store = memoryStore();
      const { refund, refunds } = refundTool();
      const first = new RunHost({ store, tools: [refund], secret });
      await first.start({ plan: refundPlan, runId: "pay" });
      await untilWaiting(first, store, "pay");
      await first.close();
      // What the first server kept before it answered 202, and then died: the same, or a store writer's own.
      const decided = decideRun({
        run: { runId: "pay", pending: [{ id: "step:1", kind: "approval" }] },
        decisions: { pendingId: "step:1", action: "approve" },
        by: "ana",
      });
      await keepDecided(store, "pay", decided, planted ? undefined : secret);
      const adopting = new RunHost({ store, tools: [refund], secret });
      await (
        await adopting.continue("pay")
      ).done;
      if (planted) {
        expect(refunds).toEqual([]);
        expect((await store.getRun("pay"))?.status).toBe("running");
      } else {
        expect(refunds).toEqual(["A1 pay/1"]);
        const kept = (await store.getRun("pay"))!.journal.filter((entry) => entry.kind === "human-decision");
        expect(kept).toMatchObject([{ id: "step:1", by: "ana" }]);
        expect(await keptDecided(store, "pay", secret)).toBeUndefined();
      }
    }
  });
});

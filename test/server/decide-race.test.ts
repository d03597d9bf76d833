// Two servers over one store (two processes' connections to one SQLite file): a decision answered
// 202 is one the run goes on with. Found by an outside review: a decision sent to a second server
// while the first was continuing the run was answered 202 "decided", and its continuation then
// failed on the run's lease, so nothing was kept. Now the server takes the run's lease and checks
// the decision under it before answering: a run another process holds is a 409.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type CheckpointStore } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { planloopClient, PlanloopApiError } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { seededRandom } from "../../src/core/seeded-random.js";

const opened: Array<{ server: RunServer; store: CheckpointStore }> = [];
let folder: string | undefined;
afterEach(async () => {
  for (const { server, store } of opened.splice(0)) {
    await server.close({ abortRuns: true });
    await store.close();
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** A refund that needs approval; refunds of orders in `held` wait until `release()`. */
function gatedRefund() {
  const refunds: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const started = new Promise<void>((resolve) => (entered = resolve));
  const held = new Set<string>();
  const refund = defineTool({
    name: "refund",
    description: "Refund an order",
    input: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => {
      if (held.has(order)) {
        entered();
        await released;
      }
      refunds.push(order);
      return `refunded ${order}`;
    },
  });
  return { refund, refunds, held, release, started };
}

/**
 * A store whose writes wait while `hold` is on: a continuation that has taken the run's lease
 * but not yet written a thing (the moment between the two, held open).
 */
function slowWrites(store: CheckpointStore) {
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let writing: (() => void) | undefined;
  const wrote = new Promise<void>((resolve) => (writing = resolve));
  const held = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== "append" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        if (gate !== undefined) writing?.();
        await gate;
        return (value as (...given: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    store: held,
    /** Holds writes until `release`; `wrote` resolves when the first held write comes. */
    hold: () => (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => ((gate = undefined), open?.()),
    wrote,
  };
}

/** Two servers, each with its own connection to one SQLite file; the first one's writes can be held (`slowWrites`). */
async function twoServers(refund: ReturnType<typeof gatedRefund>["refund"]) {
  folder = mkdtempSync(join(tmpdir(), "planloop-race-"));
  const file = join(folder, "runs.sqlite");
  const servers = [];
  let firstWrites: ReturnType<typeof slowWrites> | undefined;
  for (let index = 0; index < 2; index += 1) {
    const own = sqliteStore({ path: file });
    const writes = index === 0 ? slowWrites(own) : undefined;
    firstWrites ??= writes;
    const store = writes?.store ?? own;
    const server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    opened.push({ server, store: own });
    servers.push(planloopClient({ url: server.url, token: server.sessionToken! }));
  }
  const [first, second] = servers as [ReturnType<typeof planloopClient>, ReturnType<typeof planloopClient>];
  return { first, second, firstWrites: firstWrites! };
}

const plan = (orders: string[]) => ({
  steps: orders.map((order, index) => ({ id: index + 1, task: `refund ${order}`, tool: "refund", args: { order } })),
});

async function untilWaiting(client: ReturnType<typeof planloopClient>, runId: string, pending: number) {
  for (let look = 0; look < 2000; look += 1) {
    const view = await client.get(runId);
    if (view.status === "waiting" && view.pending.length === pending) return view;
    if (view.status === "completed" || view.status === "failed") return view;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`run ${runId} did not come to wait for ${pending}`);
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 202,
    (error: unknown) => (error instanceof PlanloopApiError ? error.status : Promise.reject(error)),
  );

describe("deciding a run two servers serve", () => {
  it("refuses (409) a decision sent to one server in the moment the other has taken the run but written nothing yet", async () => {
    const gate = gatedRefund();
    const { first, second, firstWrites } = await twoServers(gate.refund);
    await first.start({ plan: plan(["A1", "A2"]), runId: "pay" });
    await untilWaiting(first, "pay", 2);
    firstWrites.hold();
    await first.decide("pay", { pendingId: "step:1", action: "approve" });
    // The first server's continuation holds the run's lease; its first write waits.
    await firstWrites.wrote;
    // Before: the run still showed step:2 pending, so this was answered 202 and then lost on the run's lease.
    expect(await outcome(second.decide("pay", { pendingId: "step:2", action: "approve" }))).toBe(409);
    firstWrites.release();
    const view = await untilWaiting(first, "pay", 1);
    expect(view.decisions.map((each) => each.id)).toEqual(["step:1"]);
    await second.decide("pay", { pendingId: "step:2", action: "approve" });
    expect((await untilWaiting(second, "pay", 0)).status).toBe("completed");
    expect(gate.refunds.sort()).toEqual(["A1", "A2"]);
  });

  it("refuses (409) a decision sent to one server while the other continues the run: nothing is answered as taken and then lost", async () => {
    const gate = gatedRefund();
    gate.held.add("A1");
    const { first, second } = await twoServers(gate.refund);
    await first.start({ plan: plan(["A1", "A2"]), runId: "pay" });
    await untilWaiting(first, "pay", 2);
    await first.decide("pay", { pendingId: "step:1", action: "approve" });
    // The first server's continuation holds the run (its refund of A1 is still running).
    await gate.started;
    const late = await outcome(second.decide("pay", { pendingId: "step:2", action: "approve" }));
    expect(late).toBe(409);
    gate.release();
    const view = await untilWaiting(first, "pay", 1);
    // Only what was answered 202 was kept; step:2 still waits, and deciding it now is taken.
    expect(view.decisions.map((each) => each.id)).toEqual(["step:1"]);
    expect(view.pending.map((each) => each.id)).toEqual(["step:2"]);
    await second.decide("pay", { pendingId: "step:2", action: "approve" });
    const done = await untilWaiting(second, "pay", 0);
    expect(done.status).toBe("completed");
    expect(gate.refunds.sort()).toEqual(["A1", "A2"]);
  });

  it("the same approval sent to both servers at once: one answers 202, the other refuses, the refund is made once (20 seeded rounds)", async () => {
    const gate = gatedRefund();
    const { first, second } = await twoServers(gate.refund);
    const random = seededRandom(53);
    for (let round = 0; round < 20; round += 1) {
      const runId = `same-${round}`;
      await first.start({ plan: plan([`R${round}`]), runId });
      await untilWaiting(first, runId, 1);
      const approve = { pendingId: "step:1", action: "approve" as const };
      // Each side starts after a seeded delay of 0–3 ms, so the two meet in different orders and overlaps.
      const send = async (client: typeof first) => {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4)));
        return outcome(client.decide(runId, approve));
      };
      const answers = await Promise.all([send(first), send(second)]);
      expect(answers.filter((status) => status === 202)).toHaveLength(1);
      expect(answers.filter((status) => status === 409)).toHaveLength(1);
      const view = await untilWaiting(first, runId, 0);
      expect(view.status).toBe("completed");
      expect(view.decisions.map((each) => each.id)).toEqual(["step:1"]);
    }
    expect(gate.refunds).toEqual(Array.from({ length: 20 }, (_, round) => `R${round}`));
  });
});

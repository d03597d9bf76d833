// Leases and approval deadlines on the store's clock (issue 44 item 6), against a real
// PostgreSQL: a process whose clock is 40 s fast does not take a live run over, and an approver
// whose clock is 60 s slow does not release a request for approval that lapsed. (This
// process's clock is moved while the other process's part runs: `Date.now` shifted.)
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { RunBusyError, defineTool, executePlan } from "planloop";
import { postgresStore } from "planloop/postgres";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";

const realNow = Date.now.bind(Date);
/** Runs `work` as a process whose clock is `skewMs` off would. */
async function skewed<T>(skewMs: number, work: () => Promise<T>): Promise<T> {
  const spy = vi.spyOn(Date, "now").mockImplementation(() => realNow() + skewMs);
  try {
    return await work();
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(skipPostgres)("the store's clock", () => {
  it("reads the server's time", async () => {
    const store = postgresStore({ connectionString: await freshDatabase() });
    expect(Math.abs((await store.now!()) - Date.now())).toBeLessThan(2_000);
    await store.close();
  });

  it("a process 40 s fast does not take over a run whose owner holds its lease", async () => {
    const connectionString = await freshDatabase();
    const calls: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = defineTool({
      name: "slow",
      description: "Holds until released",
      input: z.object({}),
      execute: async (_args, { idempotencyKey }) => {
        calls.push(String(idempotencyKey));
        await held;
        return "done";
      },
    });
    const plan = { steps: [{ id: 1, task: "slow", tool: "slow", args: {} }] };
    const owner = postgresStore({ connectionString });
    const running = executePlan({ plan, tools: [slow], store: owner, runId: "skew-1", lease: { ttlMs: 5_000 } });
    for (let tries = 0; calls.length === 0 && tries < 400; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const fast = postgresStore({ connectionString });
    await expect(
      skewed(40_000, () => executePlan({ plan, tools: [slow], store: fast, runId: "skew-1", lease: { ttlMs: 5_000 } })),
    ).rejects.toThrow(RunBusyError);
    release();
    expect((await running).status).toBe("completed");
    expect(calls).toEqual(["skew-1/1"]);
    await Promise.all([owner.close(), fast.close()]);
  });

  it("an approver 60 s slow does not release a request for approval that lapsed", async () => {
    const connectionString = await freshDatabase();
    const paid: number[] = [];
    const pay = defineTool({
      name: "pay",
      description: "Pays",
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      approvalExpiresInMs: 1_000,
      execute: ({ amount }) => (paid.push(amount), `paid ${amount}`),
    });
    const plan = { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 5 } }] };
    const store = postgresStore({ connectionString });
    expect((await executePlan({ plan, tools: [pay], store, runId: "skew-2" })).status).toBe("waiting");
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const approved = await skewed(-60_000, () =>
      executePlan({ plan, tools: [pay], store, runId: "skew-2", approvals: { "step:1": { approved: true } } }),
    );
    expect(approved.steps[1]!.error).toMatch(/lapsed/);
    expect(paid).toEqual([]);
    await store.close();
  });
});

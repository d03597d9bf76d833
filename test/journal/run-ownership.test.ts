// One owner per stored run (issue 27): a second caller of a run another holds fails at once,
// naming the owner, or waits and then continues it; a stale owner's writes are refused and
// it stops; several processes continuing one run at once run every tool once.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, LeaseLostError, memoryStore, RunBusyError, RunLease, type CheckpointStore } from "planloop";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { repoRoot } from "../helpers/paths.js";

const root = repoRoot;

/** A tool that takes `ms` of real time and logs every call with its key. */
function slowTool(ms: number) {
  const calls: string[] = [];
  const tool = defineTool({
    name: "slow",
    description: "takes a while",
    input: z.object({ step: z.string() }),
    execute: async ({ step }, { idempotencyKey }) => {
      calls.push(`${step} ${idempotencyKey}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return step;
    },
  });
  return { calls, tool };
}

const chain = (length: number) => ({
  steps: Array.from({ length }, (_, index) => ({
    id: `s${index}`,
    task: "t",
    tool: "slow",
    args: { step: `s${index}` },
    depends_on: index === 0 ? [] : [`s${index - 1}`],
  })),
});

describe("one owner per stored run, in one process", () => {
  it("a second caller of a run another holds fails at once, naming the run, the owner and when its lease runs out", async () => {
    const store = memoryStore();
    const { calls, tool } = slowTool(20);
    const first = executePlan({ plan: chain(3), tools: [tool], store, runId: "owned" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = executePlan({ plan: chain(3), tools: [tool], store, runId: "owned" });
    const refused = await second.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RunBusyError);
    expect((refused as RunBusyError).runId).toBe("owned");
    expect((refused as RunBusyError).expiresAt).toBeGreaterThan(Date.now());
    expect((refused as Error).message).toMatch(/^run "owned" is being run by .+ \(its lease runs to \d{4}-.*\); nothing was started/);
    expect(await first).toMatchObject({ status: "completed" });
    expect(calls).toEqual(["s0 owned/s0", "s1 owned/s1", "s2 owned/s2"]);
  });

  it('onBusy "wait": the second caller waits for the run to be free, then hands back its result; no tool runs twice', async () => {
    const store = memoryStore();
    const { calls, tool } = slowTool(10);
    const first = executePlan({ plan: chain(3), tools: [tool], store, runId: "shared" });
    const second = executePlan({ plan: chain(3), tools: [tool], store, runId: "shared", lease: { onBusy: "wait" } });
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe("completed");
    expect(b).toEqual(JSON.parse(JSON.stringify(a)));
    expect(calls).toHaveLength(3);
  });

  it("a paused run continued twice at once with one approval refunds once", async () => {
    const store = memoryStore();
    const refunds: string[] = [];
    const refund = defineTool({
      name: "refund",
      description: "refunds",
      input: z.object({ order: z.string() }),
      needsApproval: true,
      execute: async ({ order }) => {
        refunds.push(order);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return `refunded ${order}`;
      },
    });
    const plan = { steps: [{ id: 5, task: "refund", tool: "refund", args: { order: "A7" } }] };
    expect(await executePlan({ plan, tools: [refund], store, runId: "refund-1" })).toMatchObject({ status: "waiting" });
    const approve = (lease: { onBusy: "fail" | "wait" }) =>
      executePlan({ plan, tools: [refund], store, runId: "refund-1", approvals: { "step:5": { approved: true } }, lease });
    const outcomes = await Promise.allSettled([approve({ onBusy: "fail" }), approve({ onBusy: "fail" })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: expect.any(RunBusyError) });
    // A third approver after the fact is handed the finished result: nothing runs again.
    expect(await approve({ onBusy: "wait" })).toMatchObject({ status: "completed" });
    expect(refunds).toEqual(["A7"]);
  });

  it("a stale owner's writes are refused: it stops at once, touches no tool again, and says why", async () => {
    const base = memoryStore();
    // The first owner's renewals never arrive (a process paused too long), so its lease runs out.
    let starving = true;
    const starved: CheckpointStore = { ...base, renewLease: (...args) => (starving ? false : base.renewLease(...args)) };
    const firstTool = slowTool(30);
    const first = executePlan({ plan: chain(6), tools: [firstTool.tool], store: starved, runId: "taken", lease: { ttlMs: 40 } });
    const stopped = first.then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    starving = false;
    const secondTool = slowTool(1);
    const second = await executePlan({ plan: chain(6), tools: [secondTool.tool], store: base, runId: "taken", lease: { onBusy: "wait" } });
    expect(second.status).toBe("completed");
    expect(await stopped).toBeInstanceOf(LeaseLostError);
    expect(((await stopped) as Error).message).toMatch(/^run "taken" is no longer this process's/);
    // The first owner called the first steps of the chain, and nothing once it had stopped.
    const byFirst = [...firstTool.calls];
    expect(byFirst.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(firstTool.calls).toEqual(byFirst);
    // The second ran the rest, each step once, to the end; together every step ran.
    expect(new Set(secondTool.calls).size).toBe(secondTool.calls.length);
    expect(secondTool.calls.at(-1)).toBe("s5 taken/s5");
    expect(new Set([...byFirst, ...secondTool.calls])).toEqual(new Set(chain(6).steps.map((step) => `${step.id} taken/${step.id}`)));
  });
});

/** Two processes continue the same run at once, on a real store; each tool call is logged with its process. */
async function contend(storeFlag: string, onBusy: "fail" | "wait"): Promise<{ printed: string[]; calls: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "planloop-contend-"));
  const log = join(dir, "calls.log");
  writeFileSync(log, "");
  const script = join(root, "test", "fixtures", "contend-run.ts");
  const start = (name: string) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, storeFlag, log, "contended", onBusy, name], { cwd: root });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`process ${name} exited ${code}: ${err}`))));
    });
  // A holds the run, stopped in its first step, when B opens it: B's answer does not depend on
  // how fast either process starts. A goes on once B has answered.
  const first = start("A");
  while (!readFileSync(log, "utf8").includes("A/s0")) await new Promise((resolve) => setTimeout(resolve, 10));
  const second = start("B");
  if (onBusy === "fail") await second;
  writeFileSync(`${log}.go`, "");
  const printed = await Promise.all([first, second]);
  return { printed: printed.sort(), calls: readFileSync(log, "utf8").trim().split("\n") };
}

describe.each([
  ["SQLite", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-own-")), "runs.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
] as const)("one owner per stored run, two processes on %s", (_name, skip, storeFlag) => {
  it.skipIf(skip)(
    "two processes continuing one run at once: one runs it, the other is refused; every tool ran once",
    async () => {
      const { printed, calls } = await contend(await storeFlag(), "fail");
      expect(printed).toEqual(["RunBusyError", "completed"]);
      expect(calls.map((call) => call.split("/")[1]).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `s${index}`).sort());
    },
    60_000,
  );

  it.skipIf(skip)(
    'with onBusy "wait" both finish, the second with the first one\'s result; every tool ran once',
    async () => {
      const { printed, calls } = await contend(await storeFlag(), "wait");
      expect(printed).toEqual(["completed", "completed"]);
      expect(calls).toHaveLength(10);
    },
    60_000,
  );
});

describe("SQLite shared by several processes", () => {
  it("8 processes × 100 runs on one file: every run completes", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-many-")), "runs.sqlite");
    const script = join(root, "test", "fixtures", "many-runs.ts");
    const start = (name: string) =>
      new Promise<{ completed: number; errors: string[] }>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", script, path, name, "100"], { cwd: root });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`${name} exited ${code}: ${err}`))));
      });
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => start(`p${index}`)));
    expect(results.flatMap((result) => result.errors)).toEqual([]);
    expect(results.map((result) => result.completed)).toEqual(Array.from({ length: 8 }, () => 100));
  });
});

describe("a run whose options are refused after it was opened", () => {
  it("gives its lease back at once: the caller can try again with good options", async () => {
    const store = memoryStore();
    const { tool } = slowTool(1);
    await expect(executePlan({ plan: chain(2), tools: [tool], store, runId: "bad", concurrency: 0 })).rejects.toThrow(/concurrency/);
    expect(await executePlan({ plan: chain(2), tools: [tool], store, runId: "bad" })).toMatchObject({ status: "completed" });
  });
});

describe("a lease handed on (lease: { held })", () => {
  const onePlan = { steps: [{ id: "a", task: "t", tool: "slow", args: { step: "a" } }] };

  it("the run goes on under the lease it is handed, keeps every other caller out meanwhile, and gives it up as it stops", async () => {
    const store = memoryStore();
    const { tool, calls } = slowTool(1);
    const held = await RunLease.take(store, "handed", {});
    // Held before the run starts: no one else takes the run in between.
    await expect(executePlan({ plan: onePlan, tools: [tool], store, runId: "handed" })).rejects.toBeInstanceOf(RunBusyError);
    const result = await executePlan({ plan: onePlan, tools: [tool], store, runId: "handed", lease: { held } });
    expect(result.status).toBe("completed");
    expect(calls).toEqual(["a handed/a"]);
    expect(held.held).toBe(false);
    await (await RunLease.take(store, "handed", {})).release();
  });

  it("refuses another run's lease, and one given up already", async () => {
    const store = memoryStore();
    const { tool } = slowTool(1);
    const other = await RunLease.take(store, "other", {});
    await expect(executePlan({ plan: onePlan, tools: [tool], store, runId: "mine", lease: { held: other } })).rejects.toThrow(
      /lease\.held is run "other"'s lease, not run "mine"'s/,
    );
    await other.release();
    await expect(executePlan({ plan: onePlan, tools: [tool], store, runId: "other", lease: { held: other } })).rejects.toThrow(
      /given up already/,
    );
  });
});

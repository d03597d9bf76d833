// Plan reuse across runs (planCache): a plan that succeeded is kept in the store; the next run
// of the same kind starts from it with no planner call; one that fails is replanned as usual,
// and the cache learns the plan that succeeded.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, planAndExecute, type ModelRequest } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { openSqliteFile } from "../helpers/sqlite-file.js";

const plan = (tool: string) => JSON.stringify({ steps: [{ id: 1, task: "report", tool, args: { week: "W48" } }] });

function setup() {
  const asked: ModelRequest["purpose"][] = [];
  let broken = false;
  const tools = [
    defineTool({
      name: "report",
      description: "weekly report",
      input: z.object({ week: z.string() }),
      execute: ({ week }) => {
        if (broken) throw Object.assign(new Error("the report service is down"), { retryable: false });
        return `report of ${week}`;
      },
    }),
    defineTool({
      name: "report_v2",
      description: "weekly report, the new service",
      input: z.object({ week: z.string() }),
      execute: ({ week }) => `report v2 of ${week}`,
    }),
  ];
  const planner = (request: ModelRequest) => {
    asked.push(request.purpose);
    if (request.purpose === "plan") return { type: "final" as const, content: plan("report") };
    if (request.purpose === "replan") return { type: "final" as const, content: plan("report_v2") };
    return { type: "final" as const, content: "done" };
  };
  return { asked, tools, planner, breakIt: () => (broken = true) };
}

describe("planCache", () => {
  it("the second run of a task starts from the plan that succeeded: no planner call; a plan that fails is replanned and learned", async () => {
    const { asked, tools, planner, breakIt } = setup();
    const store = memoryStore();
    const run = (task: string) => planAndExecute({ task, planner, tools, store, planCache: { key: "weekly report" } });
    expect(await run("Weekly report for W48")).toMatchObject({ status: "completed" });
    expect(asked).toEqual(["plan", "solve"]);
    asked.length = 0;
    const reused = await run("Weekly report for W48, again");
    expect(reused).toMatchObject({ status: "completed", usage: { modelCalls: 1 } });
    expect(reused.trace.map((event) => event.type)).toContain("plan-reused");
    expect(asked).toEqual(["solve"]);
    // The kept plan fails now: the run replans as usual, and the cache learns the new plan.
    breakIt();
    asked.length = 0;
    expect(await run("Weekly report for W49")).toMatchObject({ status: "completed", replans: 1 });
    expect(asked).toEqual(["replan", "solve"]);
    asked.length = 0;
    const learned = await run("Weekly report for W50");
    expect(learned.plan?.steps[0]?.tool).toBe("report_v2");
    expect(asked).toEqual(["solve"]);
  });

  it("the task's text is the key by default; a plan for tools that have changed is not used; a cache needs a store", async () => {
    const { asked, tools, planner } = setup();
    const store = memoryStore();
    await planAndExecute({ task: "Weekly  report", planner, tools, store, planCache: true });
    asked.length = 0;
    await planAndExecute({ task: "Weekly report", planner, tools, store, planCache: true });
    expect(asked).toEqual(["solve"]);
    asked.length = 0;
    await planAndExecute({ task: "Weekly report", planner, tools: tools.slice(1), store, planCache: true });
    expect(asked[0]).toBe("plan");
    await expect(planAndExecute({ task: "t", planner, tools, planCache: true })).rejects.toThrow(/planCache keeps plans in a store/);
  });

  it("keeps a plan's secret arguments as the journal does: sealed with a stateSecret, kept out without one (grep of the file and its WAL)", async () => {
    const secret = "sk-live-plan-cache-7f3a";
    const calls: unknown[] = [];
    const tools = [
      defineTool({
        name: "fetch",
        description: "fetch with a key",
        input: z.object({ url: z.string(), apiKey: z.string() }),
        execute: (args) => (calls.push(args), "fetched"),
      }),
    ];
    const secretPlan = JSON.stringify({
      steps: [{ id: 1, task: "fetch", tool: "fetch", args: { url: "https://x.test", apiKey: secret } }],
    });
    const asked: string[] = [];
    const planner = (request: ModelRequest) => {
      asked.push(request.purpose);
      return { type: "final" as const, content: request.purpose === "solve" ? "done" : secretPlan };
    };
    const dir = mkdtempSync(join(tmpdir(), "planloop-plan-cache-"));
    const inFile = (path: string) =>
      [path, `${path}-wal`].some((file) => existsSync(file) && readFileSync(file).includes(Buffer.from(secret)));
    const inValues = (path: string) => {
      const db = openSqliteFile(path);
      const rows = db.prepare("SELECT value FROM planloop_values").all() as Array<{ value: string }>;
      db.close();
      return rows.some((row) => row.value.includes(secret));
    };
    for (const stateSecret of ["a-state-secret-of-32-characters!", undefined]) {
      const path = join(dir, `${stateSecret ? "sealed" : "kept-out"}.sqlite`);
      const store = sqliteStore({ path });
      const run = () =>
        planAndExecute({ task: "fetch it", planner, tools, store, planCache: true, ...(stateSecret ? { stateSecret } : {}) });
      expect(await run()).toMatchObject({ status: "completed" });
      asked.length = 0;
      calls.length = 0;
      expect(await run()).toMatchObject({ status: "completed" });
      // Sealed: the kept plan is opened and reused with its secret; kept out: it cannot run as it was, so the run plans.
      expect(asked).toEqual(stateSecret ? ["solve"] : ["plan", "solve"]);
      expect(calls).toEqual([{ url: "https://x.test", apiKey: secret }]);
      // With a stateSecret nothing in the file holds it; without one the model's own texts do (docs/durable-runs.md), the cache does not.
      if (stateSecret) expect(inFile(path)).toBe(false);
      store.close();
      expect(inValues(path)).toBe(false);
      if (stateSecret) expect(inFile(path)).toBe(false);
    }
  });
});

// Durable runs: every step checkpointed, a finished run never runs again, a run killed
// mid-way continues by id and runs only what had not finished.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, runAgent, type JournalEntry } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { agentModel, crashPlan, work } from "./fixtures/crash-run.js";

const root = join(import.meta.dirname, "..");

function counting() {
  const calls: string[] = [];
  const tool = defineTool({
    name: "t",
    description: "t",
    input: z.object({ v: z.string() }),
    execute: ({ v }, { idempotencyKey }) => (calls.push(`${v} ${idempotencyKey}`), v.toUpperCase()),
  });
  return { calls, tool };
}

const plan = {
  steps: [
    { id: "a", task: "a", tool: "t", args: { v: "a" } },
    { id: "b", task: "b", tool: "t", args: { v: "${a}" }, depends_on: ["a"] },
    { id: "c", task: "c", tool: "t", args: { v: "c" } },
  ],
};

describe("durable executePlan", () => {
  it("a finished run's id hands back its stored result and runs nothing", async () => {
    const store = memoryStore();
    const { calls, tool } = counting();
    const first = await executePlan({ plan, tools: [tool], store, runId: "r1" });
    expect(first).toMatchObject({ status: "completed", runId: "r1" });
    expect(calls).toEqual(["a r1/a", "A r1/b", "c r1/c"]);
    const again = await executePlan({ plan, tools: [tool], store, runId: "r1" });
    expect(again).toEqual(JSON.parse(JSON.stringify(first)));
    expect(calls).toHaveLength(3);
    expect(store.getRun("r1")).toMatchObject({ status: "finished" });
  });

  it("continues from the journal: a step that ended is not run again, one that only started runs again with the same key", async () => {
    const store = memoryStore();
    store.createRun({ runId: "r2", entry: "executePlan", at: 0 });
    const journal: JournalEntry[] = [
      { kind: "plan", version: 1, plan },
      { kind: "step-start", stepKey: "a", attempt: 1, idempotencyKey: "r2/a" },
      { kind: "step-end", stepKey: "a", record: { status: "succeeded", output: "A", attempts: 1 } },
      { kind: "step-start", stepKey: "b", attempt: 1, idempotencyKey: "r2/b" },
    ];
    store.append("r2", journal, 1);
    const { calls, tool } = counting();
    const result = await executePlan({ plan, tools: [tool], store, runId: "r2" });
    expect(result).toMatchObject({ status: "completed", output: { b: "A", c: "C" } });
    expect(calls.sort()).toEqual(["A r2/b", "c r2/c"]);
  });

  it("options that are not an object, and a bad runId, are refused with a message that says so", async () => {
    await expect(executePlan(undefined as never)).rejects.toThrow("executePlan needs an options object");
    await expect(runAgent(null as never)).rejects.toThrow("runAgent needs an options object");
    await expect(executePlan({ plan, tools: [], runId: "" })).rejects.toThrow("runId must be a non-empty string");
  });

  it("every run has an id, generated when none is given", async () => {
    const { tool } = counting();
    const result = await executePlan({ plan, tools: [tool] });
    expect(result.runId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("survives SIGKILL at random moments: every step succeeds once, runs again only after a kill that cut it short, always with the same key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-crash-"));
    const database = join(dir, "runs.sqlite");
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    const script = join(root, "test", "fixtures", "crash-run.ts");
    const start = () => spawn(process.execPath, ["--import", "tsx", script, database, log, "crashing"], { cwd: root });
    const exit = (child: ReturnType<typeof start>) => new Promise<number | null>((resolve) => child.on("close", resolve));
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed / 2 ** 31);
    let kills = 0;
    let finished = false;
    for (let round = 0; round < 40 && !finished; round += 1) {
      const child = start();
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const before = readFileSync(log, "utf8").length;
      if (kills < 5) {
        // Kill it once it has started some work: after a random number of new calls.
        const wanted = 1 + Math.floor(random() * 12);
        const timer = setInterval(() => {
          const lines = readFileSync(log, "utf8").slice(before).split("\n").filter(Boolean).length;
          if (lines >= wanted && child.exitCode === null) child.kill("SIGKILL");
        }, 5);
        await exit(child);
        clearInterval(timer);
        if (child.signalCode === "SIGKILL") kills += 1;
        else finished = JSON.parse(output.trim() || "{}").status === "completed";
      } else {
        expect(await exit(child)).toBe(0);
        finished = JSON.parse(output).status === "completed";
      }
    }
    expect(kills).toBeGreaterThanOrEqual(5);
    expect(finished).toBe(true);

    const store = sqliteStore({ path: database });
    const run = (await store.getRun("crashing"))!;
    store.close();
    expect(run.status).toBe("finished");
    const steps = crashPlan().steps.map((step) => step.id);
    const ends = run.journal.filter((entry) => entry.kind === "step-end" && (entry.record as { status: string }).status === "succeeded");
    for (const id of steps)
      expect(
        ends.filter((entry) => entry.kind === "step-end" && entry.stepKey === id),
        id,
      ).toHaveLength(1);
    const calls = readFileSync(log, "utf8").trim().split("\n");
    for (const id of steps.filter((step) => step !== "agent")) {
      const mine = calls.filter((line) => line.split("/")[1] === id);
      expect(mine.length, id).toBeGreaterThanOrEqual(1);
      expect(new Set(mine).size, id).toBe(1); // the same key every time
      // One call more only for each kill that cut a call of this step short: every call but
      // the last started and never ended.
      const journal = run.journal.filter((entry) => (entry.kind === "step-start" || entry.kind === "step-end") && entry.stepKey === id);
      expect(
        journal.filter((entry) => entry.kind === "step-start"),
        id,
      ).toHaveLength(mine.length);
      expect(
        journal.filter((entry) => entry.kind === "step-end"),
        id,
      ).toHaveLength(1);
      expect(journal.at(-1)?.kind, id).toBe("step-end");
      expect(mine.length - 1, id).toBeLessThanOrEqual(kills);
    }

    const clean = memoryStore();
    const uninterrupted = await executePlan({
      plan: crashPlan(),
      tools: [work(join(dir, "clean.log"), "clean"), lookupFor()],
      model: agentModel,
      store: clean,
    });
    expect((run.result as { output: unknown }).output).toEqual(uninterrupted.output);
  }, 120_000);
});

function lookupFor() {
  return defineTool({ name: "lookup", description: "looks up", input: z.object({ q: z.string() }), execute: ({ q }) => `found ${q}` });
}

describe("durable runAgent", () => {
  const lookup = () => {
    const calls: string[] = [];
    const tool = defineTool({
      name: "lookup",
      description: "looks up",
      input: z.object({ q: z.string() }),
      execute: ({ q }, { idempotencyKey }) => (calls.push(`${q} ${idempotencyKey}`), `found ${q}`),
    });
    return { calls, tool };
  };

  it("a finished loop's id hands back its result without asking the model", async () => {
    const store = memoryStore();
    const { calls, tool } = lookup();
    let asked = 0;
    const model = async () =>
      ++asked === 1
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "lookup", arguments: { q: "A1" } }] }
        : { type: "final" as const, content: "done" };
    const first = await runAgent({ model, tools: [tool], task: "t", store, runId: "loop-1" });
    expect(first).toMatchObject({ status: "completed", output: "done", runId: "loop-1" });
    expect(calls).toEqual(["A1 loop-1/call:0:0"]);
    const again = await runAgent({ model, tools: [tool], task: "t", store, runId: "loop-1" });
    expect(again.output).toBe("done");
    expect(asked).toBe(2);
    expect(calls).toHaveLength(1);
  });

  it("a loop that died after a decision does not ask for it again; its calls that ended are not run again, one that did not runs with the same key", async () => {
    const store = memoryStore();
    const { calls, tool } = lookup();
    // First process: the model decides two calls; the process "dies" after the first one ends.
    let asked = 0;
    const deciding = async () => (
      asked++,
      {
        type: "tool_calls" as const,
        calls: [
          { id: "c1", name: "lookup", arguments: { q: "A" } },
          { id: "c2", name: "lookup", arguments: { q: "B" } },
        ],
      }
    );
    const dying = defineTool({
      name: "lookup",
      description: "looks up",
      input: z.object({ q: z.string() }),
      execute: async ({ q }, { idempotencyKey }) => {
        calls.push(`${q} ${idempotencyKey}`);
        if (q === "B") await new Promise(() => {}); // the process dies while B runs
        return `found ${q}`;
      },
    });
    void runAgent({ model: deciding, tools: [dying], task: "t", store, runId: "loop-2", toolConcurrency: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual(["A loop-2/call:0:0", "B loop-2/call:0:1"]);
    // Second process: the same id continues; the model is asked only for the next turn.
    let askedAfter = 0;
    const answering = async () => (askedAfter++, { type: "final" as const, content: "both found" });
    const result = await runAgent({ model: answering, tools: [tool], task: "t", store, runId: "loop-2" });
    expect(result).toMatchObject({ status: "completed", output: "both found" });
    expect(asked).toBe(1);
    expect(askedAfter).toBe(1);
    expect(calls).toEqual(["A loop-2/call:0:0", "B loop-2/call:0:1", "B loop-2/call:0:1"]);
    expect(result.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual(["found A", "found B"]);
  });
});

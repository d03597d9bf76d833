// Rerun from a step: a new run of the plan that reuses what succeeded before the step and
// runs the step (with new arguments, if given) and every step after it again.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, forkRun, memoryStore, planAndExecute } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { sqliteStore } from "planloop/sqlite";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

function loggedTools() {
  const calls: string[] = [];
  const echo = defineTool({
    name: "echo",
    description: "Echo a word",
    input: z.object({ word: z.string() }),
    execute: ({ word }, { idempotencyKey }) => (calls.push(`${word} ${idempotencyKey}`), word.toUpperCase()),
  });
  return { calls, tools: [echo] };
}

// a -> b -> c, and d on its own.
const plan = {
  steps: [
    { id: "a", task: "a", tool: "echo", args: { word: "a" } },
    { id: "b", task: "b", tool: "echo", args: { word: "${a}" }, depends_on: ["a"] },
    { id: "c", task: "c", tool: "echo", args: { word: "c-${b}" }, depends_on: ["b"] },
    { id: "d", task: "d", tool: "echo", args: { word: "d" } },
  ],
};

describe("forkRun", () => {
  it("reruns the step and the steps after it; the steps before it and beside it are reused, not run", async () => {
    const store = memoryStore();
    const first = loggedTools();
    expect((await executePlan({ plan, tools: first.tools, store, runId: "src" })).status).toBe("completed");
    const fork = await forkRun(store, { from: "src", step: "b", runId: "again" });
    expect(fork).toMatchObject({ runId: "again", rerun: ["b", "c"], reused: expect.arrayContaining(["a", "d"]) });
    const second = loggedTools();
    const result = await executePlan({ plan: fork.plan, tools: second.tools, store, runId: "again" });
    expect(result.status).toBe("completed");
    expect(second.calls.sort()).toEqual(["A again/b", "c-A again/c"]);
    expect(result.steps.a!.output).toBe("A");
    expect(result.steps.c!.output).toBe("C-A");
    const journal = (await store.getRun("again"))!.journal;
    expect(journal).toContainEqual({ kind: "forked", from: "src", step: "b" });
    // The source is left as it was.
    expect((await store.getRun("src"))!.status).toBe("finished");
  });

  it("runs the step with new arguments, checked like any plan", async () => {
    const store = memoryStore();
    await executePlan({ plan, tools: loggedTools().tools, store, runId: "src2" });
    const fork = await forkRun(store, { from: "src2", step: "b", args: { word: "changed" } });
    const again = loggedTools();
    const result = await executePlan({ plan: fork.plan, tools: again.tools, store, runId: fork.runId });
    expect(result.steps.c!.output).toBe("C-CHANGED");
    expect(again.calls.map((call) => call.split(" ")[0]).sort()).toEqual(["c-CHANGED", "changed"]);
    await expect(forkRun(store, { from: "src2", step: "b", args: { word: "${nowhere}" } })).rejects.toThrow(/cannot run/);
  });

  it("runs an edited plan: the steps it changes or adds run, with the steps after them; the rest is reused", async () => {
    const store = memoryStore();
    await executePlan({ plan, tools: loggedTools().tools, store, runId: "src4" });
    const edited = {
      steps: [
        ...plan.steps.filter((step) => step.id !== "d"),
        { id: "d", task: "d", tool: "echo", args: { word: "d2" } },
        { id: "e", task: "e", tool: "echo", args: { word: "e-${d}" }, depends_on: ["d"] },
      ],
    };
    const fork = await forkRun(store, { from: "src4", step: "c", plan: edited });
    expect(fork.rerun).toEqual(["c", "d", "e"]);
    expect(fork.reused.sort()).toEqual(["a", "b"]);
    const again = loggedTools();
    const result = await executePlan({ plan: fork.plan, tools: again.tools, store, runId: fork.runId });
    expect(result.steps.e!.output).toBe("E-D2");
    expect(again.calls.map((call) => call.split(" ")[0]).sort()).toEqual(["c-A", "d2", "e-D2"]);
    await expect(forkRun(store, { from: "src4", step: "c", plan: edited, args: {} })).rejects.toThrow("not both");
    await expect(forkRun(store, { from: "src4", step: "z", plan: edited })).rejects.toThrow('the plan has no step "z"');
  });

  it("says what to do for an unknown run, an unknown step, a taken id and a strategy run", async () => {
    const store = memoryStore();
    await executePlan({ plan, tools: loggedTools().tools, store, runId: "src3" });
    await expect(forkRun(store, { from: "nope", step: "a" })).rejects.toThrow('there is no run "nope"');
    await expect(forkRun(store, { from: "src3", step: "z" })).rejects.toThrow('has no step "z"; its steps: a, b, c, d');
    await expect(forkRun(store, { from: "src3", step: "a", runId: "src3" })).rejects.toThrow('a run "src3" exists already');
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } },
      { purpose: "solve", reply: { type: "final", content: "done" } },
    ]);
    await planAndExecute({ task: "echo", planner, tools: loggedTools().tools, store, runId: "pe" });
    await expect(forkRun(store, { from: "pe", step: "b" })).rejects.toThrow("pe/plan:<version>");
    const fromPlanRun = await forkRun(store, { from: "pe/plan:1", step: "c" });
    expect(fromPlanRun.reused.sort()).toEqual(["a", "b", "d"]);
  });
});

describe("planloop runs fork", () => {
  it("reruns a command's run from a step with new arguments: the steps before it are not run again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-fork-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const tools = join(testRoot, "fixtures", "plan-tools.ts");
    const file = join(dir, "plan.json");
    writeFileSync(
      file,
      JSON.stringify({
        steps: [
          { id: 1, task: "double", tool: "double", args: { value: 2 } },
          { id: 2, task: "double again", tool: "double", args: { value: "$1" }, depends_on: [1] },
        ],
      }),
    );
    expect((await cli("run", file, "--tools", tools, "--store", store, "--run-id", "f1")).out).toContain("output: 8");
    const printed = await cli("runs", "fork", "f1", "--from", "2", "--args", '{"value":5}', "--run-id", "f2", "--store", store);
    expect(printed.out).toContain("run f2: from f1 at step 2; reuses 1, runs 2 again");
    expect(printed.out).toContain(`continue it: planloop runs resume f2 --tools <module> --store ${store}`);
    const resumed = await cli("runs", "resume", "f2", "--tools", tools, "--store", store);
    expect(resumed).toMatchObject({ code: 0, out: expect.stringContaining("output: 10") });
    const shown = (await cli("runs", "show", "f2", "--store", store)).out;
    expect(shown).toMatch(/step 1: succeeded \(started 1x\)/);
    expect(shown).toMatch(/step 2: succeeded \(started 1x\)/);
    // A whole edited plan: step 3 is new; 1 and 2 are kept as they were, so only 3 runs.
    const edited = join(dir, "edited.json");
    writeFileSync(
      edited,
      JSON.stringify({
        steps: [
          { id: 1, task: "double", tool: "double", args: { value: 2 } },
          { id: 2, task: "double again", tool: "double", args: { value: "$1" }, depends_on: [1] },
          { id: 3, task: "double a third time", tool: "double", args: { value: "$2" }, depends_on: [2] },
        ],
      }),
    );
    const planned = await cli("runs", "fork", "f1", "--from", "3", "--plan", edited, "--run-id", "f3", "--tools", tools, "--store", store);
    expect(planned.out).toContain("run f3: from f1 at step 3; reuses 1, 2, runs 3 again");
    expect(planned).toMatchObject({ code: 0, out: expect.stringContaining("output: 16") });
    const bad = await cli("runs", "fork", "f1", "--from", "9", "--store", store);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('has no step "9"');
  });

  it("reruns a planloop ask run's plan run from a step (docs/ui.md's example), and refuses with --tools what it cannot run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-fork-ask-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const tools = join(testRoot, "fixtures", "plan-tools.ts");
    const model = join(testRoot, "fixtures", "scripted-model.mjs");
    expect(await cli("ask", "Double 21", "--tools", tools, "--model", model, "--store", store, "--run-id", "w1")).toMatchObject({
      code: 0,
    });
    const printed = await cli("runs", "fork", "w1/plan:1", "--from", "1", "--args", '{"value":5}', "--run-id", "w2", "--store", store);
    expect(printed).toMatchObject({
      code: 0,
      out: expect.stringContaining(`continue it: planloop runs resume w2 --tools <module> --store ${store}`),
    });
    expect(await cli("runs", "resume", "w2", "--tools", tools, "--store", store)).toMatchObject({
      code: 0,
      out: expect.stringContaining("output: 10"),
    });
    const ran = await cli(
      "runs",
      "fork",
      "w1/plan:1",
      "--from",
      "1",
      "--args",
      '{"value":7}',
      "--run-id",
      "w3",
      "--tools",
      tools,
      "--store",
      store,
    );
    expect(ran).toMatchObject({ code: 0, out: expect.stringContaining("output: 14") });
    // A plan run a program started has no command line to go on with: refused before a fork is written.
    const kept = sqliteStore({ path: join(dir, "runs.sqlite") });
    await executePlan({ plan, tools: loggedTools().tools, store: kept, runId: "p1" });
    await kept.close();
    const refused = await cli("runs", "fork", "p1", "--from", "b", "--run-id", "p2", "--tools", tools, "--store", store);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('planloop cannot run a rerun of "p1": it was started from a program');
    expect((await cli("runs", "show", "p2", "--store", store)).err).toContain('there is no run "p2"');
  });
});

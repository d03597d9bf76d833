// The command line a rerun goes on with: a `planloop ask` run's plan run gives its fork a
// `planloop run` line over the plan, with the ask's tools, and its model only where the plan
// has agent steps; a run a program started gives none. And `planloop run` takes that model.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryStore, type Plan, type StoredRun } from "planloop";
import { forkLaunch, sourceLaunch } from "../../src/executor/fork-launch.js";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

const cwd = mkdtempSync(join(tmpdir(), "planloop-fork-launch-"));
const askLine = [
  "ask",
  "Double 21",
  "--strategy",
  "rewoo",
  "--model",
  "/m/model.mjs",
  "--tools",
  "/t/tools.mjs",
  "--replan-early",
  "--task-type",
  "math",
];

function planRun(runId: string): StoredRun {
  return { runId, entry: "executePlan", status: "finished", createdAt: 0, updatedAt: 0, journal: [] } as unknown as StoredRun;
}

describe("forkLaunch", () => {
  it("gives a fork of an ask run's plan a planloop run line with the ask's tools, and its model for agent steps", async () => {
    const store = memoryStore();
    await store.createRun({ runId: "w", entry: "rewoo", at: 1 });
    await store.append("w", [{ kind: "launch", argv: askLine, cwd }], 1);
    const source = await sourceLaunch(store, planRun("w/plan:1"));
    expect(source?.asked).toBe(true);
    const tools: Plan = { steps: [{ id: 1, task: "double", tool: "double", args: { value: 2 }, depends_on: [] }] } as unknown as Plan;
    const file = join(cwd, ".planloop", "forks", "f1.json");
    expect(forkLaunch(source!, { runId: "f1", plan: tools, edited: false })).toEqual({
      kind: "launch",
      cwd,
      argv: ["run", file, "--tools", "/t/tools.mjs"],
    });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(tools);
    const agent = { steps: [{ id: 1, task: "say why", depends_on: [] }] } as unknown as Plan;
    expect(forkLaunch(source!, { runId: "f2", plan: agent, edited: false }).argv.slice(2)).toEqual([
      "--model",
      "/m/model.mjs",
      "--tools",
      "/t/tools.mjs",
    ]);
    // A plan run of a program's strategy run, or of an ask without tools: nothing to go on with.
    await store.createRun({ runId: "p", entry: "rewoo", at: 1 });
    expect(await sourceLaunch(store, planRun("p/plan:1"))).toBeUndefined();
    expect(await sourceLaunch(store, planRun("alone"))).toBeUndefined();
  });

  it("planloop run takes --model for a plan's agent steps", async () => {
    const plan = join(cwd, "agent.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "What is twice 21?" }] }));
    const model = join(testRoot, "fixtures", "scripted-model.mjs");
    const ran = await cli("run", plan, "--tools", join(testRoot, "fixtures", "plan-tools.ts"), "--model", model, "--no-store");
    expect(ran).toMatchObject({ code: 0, out: expect.stringContaining("Twice 21 is 42.") });
  });
});

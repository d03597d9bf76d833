// Writes the corpus of saved runs for the checked-out version: every scenario of
// test/saved-runs/scenarios.ts run until it waits, its result.state (signed) and the journals the
// store keeps (the run's and those kept inside it), as JSON under test/saved-runs/<label>/.
// Run it when a version changes what it saves:  node --import tsx scripts/save-runs.ts <label>
// (then npm run format: the files are kept as prettier writes them).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeMode, executePlan, memoryStore, planAndExecute, runAgent, type CheckpointStore } from "../src/index.js";
import { codeModel, loopModel, plannerModel, refundPlan, refundTools, scenarios, stateSecret } from "../test/saved-runs/scenarios.js";

const label = process.argv[2];
if (!label) throw new Error("usage: save-runs.ts <label> (a version, e.g. 0.1.0-2026-12-03)");
const folder = join(import.meta.dirname, "..", "test", "saved-runs", label);
mkdirSync(folder, { recursive: true });

async function keep(name: string, store: CheckpointStore, runId: string, state: unknown) {
  const runs = [
    await store.getRun(runId),
    ...(await Promise.all((await store.listRuns({ within: runId })).map((row) => store.getRun(row.runId)))),
  ];
  writeFileSync(join(folder, `${name}.json`), JSON.stringify({ state, runs }, null, 2) + "\n");
}

const calls = { made: [] as string[] };
const tools = refundTools(calls);
{
  const store = memoryStore();
  const result = await runAgent({
    model: loopModel,
    tools,
    task: "refund A1",
    store,
    runId: scenarios.loop.runId,
    stateSecret,
    maxSteps: 8,
  });
  if (result.status !== "waiting") throw new Error(`the loop ended ${result.status}`);
  await keep("loop", store, scenarios.loop.runId, result.state);
}
{
  const store = memoryStore();
  const result = await executePlan({ plan: refundPlan, tools, store, runId: scenarios.plan.runId, stateSecret });
  if (result.status !== "waiting") throw new Error(`the plan ended ${result.status}`);
  await keep("plan", store, scenarios.plan.runId, result.state);
}
{
  const store = memoryStore();
  const result = await planAndExecute({
    task: "refund A1",
    planner: plannerModel,
    tools,
    store,
    runId: scenarios.planAndExecute.runId,
    stateSecret,
  });
  if (result.status !== "waiting") throw new Error(`plan-and-execute ended ${result.status}`);
  await keep("plan-and-execute", store, scenarios.planAndExecute.runId, result.state);
}
{
  const store = memoryStore();
  const result = await codeMode({ task: "refund A1", model: codeModel, tools, store, runId: scenarios.code.runId, stateSecret });
  if (result.status !== "waiting") throw new Error(`code mode ended ${result.status}`);
  await keep("code-mode", store, scenarios.code.runId, result.state);
}
console.log(`saved runs written to ${folder}`);

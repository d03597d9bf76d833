// A runner moves a step's work to a worker; the run keeps every decision: approvals, rules,
// limits, budget, retries, checkpoints. localRunner runs jobs through the worker's own code.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, llmCompiler, memoryStore, planAndExecute, type ModelFunction } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { localRunner, type StepRunner } from "planloop/bullmq";

function tools() {
  const calls: string[] = [];
  const double = defineTool({
    name: "double",
    description: "doubles",
    input: z.object({ value: z.number() }),
    execute: ({ value }, { idempotencyKey }) => (calls.push(`double ${value} ${idempotencyKey ?? "-"}`), value * 2),
  });
  const pay = defineTool({
    name: "pay",
    description: "pays",
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (calls.push(`pay ${amount}`), `paid ${amount}`),
  });
  return { calls, tools: [double, pay] };
}

/** Counts the jobs a runner is given, by kind. */
function counting(runner: StepRunner) {
  const jobs: string[] = [];
  return {
    jobs,
    runner: {
      runTool: (job, signal) => (jobs.push(`tool ${job.call.name} ${job.stepKey} #${job.attempt}`), runner.runTool(job, signal)),
      runAgent: (job, signal) => (jobs.push(`agent ${job.stepKey} #${job.attempt}`), runner.runAgent(job, signal)),
    } satisfies StepRunner,
  };
}

const summarise: ModelFunction = ({ messages }) => ({
  type: "final",
  content: `summary of ${String(messages.at(-1)?.content).slice(0, 20)}`,
});

describe("steps on a runner", () => {
  it("tool and agent steps run as jobs, with the same outputs, keys and budget as in-process", async () => {
    const local = tools();
    const plan = {
      steps: [
        { id: 1, task: "double", tool: "double", args: { value: 21 } },
        { id: 2, task: "again", tool: "double", args: { value: "$1" }, depends_on: [1] },
        { id: 3, task: "summarise", depends_on: [2] },
      ],
    };
    const { jobs, runner } = counting(localRunner({ tools: local.tools, model: summarise }));
    const result = await executePlan({ plan, tools: local.tools, runner, store: memoryStore(), runId: "r1" });
    expect(result).toMatchObject({ status: "completed", steps: { 1: { output: 42 }, 2: { output: 84 }, 3: { status: "succeeded" } } });
    expect(jobs).toEqual(["tool double step:1 #1", "tool double step:2 #1", "agent 3 #1"]);
    expect(local.calls).toEqual(["double 21 r1/1", "double 42 r1/2"]);
    expect(result.usage).toMatchObject({ toolCalls: 2, modelCalls: 1 });
  });

  it("approvals are decided by the run: a call waiting for one is not sent to a worker", async () => {
    const local = tools();
    const { jobs, runner } = counting(localRunner({ tools: local.tools }));
    const plan = { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 5 } }] };
    const waiting = await executePlan({ plan, tools: local.tools, runner });
    expect(waiting.status).toBe("waiting");
    expect(jobs).toEqual([]);
    const done = await executePlan({
      plan,
      tools: local.tools,
      runner,
      resume: waiting.state,
      approvals: { "step:1": { approved: true } },
    });
    expect(done).toMatchObject({ status: "completed", output: "paid 5" });
    expect(jobs).toEqual(["tool pay step:1 #1"]);
  });

  it("a worker without the tool, or without a model, says so in the step's error", async () => {
    const local = tools();
    const runner = localRunner({ tools: [] });
    const result = await executePlan({
      plan: {
        steps: [
          { id: 1, task: "double", tool: "double", args: { value: 1 } },
          { id: 2, task: "think" },
        ],
      },
      tools: local.tools,
      runner,
      retry: { maxAttempts: 1 },
    });
    expect(result.steps["1"]).toMatchObject({ status: "failed", error: expect.stringContaining('this worker has no tool "double"') });
    expect(result.steps["2"]).toMatchObject({ status: "failed", error: expect.stringContaining("no model for agent steps") });
  });

  it("cancelling the run aborts the step on the worker", async () => {
    let aborted = false;
    const slow = defineTool({
      name: "slow",
      description: "waits",
      input: z.object({}),
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => ((aborted = true), reject(signal.reason)), { once: true }),
        ),
    });
    const controller = new AbortController();
    const running = executePlan({
      plan: { steps: [{ id: 1, task: "wait", tool: "slow", args: {} }] },
      tools: [slow],
      runner: localRunner({ tools: [slow] }),
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("stop"));
    expect((await running).status).toBe("cancelled");
    expect(aborted).toBe(true);
  });

  it("an agent step on a worker carries the run's tenant to its model calls", async () => {
    const model = new ScriptedModel([{ type: "final", content: "done" }]);
    const { jobs, runner } = counting(localRunner({ tools: [], model }));
    const plan = { steps: [{ id: 1, task: "summarise" }] };
    const result = await executePlan({ plan, tools: [], runner, tenant: "client:acme" });
    expect(result.status).toBe("completed");
    expect(jobs).toEqual(["agent 1 #1"]);
    expect(model.requests.map((request) => request.tenant)).toEqual(["client:acme"]);
  });

  it("a runner without runTool and runAgent is refused", async () => {
    const plan = { steps: [{ id: 1, task: "t", tool: "double", args: { value: 1 } }] };
    await expect(executePlan({ plan, tools: tools().tools, runner: {} as never })).rejects.toThrow(/runner must have runTool and runAgent/);
  });

  it("the planning strategies send their plans' steps to the runner too", async () => {
    const local = tools();
    const text = (content: string) => ({ type: "final" as const, content });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 4 } }] })) },
      { purpose: "solve", reply: text("8") },
    ]);
    const planned = counting(localRunner({ tools: local.tools }));
    expect(await planAndExecute({ task: "double 4", planner, tools: local.tools, runner: planned.runner })).toMatchObject({ output: "8" });
    expect(planned.jobs).toEqual(["tool double step:1 #1"]);
    const compiler = new ScriptedModel([
      { purpose: "plan", stream: ['1. double({"value": 5})\n', "2. join()"] },
      { purpose: "join", reply: text("FINISH: 10") },
    ]);
    const compiled = counting(localRunner({ tools: local.tools }));
    expect(await llmCompiler({ task: "double 5", planner: compiler, tools: local.tools, runner: compiled.runner })).toMatchObject({
      output: "10",
    });
    expect(compiled.jobs).toEqual(["tool double step:1 #1"]);
  });

  it("an agent step that names a model runs on that model of the worker's", async () => {
    const local = tools();
    const answer =
      (name: string): ModelFunction =>
      () => ({ type: "final", content: name });
    const runner = localRunner({ tools: local.tools, model: answer("default"), models: { fast: answer("fast") } });
    const result = await executePlan({
      plan: {
        steps: [
          { id: 1, task: "quick", model: "fast" },
          { id: 2, task: "other" },
        ],
      },
      tools: local.tools,
      runner,
    });
    expect(result.steps).toMatchObject({ 1: { output: "fast" }, 2: { output: "default" } });
  });
});

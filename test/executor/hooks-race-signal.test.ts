// Every user hook and every stream read is raced against the run's signal and deadline: a
// hook that never answers cannot keep a run alive, and a stopped planning run can be resumed.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, llmCompiler, planAndExecute, type ModelAdapter } from "planloop";
import { FakeClock, ScriptedModel } from "planloop/testing";

const never = () => new Promise<never>(() => {});
const text = (content: string) => ({ type: "final" as const, content });
const plan = { steps: [{ id: 1, task: "a", tool: "echo", args: { v: 1 } }] };
const echo = defineTool({ name: "echo", description: "echo", input: z.object({ v: z.number() }), execute: ({ v }) => v });

describe("hooks and streams raced against the signal", () => {
  it("a hung observe, authorize or needsApproval ends at the deadline", async () => {
    const hung = [
      { tools: [echo], observe: never },
      { tools: [defineTool({ name: "echo", description: "e", input: z.object({ v: z.number() }), authorize: never, execute: () => 1 })] },
      {
        tools: [defineTool({ name: "echo", description: "e", input: z.object({ v: z.number() }), needsApproval: never, execute: () => 1 })],
      },
    ];
    for (const [index, options] of hung.entries()) {
      const clock = new FakeClock();
      const result = await clock.run(executePlan({ plan, clock, budget: { deadlineMs: 400 }, ...options }));
      expect(result.status).toBe("deadline_exceeded");
      expect(clock.now()).toBeLessThanOrEqual(400);
      // The tool ran before observe hung: its output is kept. The others never called it.
      expect(result.steps["1"]!.status).toBe(index === 0 ? "succeeded" : "cancelled");
    }
  });

  it("a hung critic ends at the deadline, and a cancelled Plan-and-Execute returns a state to resume", async () => {
    const clock = new FakeClock();
    const planner = new ScriptedModel([text(JSON.stringify(plan)), text("answer")]);
    const result = await clock.run(
      planAndExecute({ task: "t", planner, tools: [echo], clock, budget: { deadlineMs: 400 }, critic: { review: never } }),
    );
    expect(result.status).toBe("deadline_exceeded");
    expect(clock.now()).toBeLessThanOrEqual(400);

    const controller = new AbortController();
    const slow = defineTool({
      name: "echo",
      description: "slow",
      input: z.object({ v: z.number() }),
      execute: async ({ v }) => {
        if (v === 2) controller.abort(new Error("stop"));
        return v;
      },
    });
    const twoSteps = { steps: [...plan.steps, { id: 2, task: "b", tool: "echo", args: { v: 2 }, depends_on: [1] }] };
    const stopped = await planAndExecute({
      task: "t",
      planner: new ScriptedModel([text(JSON.stringify(twoSteps))]),
      tools: [slow],
      signal: controller.signal,
    });
    expect(stopped.status).toBe("cancelled");
    expect(stopped.state?.kind).toBe("planloop/plan-and-execute-state");
    const resumed = await planAndExecute({
      task: "t",
      planner: new ScriptedModel([text("done")]),
      tools: [echo],
      resume: JSON.parse(JSON.stringify(stopped.state)),
    });
    expect(resumed).toMatchObject({ status: "completed", output: "done" });
    // Step 1 finished before the stop and is not run again; step 2 was running and runs again.
    expect(resumed.stepResults["1"]!.attempts).toBe(1);
    expect(resumed.stepResults["2"]).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("a stalled LLMCompiler plan stream ends at the deadline with a state", async () => {
    const clock = new FakeClock();
    const stalled: ModelAdapter = {
      generate: async () => text("unused"),
      async *streamText() {
        yield { type: "text" as const, text: "1. echo(1)\n" };
        await never();
      },
    };
    const result = await clock.run(llmCompiler({ task: "t", planner: stalled, tools: [echo], clock, budget: { deadlineMs: 400 } }));
    expect(result.status).toBe("deadline_exceeded");
    expect(clock.now()).toBeLessThanOrEqual(400);
    expect(result.state?.kind).toBe("planloop/llm-compiler-state");
  });
});

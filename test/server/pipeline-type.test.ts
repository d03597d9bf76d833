// The `pipelines` a tools module exports have a public type: `Pipeline`, and `definePipeline`
// to give `plan` and `task` the input's own fields. What it types is what `planloop mcp` reads.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { definePipeline, type Pipeline, type PlanInput } from "planloop";
import { readPipelines } from "../../src/runs/pipelines.js";

describe("Pipeline", () => {
  it("types plan and task by the input, and a list of them is what planloop mcp reads", () => {
    const weekly = definePipeline({
      name: "weekly_report",
      description: "This week's orders",
      input: z.object({ week: z.string(), limit: z.number().optional() }),
      plan: ({ week, limit }) => {
        expectTypeOf(week).toEqualTypeOf<string>();
        expectTypeOf(limit).toEqualTypeOf<number | undefined>();
        return { steps: [{ id: "orders", task: "orders", tool: "sql", args: { week } }] };
      },
    });
    const research = definePipeline({
      name: "research",
      description: "Research a question",
      input: z.object({ question: z.string() }),
      task: ({ question }) => question,
      strategy: "rewoo",
    });
    expectTypeOf(weekly.plan!).returns.toEqualTypeOf<PlanInput>();
    // @ts-expect-error a task is a string
    definePipeline({ name: "bad", description: "bad", input: z.object({ n: z.number() }), task: ({ n }) => n });
    const pipelines: Pipeline[] = [weekly, research];
    expect(readPipelines(pipelines, "tools.ts").map((pipeline) => pipeline.name)).toEqual(["weekly_report", "research"]);
    expect(weekly.plan!({ week: "2026-11-30" })).toEqual({
      steps: [{ id: "orders", task: "orders", tool: "sql", args: { week: "2026-11-30" } }],
    });
  });
});

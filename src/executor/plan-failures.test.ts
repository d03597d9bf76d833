import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, InvalidPlanError } from "planloop";
import { FakeClock, flush } from "planloop/testing";
import { workStep, workTool } from "../../test/helpers/timed-tools.js";

describe("executePlan failures and stops", () => {
  it("retries a throwing step with backoff, then fails it and skips its dependents; other branches go on", async () => {
    const clock = new FakeClock();
    const { tool, log } = workTool(clock);
    const plan = {
      steps: [
        workStep("bad", 10, [], { fail: true }),
        workStep("after", 10, ["bad"]),
        workStep("last", 10, ["after"]),
        workStep("other", 10),
      ],
    };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock, retry: { maxAttempts: 3, initialDelayMs: 100 } }));
    expect(result.status).toBe("failed");
    expect(result.steps.bad).toMatchObject({ status: "failed", attempts: 3, error: '"work" failed: bad broke' });
    expect(log.started.filter((entry) => entry.step === "bad").map((entry) => entry.at)).toEqual([0, 110, 320]);
    expect(result.steps.after).toMatchObject({ status: "skipped", error: "step bad failed", attempts: 0 });
    expect(result.steps.last).toMatchObject({ status: "skipped", error: "step bad failed" });
    expect(result.steps.other).toMatchObject({ status: "succeeded" });
    expect(result.reason).toContain("step bad");
    expect(result.output).toEqual({ other: { step: "other", at: 10 } });
  });

  it("names the first twenty failures in its reason and counts the rest; every step keeps its own error", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: Array.from({ length: 30 }, (_, index) => workStep(`s${index}`, 1, [], { fail: true })) };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock, retry: { maxAttempts: 1 } }));
    expect(result.status).toBe("failed");
    expect(result.reason?.split("; ")).toHaveLength(21);
    expect(result.reason).toMatch(/^step s0: "work" failed: s0 broke; .*step s19: .*; and 10 more \(see each step's error\)$/);
    expect(result.steps.s29).toMatchObject({ status: "failed", error: '"work" failed: s29 broke' });
  });

  it("tells onProblem at the moment a step fails, with the records so far, while other steps run on", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: [workStep("bad", 10, [], { fail: true }), workStep("slow", 100), workStep("quick", 5)] };
    const heard: Array<{ at: number; stepId: string | number; ended: string[] }> = [];
    const result = await clock.run(
      executePlan({
        plan,
        tools: [tool],
        clock,
        retry: { maxAttempts: 1 },
        onProblem: (problem) => {
          heard.push({ at: clock.now(), stepId: problem.stepId, ended: Object.keys(problem.steps).sort() });
          throw new Error("a broken listener does not stop the run");
        },
      }),
    );
    expect(heard).toEqual([{ at: 10, stepId: "bad", ended: ["bad", "quick"] }]);
    expect(result.steps.slow).toMatchObject({ status: "succeeded", endedAt: 100 });
  });

  it("a retry that succeeds ends the step succeeded, with its attempts counted", async () => {
    let calls = 0;
    const flaky = defineTool({
      name: "flaky",
      description: "fails once",
      input: z.object({}),
      execute: () => {
        calls += 1;
        if (calls === 1) throw new Error("blip");
        return "ok";
      },
    });
    const clock = new FakeClock();
    const result = await clock.run(executePlan({ plan: { steps: [{ id: 1, task: "t", tool: "flaky" }] }, tools: [flaky], clock }));
    expect(result).toMatchObject({ status: "completed", output: "ok", steps: { 1: { attempts: 2 } } });
  });

  it("retries a timeout but not a refusal", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const slow = { ...tool, timeoutMs: 50 };
    const timedOut = await clock.run(
      executePlan({ plan: { steps: [workStep("slow", 80)] }, tools: [slow], clock, retry: { initialDelayMs: 0 } }),
    );
    expect(timedOut.steps.slow).toMatchObject({ status: "failed", attempts: 2, error: expect.stringContaining("within 50 ms") });
    const refused = await clock.run(
      executePlan({ plan: { steps: [{ id: 1, task: "t", tool: "work", args: { step: 5 } }] }, tools: [tool], clock }).catch(
        (error) => error,
      ),
    );
    expect(refused).toBeInstanceOf(InvalidPlanError);
    const later = await clock.run(
      executePlan({
        plan: { steps: [workStep("a", 1), { id: "b", task: "t", tool: "work", args: { step: "${a}", ms: 1 }, depends_on: ["a"] }] },
        tools: [tool],
        clock,
      }),
    );
    expect(later.steps.b).toMatchObject({ status: "failed", attempts: 1, error: expect.stringContaining("step: Invalid input") });
  });

  it("fails a step whose placeholder path is missing, with a clear error", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = {
      steps: [workStep("a", 1), { id: "b", task: "t", tool: "work", args: { step: "${a}.rows[0]", ms: 1 }, depends_on: ["a"] }],
    };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock }));
    expect(result.steps.b).toMatchObject({
      status: "failed",
      error: "${a}.rows[0]: ${a}.rows does not exist (${a} is an object with keys step, at)",
    });
  });

  it("cancellation aborts running steps and skips the rest, without waiting for them", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const controller = new AbortController();
    const plan = { steps: [workStep(1, 10_000), workStep(2, 10_000), workStep(3, 10, [1])] };
    const pending = executePlan({ plan, tools: [tool], clock, signal: controller.signal });
    await clock.advance(5);
    controller.abort(new Error("stop"));
    const result = await pending;
    expect(clock.now()).toBe(5);
    expect(result).toMatchObject({ status: "cancelled", reason: "stop" });
    expect(result.steps["1"]).toMatchObject({ status: "cancelled", endedAt: 5 });
    expect(result.steps["3"]).toMatchObject({ status: "skipped" });
    expect(result.state?.steps["3"]?.status).toBe("skipped");
  });

  it("deadline_exceeded aborts what runs when the run's deadline passes", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: [workStep(1, 100), workStep(2, 100, [1]), workStep(3, 100, [2])] };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock, budget: { deadlineMs: 150 } }));
    expect(result).toMatchObject({ status: "deadline_exceeded", limit: "deadlineMs" });
    expect(clock.now()).toBe(150);
    expect(result.steps["1"]?.status).toBe("succeeded");
    expect(result.steps["2"]?.status).toBe("cancelled");
    expect(result.steps["3"]?.status).toBe("skipped");
  });

  it("budget_exceeded stops starting steps once the tool-call budget is spent", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: [workStep(1, 10), workStep(2, 10, [1]), workStep(3, 10, [2])] };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock, budget: { maxToolCalls: 2 } }));
    expect(result).toMatchObject({ status: "budget_exceeded", limit: "maxToolCalls", usage: { toolCalls: 2 } });
    expect(result.steps["3"]).toMatchObject({ status: "skipped", error: expect.stringContaining("tool-call budget") });
  });

  it("words an invalid plan of many problems in a few lines, with every problem in `errors`", async () => {
    const steps = Array.from({ length: 30 }, (_, index) => ({ id: index, task: "t", depends_on: [`missing-${index}`] }));
    const error = (await executePlan({ plan: { steps } }).catch((caught) => caught)) as InvalidPlanError;
    expect(error.errors).toHaveLength(30);
    const lines = error.message.split("\n");
    expect(lines).toHaveLength(22);
    expect(lines[20]).toContain("missing-19");
    expect(lines[21]).toBe("- and 10 more (see the error's `errors`)");
  });

  it("rejects an invalid plan with every problem, and agent steps without a model", async () => {
    const error = await executePlan({
      plan: {
        steps: [
          { id: 1, task: "a", depends_on: [2] },
          { id: 1, task: "b" },
        ],
      },
    }).catch((caught) => caught);
    expect(InvalidPlanError.isInstance(error)).toBe(true);
    expect((error as InvalidPlanError).errors.map((problem) => problem.code)).toEqual(["duplicate_id", "unknown_dependency"]);
    await expect(executePlan({ plan: { steps: [{ id: 1, task: "think" }] } })).rejects.toThrow(/pass executePlan\(\{ model \}\)/);
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    await expect(executePlan({ plan: { steps: [workStep(1, 1)] }, tools: [tool], concurrency: 0 })).rejects.toThrow(TypeError);
    await flush();
  });
});

describe("errors a tool marks as final", () => {
  it("are not retried", async () => {
    let calls = 0;
    const strict = defineTool({
      name: "strict",
      description: "fails for good",
      input: z.object({}),
      execute: () => {
        calls += 1;
        throw Object.assign(new Error("syntax error in query"), { retryable: false });
      },
    });
    const result = await executePlan({
      plan: { steps: [{ id: 1, task: "t", tool: "strict" }] },
      tools: [strict],
      retry: { maxAttempts: 3 },
    });
    expect(result.steps["1"]).toMatchObject({ status: "failed", attempts: 1, error: expect.stringContaining("syntax error") });
    expect(calls).toBe(1);
  });
});

describe("argument parsing", () => {
  it("parses a tool step's plain arguments once, when the plan is checked", async () => {
    let parses = 0;
    const counted = defineTool({
      name: "counted",
      description: "counts parses",
      input: z.object({ n: z.number().transform((value) => ((parses += 1), value * 10)) }),
      execute: ({ n }) => n,
    });
    const result = await executePlan({
      plan: {
        steps: [
          { id: 1, task: "t", tool: "counted", args: { n: 4 } },
          { id: 2, task: "u", tool: "counted", args: { n: "$1" }, depends_on: [1] },
        ],
      },
      tools: [counted],
    });
    expect(result.steps["1"]?.output).toBe(40);
    expect(result.steps["2"]?.output).toBe(400);
    // Step 1: once at plan time. Step 2 holds a placeholder: parsed once, at run time.
    expect(parses).toBe(2);
  });
});

describe("the guard on plan steps", () => {
  const plainSteps = (tool: string, count: number) => ({
    steps: Array.from({ length: count }, (_, index) => ({ id: index + 1, task: "t", tool, args: { n: index + 1 } })),
  });
  const input = z.object({ n: z.number() });

  it("still counts a tool's call limit, asks its authorization and its approval rule when the arguments were parsed at the check", async () => {
    const limited = defineTool({ name: "limited", description: "x", input, maxCalls: 1, execute: ({ n }) => n });
    const capped = await executePlan({ plan: plainSteps("limited", 2), tools: [limited], concurrency: 1 });
    expect(capped.steps["1"]?.status).toBe("succeeded");
    expect(capped.steps["2"]).toMatchObject({ status: "failed", error: expect.stringContaining("reached its limit of 1 calls") });

    const guarded = defineTool({
      name: "guarded",
      description: "x",
      input,
      authorize: ({ n }) => (n === 2 ? { allowed: false, reason: "not step two" } : true),
      execute: ({ n }) => n,
    });
    const authorized = await executePlan({ plan: plainSteps("guarded", 2), tools: [guarded] });
    expect(authorized.steps["1"]?.output).toBe(1);
    expect(authorized.steps["2"]).toMatchObject({ status: "failed", error: expect.stringContaining("not step two") });

    const approved = defineTool({ name: "approved", description: "x", input, needsApproval: ({ n }) => n > 1, execute: ({ n }) => n });
    const paused = await executePlan({ plan: plainSteps("approved", 2), tools: [approved] });
    expect(paused.status).toBe("waiting");
    expect(paused.pending?.map((call) => call.stepId)).toEqual([2]);
  });
});

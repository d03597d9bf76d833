import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, llmCompiler } from "planloop";
import { readJoinText } from "../../src/strategies/llm-compiler.js";
import { FakeClock, ScriptedModel } from "planloop/testing";
import { workTool } from "../helpers/timed-tools.js";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

function tools(clock: FakeClock) {
  const { tool: work, log } = workTool(clock);
  const combine = defineTool({
    name: "combine",
    description: "Combine two results",
    input: z.object({ left: z.unknown(), right: z.unknown() }),
    execute: ({ left, right }) => (log.started.push({ step: "combine", at: clock.now() }), [left, right]),
  });
  return { log, tools: [work, combine] };
}

describe("llmCompiler", () => {
  it("starts task 1 while the planner is still writing the plan", async () => {
    const clock = new FakeClock();
    const { log, tools: all } = tools(clock);
    const planner = new ScriptedModel(
      [
        {
          purpose: "plan",
          stream: ['Thought: fetch both\n1. work("a", 30)\n', '2. work("b", 30)\n', "3. combine($1, $2)\n", "4. join()"],
          delayMs: 50,
        },
        { purpose: "join", reply: { type: "final", content: "FINISH: a and b combined" } },
      ],
      { clock },
    );
    const result = await clock.run(llmCompiler({ task: "combine a and b", planner, tools: all, clock }));
    expect(result).toMatchObject({ strategy: "llm-compiler", status: "completed", output: "a and b combined", steps: 3 });
    const planEnd = result.trace.find((event) => event.type === "model-call-end" && event.purpose === "plan")!;
    expect(planEnd.time).toBe(150);
    expect(log.started).toEqual([
      { step: "a", at: 0 },
      { step: "b", at: 50 },
      { step: "combine", at: 100 },
    ]);
    expect(result.stepResults["3"]?.output).toEqual([
      { step: "a", at: 30 },
      { step: "b", at: 80 },
    ]);
    expect(result.stepResults["1"]?.startedAt).toBeLessThan(planEnd.time);
    planner.assertDone();
  });

  it("replans when the joiner asks, then finishes", async () => {
    const clock = new FakeClock();
    const { tools: all } = tools(clock);
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: '1. work("a", 5)\n2. join()' } },
      { purpose: "join", reply: { type: "final", content: "REPLAN: b is missing" } },
      { purpose: "replan", reply: { type: "final", content: '1. work("b", 5)\n2. join()' } },
      { purpose: "join", reply: { type: "final", content: "Finish(a and b)" } },
    ]);
    const result = await clock.run(llmCompiler({ task: "a and b", planner, tools: all, clock }));
    expect(result).toMatchObject({ status: "completed", output: "a and b", replans: 1 });
    expect(result.planVersions).toHaveLength(2);
    expect(planner.requests[2]!.messages.at(-1)).toMatchObject({ content: expect.stringContaining("b is missing") });
  });

  it("fails after the joiner's replans run out, and when the planner writes nothing", async () => {
    const clock = new FakeClock();
    const { tools: all } = tools(clock);
    const stubborn = new ScriptedModel([
      { type: "final", content: '1. work("a", 5)' },
      { type: "final", content: "REPLAN: not enough" },
    ]);
    const result = await clock.run(llmCompiler({ task: "t", planner: stubborn, tools: all, clock, maxReplans: 0 }));
    expect(result).toMatchObject({ status: "failed", reason: expect.stringContaining("no replans left") });
    const silent = await clock.run(
      llmCompiler({ task: "t", planner: new ScriptedModel([{ type: "final", content: "I will not plan." }]), tools: all, clock }),
    );
    expect(silent).toMatchObject({ status: "failed", reason: "the planner wrote no tasks" });
  });
});

describe("readJoinText", () => {
  it("keeps a parenthesis that belongs to the answer, and drops only the call form's own", () => {
    expect(readJoinText("FINISH: 42 (from the census)")).toEqual({ answer: "42 (from the census)" });
    expect(readJoinText("Action: Finish(the total (in millions) is 27.6)")).toEqual({ answer: "the total (in millions) is 27.6" });
    expect(readJoinText("REPLAN: Vellojo is missing (no data)")).toEqual({ replan: "Vellojo is missing (no data)" });
    expect(readJoinText("Replan()")).toEqual({ replan: "the joiner asked for a new plan" });
    expect(readJoinText("  just the answer  ")).toEqual({ answer: "just the answer" });
  });
});

const outsidePlans = sharedPath("data", "outside-plans");

// A clone without ../shared skips these (.ci/run runs them with it).
describe.skipIf(skipWithout(outsidePlans))("readJoinText on the papers' joiner answers (needs ../shared/data/outside-plans)", () => {
  const dir = outsidePlans;
  const verbatim = (name: string) =>
    readFileSync(join(dir, name), "utf8").split("======== verbatim text below this line, to the end of the file ========\n")[1]!;

  it("reads Thought lines and the last Action line as the original parser does", () => {
    expect(readJoinText(verbatim("llmcompiler-joiner-hotpotqa-gpt-1.txt"))).toEqual({ answer: "Arthur's Magazine" });
    expect(readJoinText(verbatim("llmcompiler-joiner-parallelqa-gpt-2.txt"))).toEqual({ answer: "7345.57" });
    // The format's own line names both actions; the original replans on it.
    expect(readJoinText(verbatim("llmcompiler-joiner-format.txt"))).toEqual({ replan: "yyy" });
    expect(readJoinText("Thought: the data is missing.\nAction: Replan(find the 2023 figures)")).toEqual({
      replan: "find the 2023 figures",
    });
  });

  it("keeps an answer's own parentheses (the original cuts at the first closing one: a deliberate difference)", () => {
    expect(readJoinText("Thought: done.\nAction: Finish(27.6 (in millions))")).toEqual({ answer: "27.6 (in millions)" });
  });
});

describe("readJoinText on what models write", () => {
  it("reads FINISH: and REPLAN: after a thought, as well as on their own", () => {
    expect(readJoinText("Thought: done.\nFINISH: 137 orders")).toEqual({ answer: "137 orders" });
    expect(readJoinText("FINISH: 137 orders")).toEqual({ answer: "137 orders" });
    expect(readJoinText("Thought: the 2023 figures are missing.\nREPLAN: fetch the 2023 figures")).toEqual({
      replan: "fetch the 2023 figures",
    });
    expect(readJoinText("Thought: all there.\nFINISH: two lines\nof answer")).toEqual({ answer: "two lines\nof answer" });
  });
});

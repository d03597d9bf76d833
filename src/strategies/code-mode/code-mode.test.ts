import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../core/tools/define-tool.js";
import { FakeClock } from "../../testing/fake-clock.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { runStrategy, strategyNames, strategyOfState } from "../run-strategy.js";
import { summarizeTrace } from "../../trace/trace-model.js";
import { codeMode } from "./code-mode.js";

const text = (content: string) => ({ type: "final" as const, content });
const program = (source: string) => text("```js\n" + source + "\n```");

/** Tools over a small shop, counting every call that really ran. */
function shopTools() {
  const ran: string[] = [];
  let running = 0;
  let most = 0;
  const stock = defineTool({
    name: "stock",
    description: "Units in stock of one product.",
    input: z.object({ sku: z.string() }),
    execute: async ({ sku }) => {
      ran.push(`stock ${sku}`);
      running += 1;
      most = Math.max(most, running);
      // Let the other calls of a Promise.all start before this one ends.
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return { sku, units: sku === "B" ? 2 : 40 };
    },
  });
  const page = defineTool({
    name: "orders_page",
    description: "One page of orders.",
    input: z.object({ page: z.number().int() }),
    execute: ({ page }) => {
      ran.push(`page ${page}`);
      return { orders: [page * 10, page * 10 + 1], next: page < 3 ? page + 1 : null };
    },
  });
  const reorder = defineTool({
    name: "reorder",
    description: "Orders more of a product.",
    input: z.object({ sku: z.string(), units: z.number() }),
    needsApproval: true,
    execute: ({ sku, units }) => (ran.push(`reorder ${sku} ${units}`), `ordered ${units} of ${sku}`),
  });
  const notify = defineTool({
    name: "notify",
    description: "Tells the team.",
    input: z.object({ message: z.string() }),
    execute: ({ message }) => (ran.push(`notify ${message}`), "sent"),
  });
  return { ran, most: () => most, tools: [stock, page, reorder, notify] };
}

const options = { clock: new FakeClock(), grounding: false as const };

describe("codeMode", () => {
  it("runs a program's parallel calls at once, capped by the run's concurrency", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      {
        purpose: "plan",
        reply: program("const rows = await Promise.all(['A', 'B', 'C', 'D'].map((sku) => tools.stock({ sku })));\nreturn rows;"),
      },
      { purpose: "solve", reply: text("B is low: 2 units.") },
    ]);
    const result = await codeMode({ ...options, task: "Which product is low?", model, tools: shop.tools, concurrency: 2 });
    expect(result).toMatchObject({ strategy: "code", status: "completed", output: "B is low: 2 units.", steps: 4, replans: 0 });
    expect(shop.ran).toEqual(["stock A", "stock B", "stock C", "stock D"]);
    expect(shop.most()).toBe(2);
    expect(result.usage).toMatchObject({ modelCalls: 2, toolCalls: 4 });
    // The solver reads every call and the program's result as numbered steps.
    const solve = JSON.stringify(model.requests[1]!.messages);
    expect(solve).toContain("tools.stock");
    expect(solve).toContain("the program's result");
    const prompt = model.requests[0]!.messages.map((message) => String(message.content)).join("\n");
    expect(prompt).toContain("tools.stock(args: { sku: string; }): Promise<unknown>");
    model.assertDone();
  });

  it("runs a loop and a branch on a result, with two model calls however many tools it calls", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      {
        purpose: "plan",
        reply: program(
          [
            "const orders = [];",
            "for (let page = 1; page !== null; ) { const got = await tools.orders_page({ page }); orders.push(...got.orders); page = got.next; }",
            "const { units } = await tools.stock({ sku: 'A' });",
            "if (units > 10) await tools.notify({ message: `plenty of A: ${units}` });",
            "else await tools.notify({ message: 'A is low' });",
            "return { orders: orders.length, units };",
          ].join("\n"),
        ),
      },
      { purpose: "solve", reply: text("6 orders; A has 40 units.") },
    ]);
    const result = await codeMode({ ...options, task: "Count orders and check A", model, tools: shop.tools });
    expect(result.status).toBe("completed");
    expect(shop.ran).toEqual(["page 1", "page 2", "page 3", "stock A", "notify plenty of A: 40"]);
    expect(result.usage.modelCalls).toBe(2);
  });

  it("waits for an approval in the middle, then resumes without running any call twice", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      {
        purpose: "plan",
        reply: program(
          [
            "const { units } = await tools.stock({ sku: 'B' });",
            "const done = units < 5 ? await tools.reorder({ sku: 'B', units: 50 }) : 'enough';",
            "await tools.notify({ message: done });",
            "return done;",
          ].join("\n"),
        ),
      },
      { purpose: "solve", reply: text("Reordered 50 of B.") },
    ]);
    const task = "Keep B in stock";
    const paused = await codeMode({ ...options, task, model, tools: shop.tools });
    expect(paused).toMatchObject({
      status: "waiting",
      pending: [expect.objectContaining({ name: "reorder", arguments: { sku: "B", units: 50 }, kind: "approval" })],
    });
    expect(shop.ran).toEqual(["stock B"]);
    expect(strategyOfState(paused.state)).toBe("code");
    const state = JSON.parse(JSON.stringify(paused.state));
    const id = paused.pending![0]!.id;

    // Resumed with no decision, it waits again and runs nothing.
    const still = await codeMode({ ...options, task, model, tools: shop.tools, resume: state });
    expect(still.status).toBe("waiting");
    expect(shop.ran).toEqual(["stock B"]);

    const resumed = await codeMode({ ...options, task, model, tools: shop.tools, resume: state, approvals: { [id]: { approved: true } } });
    expect(resumed).toMatchObject({ status: "completed", output: "Reordered 50 of B." });
    expect(shop.ran).toEqual(["stock B", "reorder B 50", "notify ordered 50 of B"]);
    expect(resumed.usage).toMatchObject({ toolCalls: 3, modelCalls: 2 });
    model.assertDone();
    // Each call is one step of the run's trace, under the id its decision is given by.
    expect(resumed.trace.filter((event) => event.type === "tool-call-end").map((event) => (event as { callId: string }).callId)).toEqual([
      id,
      expect.stringMatching(/^code:0:[0-9a-f]{16}:1$/),
    ]);
    // A decision must name a call that waits.
    await expect(
      codeMode({ ...options, task, model, tools: shop.tools, resume: state, approvals: { nope: { approved: true } } }),
    ).rejects.toThrow(/nope/);
  });

  it("shows a failed program to the model, whose repair reuses the calls that succeeded", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      { purpose: "plan", reply: program("const a = await tools.stock({ sku: 'A' });\nreturn a.units.toFixed(0) + a.missing.field;") },
      { purpose: "replan", reply: program("const a = await tools.stock({ sku: 'A' });\nreturn a.units;") },
      { purpose: "solve", reply: text("A has 40 units.") },
    ]);
    const result = await codeMode({ ...options, task: "Units of A", model, tools: shop.tools });
    expect(result).toMatchObject({ status: "completed", output: "A has 40 units.", replans: 1 });
    expect(shop.ran).toEqual(["stock A"]);
    expect(result.trace.filter((event) => event.type === "replan-start")).toEqual([
      expect.objectContaining({ replans: 1, reason: expect.stringMatching(/^\(thrown\) TypeError/) }),
    ]);
    const repair = model.requests[1]!.messages.at(-1)!;
    expect(repair.content).toMatch(/The program failed: \(thrown\) TypeError: cannot read property 'field' of undefined/);
    expect(result.program).toBe("const a = await tools.stock({ sku: 'A' });\nreturn a.units;");
    // The run's own trace: both programs as plan versions with their text; the call the repair read back is one step, of program 1.
    const trace = summarizeTrace(result.trace);
    expect(trace.versions.map((version) => [version.version, version.program, version.steps.map((step) => step.tool)])).toEqual([
      [1, "const a = await tools.stock({ sku: 'A' });\nreturn a.units.toFixed(0) + a.missing.field;", ["stock"]],
      [2, "const a = await tools.stock({ sku: 'A' });\nreturn a.units;", []],
    ]);
    expect(trace.bars).toEqual([
      expect.objectContaining({
        version: 1,
        tool: "stock",
        args: { sku: "A" },
        status: "succeeded",
        preview: expect.stringContaining("40"),
      }),
    ]);
  });

  it("takes an answer verify rejects back to the model as a repair round", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      { purpose: "plan", reply: program("return (await tools.stock({ sku: 'A' })).units;") },
      { purpose: "solve", reply: text("A has some units.") },
      { purpose: "replan", reply: program("const a = await tools.stock({ sku: 'A' });\nreturn { sku: 'A', units: a.units };") },
      { purpose: "solve", reply: text("A has 40 units.") },
    ]);
    const verify = ({ output }: { output: string }) =>
      /\d/.test(output) ? { passed: true as const } : { passed: false as const, feedback: "say how many" };
    const result = await codeMode({ ...options, task: "Units of A", model, tools: shop.tools, verify });
    expect(result).toMatchObject({ status: "completed", output: "A has 40 units.", replans: 1 });
    expect(model.requests[2]!.messages.at(-1)!.content).toContain("rejected: verification failed: say how many");
    expect(shop.ran).toEqual(["stock A"]);
  });

  it("hands a denied call to the program as an error it can catch", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      {
        purpose: "plan",
        reply: program(
          "try { return await tools.reorder({ sku: 'B', units: 50 }); } catch (error) { await tools.notify({ message: error.kind }); return 'not reordered'; }",
        ),
      },
      { purpose: "solve", reply: text("B was not reordered.") },
    ]);
    const task = "Reorder B";
    const paused = await codeMode({ ...options, task, model, tools: shop.tools });
    const denied = await codeMode({
      ...options,
      task,
      model,
      tools: shop.tools,
      resume: paused.state,
      approvals: { [paused.pending![0]!.id]: { approved: false, reason: "over budget" } },
    });
    expect(denied).toMatchObject({ status: "completed", output: "B was not reordered." });
    expect(shop.ran).toEqual(["notify denied"]);
  });

  it("gives up after maxRepairs failed programs, and a syntax error is a failure like any other", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      { purpose: "plan", reply: program("return (") },
      { purpose: "replan", reply: program("throw new Error('still wrong')") },
    ]);
    const result = await codeMode({ ...options, task: "Units of A", model, tools: shop.tools, maxRepairs: 1 });
    expect(result.status).toBe("failed");
    expect(result.reason).toMatch(/failed 2 time\(s\); the last: \(thrown\) Error: still wrong/);
    expect(model.requests[1]!.messages.at(-1)!.content).toMatch(/\(syntax\) SyntaxError/);
  });

  it("stops a runaway loop of calls at the tool-call budget, even one that catches every error", async () => {
    const shop = shopTools();
    const model = new ScriptedModel([
      { purpose: "plan", reply: program("for (let page = 1; ; page++) { try { await tools.orders_page({ page }); } catch (error) {} }") },
    ]);
    const result = await codeMode({ ...options, task: "Read every page", model, tools: shop.tools, budget: { maxToolCalls: 5 } });
    expect(result).toMatchObject({ status: "budget_exceeded", limit: "maxToolCalls" });
    expect(shop.ran).toHaveLength(5);
    expect(result.usage.toolCalls).toBe(5);
    model.assertDone();
  });

  it("is the fifth strategy of runStrategy", async () => {
    expect(strategyNames).toContain("code");
    const shop = shopTools();
    const model = new ScriptedModel([
      { purpose: "plan", reply: program("return (await tools.stock({ sku: 'C' })).units;") },
      { purpose: "solve", reply: text("C: 40") },
    ]);
    const result = await runStrategy("code", { ...options, task: "Units of C", model, tools: shop.tools });
    expect(result).toMatchObject({ strategy: "code", status: "completed", output: "C: 40" });
    await expect(codeMode({ ...options, task: "x", model, tools: [] })).rejects.toThrow(/code needs tools/);
  });
});

// A code-mode run's calls are the steps of its run wherever a user looks at steps: the trace
// the ui and `planloop trace` draw (bars, plan versions with the program's text), the ui's step
// list, `runs show`, `runs list`'s counts, and OpenTelemetry spans. A run kept in SQLite makes
// parallel calls, fails, is repaired (reading two calls back from the failed program), waits
// for an approval and is continued by id: each call is one step, drawn once.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codeMode, defineTool, openTelemetry } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { ScriptedModel } from "planloop/testing";
import { runDetail } from "../../src/ui/run-detail.js";
import { runPage } from "../../src/ui/run-rows.js";
import { renderTraceHtml } from "../../src/trace/trace-html.js";
import { storedRunEvents } from "../../src/trace/stored-trace.js";
import { cli } from "../helpers/run-cli.js";

const text = (content: string) => ({ type: "final" as const, content });
const fenced = (source: string) => text("```js\n" + source + "\n```");

const first = [
  "const [a, b] = await Promise.all([tools.price({ item: 'apple' }), tools.price({ item: 'bread' })]);",
  "throw new Error('forgot the cheese');",
].join("\n");
const second = [
  "const [a, b, c] = await Promise.all(['apple', 'bread', 'cheese'].map((item) => tools.price({ item })));",
  "return await tools.order({ total: a + b + c });",
].join("\n");

function shop() {
  const ran: string[] = [];
  const price = defineTool({
    name: "price",
    description: "The price of an item",
    input: z.object({ item: z.string() }),
    execute: async ({ item }) => {
      ran.push(`price ${item}`);
      await new Promise((resolve) => setImmediate(resolve));
      return item.length;
    },
  });
  const order = defineTool({
    name: "order",
    description: "Orders the basket",
    input: z.object({ total: z.number() }),
    needsApproval: true,
    execute: ({ total }) => (ran.push(`order ${total}`), `ordered for ${total}`),
  });
  return { ran, tools: [price, order] };
}

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("test") };
}
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe("code mode's calls as steps of the run", () => {
  it("one step per call in the trace, the ui, runs show and runs list; one span per call; a call read back by a repair is not a step twice", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-code-steps-")), "runs.db");
    const store = sqliteStore({ path });
    const made = shop();
    const model = new ScriptedModel([
      { purpose: "plan", reply: fenced(first) },
      { purpose: "replan", reply: fenced(second) },
      { purpose: "solve", reply: text("Ordered the basket for 16.") },
    ]);
    const { exporter, tracer } = tracing();
    const telemetry = openTelemetry({ tracer, recordContent: true });
    const options = { task: "Buy apple, bread and cheese", model, tools: made.tools, store, runId: "basket", grounding: false as const };
    const paused = await codeMode({ ...options, onEvent: telemetry.onEvent });
    expect(paused.status).toBe("waiting");
    expect(made.ran.filter((call) => call === "price apple")).toHaveLength(1);
    const orderId = paused.pending![0]!.id;

    // Spans of the first process: one per call it made, under its program's plan span, none twice.
    const spans = exporter.getFinishedSpans();
    const plans = spans.filter((span) => span.name === "plan");
    expect(plans.map((span) => span.attributes["planloop.program"])).toEqual([first, second]);
    const calls = spans.filter((span) => span.name.startsWith("execute_tool"));
    const under = (plan: ReadableSpan) => calls.filter((span) => parentOf(span) === idOf(plan)).map((span) => span.name);
    expect(under(plans[0]!)).toEqual(["execute_tool price", "execute_tool price"]);
    expect(under(plans[1]!).sort()).toEqual(["execute_tool order", "execute_tool price"]);
    expect(calls).toHaveLength(4);
    const cheese = calls.find((span) => span.attributes["gen_ai.tool.call.arguments"] === JSON.stringify({ item: "cheese" }))!;
    expect(cheese.attributes).toMatchObject({
      "gen_ai.tool.name": "price",
      "planloop.status": "succeeded",
      "gen_ai.tool.call.result": "6",
    });

    // Waiting: three calls ended of the four made or waited for.
    expect((await runPage(store, { limit: 10 })).waiting.map((row) => row.steps)).toEqual(["3/4"]);

    const done = await codeMode({ ...options, approvals: { [orderId]: { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: "Ordered the basket for 16." });
    expect(made.ran).toEqual(["price apple", "price bread", "price cheese", "order 16"]);
    model.assertDone();

    const detail = (await runDetail(store, "basket"))!;
    expect(detail.row.steps).toBe("4/4");
    // The ui's step list: one per call, with its tool, arguments, program and outcome.
    const steps = detail.steps.map((step) => ({
      key: step.stepKey,
      ...(step.record as { tool: string; args: unknown; program: number; status: string }),
    }));
    expect(steps.map(({ tool, args, program, status }) => ({ tool, args, program, status }))).toEqual([
      { tool: "price", args: { item: "apple" }, program: 1, status: "succeeded" },
      { tool: "price", args: { item: "bread" }, program: 1, status: "succeeded" },
      { tool: "price", args: { item: "cheese" }, program: 2, status: "succeeded" },
      { tool: "order", args: { total: 16 }, program: 2, status: "succeeded" },
    ]);
    expect(steps[3]).toMatchObject({ key: orderId, output: "ordered for 16", attempts: 2 });
    expect(new Set(steps.map((step) => step.key)).size).toBe(4);

    // The trace (drawn from the journal: the run was continued): the two programs with their text and calls.
    const trace = detail.trace;
    expect(trace.versions.map((version) => version.program)).toEqual([first, second]);
    expect(trace.versions.map((version) => version.steps.map((step) => `${step.tool}(${JSON.stringify(step.args)})`))).toEqual([
      ['price({"item":"apple"})', 'price({"item":"bread"})'],
      ['price({"item":"cheese"})', 'order({"total":16})'],
    ]);
    const barsOf = (id: string) => trace.bars.filter((bar) => bar.stepId === id).map((bar) => bar.status);
    expect(steps.slice(0, 3).map((step) => barsOf(step.key))).toEqual([["succeeded"], ["succeeded"], ["succeeded"]]);
    // The order waited for the person, then ran once.
    expect(barsOf(orderId)).toEqual(["waiting", "succeeded"]);
    expect(trace.bars.find((bar) => bar.stepId === orderId && bar.status === "succeeded")).toMatchObject({
      tool: "order",
      args: { total: 16 },
    });
    expect(trace.replans.map((replan) => replan.replans)).toEqual([1]);
    expect(trace.pauses).toHaveLength(1);
    expect(trace.status).toBe("completed");
    const page = renderTraceHtml(storedRunEvents((await store.getRun("basket"))!, []));
    expect(page).toContain("Program 2");
    expect(page).toContain("tools.order({ total: a + b + c })");

    // runs show and runs list, as the command prints them.
    await store.close();
    const shown = (await cli("runs", "show", "basket", "--store", `sqlite:${path}`)).out;
    expect(shown).toContain("program 2:\n  | const [a, b, c]");
    expect(shown.match(/ price\(/g)).toHaveLength(3);
    expect(shown).toContain(`step ${orderId} (program 2) order({"total":16}): succeeded (started 2x)`);
    expect((await cli("runs", "list", "--store", `sqlite:${path}`)).out).toMatch(/basket {2}codeMode {2}completed {2}4\/4 steps/);
  });
});

// OpenTelemetry GenAI spans made from a run's events, read back with the SDK's in-memory
// exporter: the span tree of the demo run, attribute values, parent links across parallel steps.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, openTelemetry, runAgent } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { runDemo } from "../../src/demo/run-demo.js";

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("test") };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe("OpenTelemetry spans", () => {
  it("the demo run: a workflow span, a span per plan version, steps under their plan, model calls with usage", async () => {
    const { exporter, tracer } = tracing();
    const telemetry = openTelemetry({ tracer });
    const dir = mkdtempSync(join(tmpdir(), "planloop-otel-"));
    const { result } = await runDemo({ dir, latencyMs: 0, queryLatencyMs: 0, onNotice: () => {}, onEvent: telemetry.onEvent });
    expect(result.status).toBe("completed");
    const spans = exporter.getFinishedSpans();
    const [root, ...others] = [
      spans.find((span) => parentOf(span) === undefined)!,
      ...spans.filter((span) => parentOf(span) !== undefined),
    ];
    expect(spans.filter((span) => parentOf(span) === undefined)).toHaveLength(1);
    expect(root!.name).toBe("invoke_workflow plan-and-execute");
    expect(root!.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_workflow", "planloop.status": "completed" });
    expect(root!.events.map((event) => event.name)).toEqual(["replan", "replan"]);
    const plans = others.filter((span) => span.name === "plan");
    expect(plans.map((span) => span.attributes["planloop.plan.version"])).toEqual([1, 2, 3]);
    for (const plan of plans) expect(parentOf(plan)).toBe(idOf(root!));
    // The three first queries ran side by side under plan 1; the one that failed says why.
    const firstQueries = others.filter((span) => span.name === "execute_tool sql" && parentOf(span) === idOf(plans[0]!));
    expect(firstQueries).toHaveLength(3);
    const failed = firstQueries.find((span) => span.status.code === SpanStatusCode.ERROR)!;
    expect(failed.status.message).toContain("no such column: amount");
    expect(failed.attributes).toMatchObject({
      "gen_ai.tool.name": "sql",
      "planloop.step.id": "2",
      "planloop.status": "failed",
      "planloop.plan.version": 1,
    });
    // Span times are the events' times, whole milliseconds: three quick queries that overlap may
    // start and end within one, so "no query ended before another started" is what can be seen.
    const overlap =
      Math.min(...firstQueries.map((span) => span.endTime[0] * 1e9 + span.endTime[1])) >=
      Math.max(...firstQueries.map((span) => span.startTime[0] * 1e9 + span.startTime[1]));
    expect(overlap).toBe(true);
    // The agent step on the fast tier, and its model call under it.
    const agent = others.find((span) => span.name === "invoke_agent step 8" && parentOf(span) === idOf(plans[2]!))!;
    expect(agent.attributes["gen_ai.operation.name"]).toBe("invoke_agent");
    const inner = others.filter((span) => parentOf(span) === idOf(agent));
    expect(inner.map((span) => span.name)).toEqual(["chat planloop-offline"]);
    // The planner's calls hang from the workflow, with their token counts.
    const chats = others.filter((span) => span.name.startsWith("chat") && parentOf(span) === idOf(root!));
    expect(chats.map((span) => span.attributes["planloop.purpose"])).toEqual(["plan", "replan", "replan", "solve"]);
    expect(chats[0]!.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    expect(chats[0]!.attributes["gen_ai.request.model"]).toBe("planloop-offline");
  });

  it("a ReAct loop: an invoke_agent span with its tool calls; content only when asked for, secrets masked", async () => {
    const lookup = defineTool({
      name: "lookup",
      description: "d",
      input: z.object({ id: z.string(), token: z.string() }),
      execute: ({ id }) => `order ${id}`,
    });
    const run = async (recordContent: boolean) => {
      const { exporter, tracer } = tracing();
      const telemetry = openTelemetry({ tracer, recordContent });
      const model = new ScriptedModel([
        { type: "tool_calls", calls: [{ id: "c1", name: "lookup", arguments: { id: "A7", token: "sk-1" } }] },
        { type: "final", content: "done" },
      ]);
      await runAgent({ model, tools: [lookup], task: "t", onEvent: telemetry.onEvent });
      return exporter.getFinishedSpans();
    };
    const spans = await run(false);
    const root = spans.find((span) => parentOf(span) === undefined)!;
    expect(root.name).toBe("invoke_agent");
    const tool = spans.find((span) => span.name === "execute_tool lookup")!;
    expect(parentOf(tool)).toBe(idOf(root));
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "c1" });
    expect(tool.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    expect(spans.filter((span) => span.name === "chat")).toHaveLength(2);
    const recorded = (await run(true)).find((span) => span.name === "execute_tool lookup")!;
    expect(JSON.parse(String(recorded.attributes["gen_ai.tool.call.arguments"]))).toEqual({ id: "A7", token: "[masked]" });
  });

  it("a plan run alone ends its workflow span with the run's status", async () => {
    const { exporter, tracer } = tracing();
    const telemetry = openTelemetry({ tracer });
    const broken = defineTool({ name: "broken", description: "d", input: z.object({}), execute: () => Promise.reject(new Error("down")) });
    await executePlan({
      plan: { steps: [{ id: 1, task: "b", tool: "broken", args: {} }] },
      tools: [broken],
      retry: { maxAttempts: 1 },
      onEvent: telemetry.onEvent,
    });
    const root = exporter.getFinishedSpans().find((span) => parentOf(span) === undefined)!;
    expect(root.name).toBe("invoke_workflow executePlan");
    expect(root.attributes).toMatchObject({ "gen_ai.workflow.name": "executePlan", "error.type": "failed" });
    expect(root.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(exporter.getFinishedSpans()).toHaveLength(3);
  });
});

// Every entry point as an async iterable of its events while it runs, with the result at the
// end; streaming adapters' pieces of answers as model-delta events, tagged with step and purpose.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, openAICompatible, planAndExecute, runAgent, stream, type PlanloopEvent } from "planloop";
import { startChatServer, type ChatServer } from "../helpers/chat-server.js";

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });
const double = defineTool({
  name: "double",
  description: "Double",
  input: z.object({ value: z.number() }),
  execute: ({ value }) => value * 2,
});

async function collect(events: AsyncIterable<PlanloopEvent>): Promise<PlanloopEvent[]> {
  const seen: PlanloopEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("stream()", () => {
  it("a ReAct loop: events in order while it runs, tool-call argument fragments and answer text as deltas, then the result", async () => {
    server = await startChatServer([
      {
        sse: [
          chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "double", arguments: "" } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"value":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: "21}" } }] }, "tool_calls"),
        ],
      },
      { sse: [chunk({ reasoning_content: "easy" }), chunk({ content: "It is " }), chunk({ content: "42." }, "stop")] },
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
    const mine: string[] = [];
    const run = stream(runAgent, { model, tools: [double], task: "double 21", onEvent: (event) => mine.push(event.type) });
    const events = await collect(run);
    const result = await run.result;
    expect(result).toMatchObject({ status: "completed", output: "It is 42." });
    expect(events.map((event) => event.seq)).toEqual([...events.map((event) => event.seq)].sort((a, b) => a - b));
    expect(events.at(-1)?.type).toBe("agent-end");
    expect(mine).toEqual(events.map((event) => event.type));
    const deltas = events.filter((event) => event.type === "model-delta");
    expect(deltas.filter((event) => "toolCall" in event).map((event) => ("toolCall" in event ? event.toolCall.arguments : ""))).toEqual([
      "",
      '{"value":',
      "21}",
    ]);
    expect(deltas.filter((event) => "text" in event).map((event) => ("text" in event ? event.text : ""))).toEqual(["It is ", "42."]);
    expect(deltas.find((event) => "reasoning" in event)).toMatchObject({ reasoning: "easy", purpose: "act", step: 1 });
  });

  it("a strategy: the plan appears as it is written; the result's trace keeps no deltas", async () => {
    const plan = JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 21 } }] });
    server = await startChatServer([
      { sse: [chunk({ content: plan.slice(0, 20) }), chunk({ content: plan.slice(20) }, "stop")] },
      { sse: [chunk({ content: "42" }, "stop")] },
    ]);
    const planner = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
    const run = stream(planAndExecute, { task: "double 21", planner, tools: [double] });
    const events = await collect(run);
    const written = events
      .filter((event) => event.type === "model-delta" && event.purpose === "plan")
      .map((event) => ("text" in event ? event.text : ""));
    expect(written.join("")).toBe(plan);
    const result = await run.result;
    expect(result.status).toBe("completed");
    expect(result.trace.some((event) => event.type === "model-delta")).toBe(false);
  });

  it("keeps at most maxBuffered events for a reader that falls behind, and says how many it dropped", async () => {
    const steps = Array.from({ length: 50 }, (_, index) => ({ id: index + 1, task: "d", tool: "double", args: { value: index } }));
    const run = stream(executePlan, { plan: { steps }, tools: [double] }, { maxBuffered: 10 });
    await run.result; // the reader starts only now
    const events = await collect(run);
    expect(events[0]).toMatchObject({ type: "events-dropped", count: expect.any(Number) });
    expect(events).toHaveLength(11);
    expect(events.at(-1)?.type).toBe("run-end");
  });

  it("ends with the run's error once the events before it are read; the result rejects with it", async () => {
    const run = stream(runAgent, { model: () => Promise.reject(new Error("model down")), tools: [], task: "t" });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of run) seen.push(event.type);
      })(),
    ).rejects.toThrow("model down");
    expect(seen).toContain("model-call-start");
    await expect(run.result).rejects.toThrow("model down");
    await expect(collect(run)).rejects.toThrow("read once");
  });
});

// A planner asked for a JSON plan asks for it by the plan's JSON Schema where the adapter
// supports structured output (OpenAI-compatible response_format, the AI SDK's
// responseFormat), and falls back to text when the server refuses it.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, fromAISDK, openAICompatible, planAndExecute, type AISDKLanguageModel, type ModelRequest } from "planloop";
import { loadSuite } from "../../src/evals/load-suites.js";
import { offlineTaskFor } from "../../src/evals/bench-offline.js";
import { runBuiltInBench } from "../../src/evals/built-in-bench.js";
import { offlineModel } from "../../src/offline/offline-model.js";
import { completion, startChatServer, type ChatServer } from "../helpers/chat-server.js";

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const double = defineTool({
  name: "double",
  description: "Double",
  input: z.object({ value: z.number() }),
  execute: ({ value }) => value * 2,
});
const plan = JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 21 } }] });
const formatOf = (index: number) =>
  server!.requests[index]!.body.response_format as
    { type: string; json_schema: { name: string; schema: { properties: object } } } | undefined;

describe("structured plans", () => {
  it("asks for the plan by its JSON Schema, and only the plan", async () => {
    server = await startChatServer([completion({ content: plan }), completion({ content: "42" })]);
    const planner = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
    const result = await planAndExecute({ task: "double 21", planner, tools: [double] });
    expect(result).toMatchObject({ status: "completed", output: "42" });
    expect(formatOf(0)).toMatchObject({
      type: "json_schema",
      json_schema: { name: "plan", strict: false, schema: { type: "object", properties: { steps: { type: "array" } } } },
    });
    expect(formatOf(1)).toBeUndefined();
  });

  it("a server that refuses response_format is asked again without it, and not asked with it again", async () => {
    const refused = { status: 400, json: { error: { message: "Unknown parameter: response_format" } } };
    const bad = JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: "x" } }] });
    server = await startChatServer([refused, completion({ content: bad }), completion({ content: plan }), completion({ content: "42" })]);
    const planner = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
    const result = await planAndExecute({ task: "double 21", planner, tools: [double] });
    expect(result).toMatchObject({ status: "completed", output: "42" });
    expect(formatOf(0)).toBeDefined();
    expect(formatOf(1)).toBeUndefined();
    // The repair of the invalid plan is asked as text: the server said it takes no response_format.
    expect(formatOf(2)).toBeUndefined();
    expect(result.trace.filter((event) => event.type === "plan-invalid")).toHaveLength(1);
  });

  it("structuredPlans: false, and a non-JSON plan format, ask for text", async () => {
    server = await startChatServer([
      completion({ content: plan }),
      completion({ content: "42" }),
      completion({ content: "1. double(21)\n2. join()" }),
      completion({ content: "42" }),
    ]);
    const planner = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
    await planAndExecute({ task: "double 21", planner, tools: [double], structuredPlans: false });
    await planAndExecute({ task: "double 21", planner, tools: [double], format: "llm-compiler" });
    expect([0, 1, 2, 3].map(formatOf)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("passes the schema to an AI SDK model as its responseFormat", async () => {
    const calls: Array<Record<string, unknown>> = [];
    const model: AISDKLanguageModel = {
      specificationVersion: "v2",
      modelId: "m",
      doGenerate: async (options) => {
        calls.push(options);
        return { content: [{ type: "text", text: calls.length === 1 ? plan : "42" }] };
      },
    };
    await planAndExecute({ task: "double 21", planner: fromAISDK(model), tools: [double] });
    expect(calls[0]!.responseFormat).toMatchObject({ type: "json", name: "plan", schema: { type: "object" } });
    expect(calls[1]!.responseFormat).toBeUndefined();
  });
});

describe("the bench counts repair rounds", () => {
  it("per run, from the plans sent back as invalid", async () => {
    const suite = { ...loadSuite("chain"), tasks: loadSuite("chain").tasks.slice(0, 1) };
    const offline = offlineModel({ tasks: suite.tasks.map(offlineTaskFor), onNotice: () => {} });
    let plans = 0;
    // A planner that writes one broken plan first, as a model without structured output may.
    const model = (request: ModelRequest) =>
      request.purpose === "plan" && plans++ === 0 ? { type: "final" as const, content: "{ steps: oops" } : offline.generate(request);
    const [record] = await runBuiltInBench({ suites: [suite], strategies: ["plan-and-execute"], model, latencyScale: 0 });
    expect(record).toMatchObject({ correct: true, repairs: 1 });
  });
});

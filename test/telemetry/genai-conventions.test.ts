// Every span planloop makes, checked against the OpenTelemetry GenAI semantic conventions as
// published (../shared/data/otel-genai-semconv: the registry and span definitions): names,
// kinds, required and conditionally required attributes, types, nothing deprecated. Runs: the
// demo, a plan whose tool fails, and a ReAct loop over HTTP (a local scripted server).
import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, openAICompatible, openTelemetry, runAgent, type PlanloopEvent } from "planloop";
import { runDemo } from "../../src/demo/run-demo.js";
import { startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

interface Semconv {
  attributes: Record<string, { type: unknown; deprecated: unknown }>;
  groups: Record<
    string,
    { extends: string | null; span_kind: string | null; attributes: Array<{ ref?: string; requirement_level?: unknown }> }
  >;
}

const file = sharedPath("data", "otel-genai-semconv", "semconv.json");
/** Which span definition each operation follows; `plan` is planloop's own (docs/observing-runs.md). */
const definitionOf: Record<string, { group: string; kinds: SpanKind[] } | undefined> = {
  chat: { group: "span.gen_ai.inference.client", kinds: [SpanKind.CLIENT, SpanKind.INTERNAL] },
  execute_tool: { group: "span.gen_ai.execute_tool.internal", kinds: [SpanKind.INTERNAL] },
  invoke_agent: { group: "span.gen_ai.invoke_agent.internal", kinds: [SpanKind.INTERNAL] },
  invoke_workflow: { group: "span.gen_ai.invoke_workflow.internal", kinds: [SpanKind.INTERNAL] },
  plan: undefined,
};

/** A group's attributes with the requirement level the most specific group gives each. */
function requirements(semconv: Semconv, group: string): Map<string, unknown> {
  const chain: string[] = [];
  for (let at: string | null = group; at !== null; at = semconv.groups[at]!.extends) chain.unshift(at);
  const levels = new Map<string, unknown>();
  for (const name of chain)
    for (const attribute of semconv.groups[name]!.attributes)
      if (attribute.ref && attribute.requirement_level != null) levels.set(attribute.ref, attribute.requirement_level);
  return levels;
}

function typeMatches(type: unknown, value: unknown): boolean {
  if (typeof type === "object" && type !== null && "enum" in type) return typeof value === "string";
  switch (type) {
    case "string":
      return typeof value === "string";
    case "int":
      return Number.isInteger(value);
    case "double":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "string[]":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    default:
      return true; // "any"
  }
}

/** Everything wrong with one span, as lines. */
function problemsOf(semconv: Semconv, span: ReadableSpan): string[] {
  const problems: string[] = [];
  const say = (problem: string) => problems.push(`${span.name}: ${problem}`);
  const operation = span.attributes["gen_ai.operation.name"];
  if (typeof operation !== "string") return [`${span.name}: no gen_ai.operation.name`];
  const conventional = (key: string) => key.startsWith("gen_ai.") || key.startsWith("server.") || key.startsWith("error.");
  for (const [key, value] of Object.entries(span.attributes)) {
    if (!conventional(key)) continue;
    const known = semconv.attributes[key];
    if (known === undefined) say(`${key} is not in the registry`);
    else if (known.deprecated) say(`${key} is deprecated`);
    else if (!typeMatches(known.type, value)) say(`${key} is ${JSON.stringify(value)}, not of type ${JSON.stringify(known.type)}`);
  }
  for (const event of span.events)
    for (const key of Object.keys(event.attributes ?? {}))
      if (conventional(key) && (semconv.attributes[key] === undefined || semconv.attributes[key]!.deprecated))
        say(`event ${event.name} sets ${key}, deprecated or unknown`);
  if (span.status.code === SpanStatusCode.ERROR && span.attributes["error.type"] === undefined) say("failed, without error.type");
  if (span.attributes["server.address"] !== undefined && span.attributes["server.port"] === undefined)
    say("server.address without server.port");
  if (!(operation in definitionOf)) say(`operation ${operation} is neither the conventions' nor documented as planloop's`);
  const definition = definitionOf[operation];
  if (definition === undefined) return problems;
  if (!definition.kinds.includes(span.kind)) say(`kind ${span.kind}`);
  if (operation === "chat" && span.attributes["server.address"] !== undefined && span.kind !== SpanKind.CLIENT)
    say("a remote call, not CLIENT");
  for (const [key, level] of requirements(semconv, definition.group))
    if (level === "required" && span.attributes[key] === undefined) say(`required ${key} missing`);
  const subject: Record<string, string | undefined> = {
    chat: span.attributes["gen_ai.request.model"] as string | undefined,
    execute_tool: span.attributes["gen_ai.tool.name"] as string | undefined,
    invoke_workflow: span.attributes["gen_ai.workflow.name"] as string | undefined,
    invoke_agent: span.attributes["gen_ai.agent.name"] as string | undefined,
  };
  const expected = subject[operation] === undefined ? operation : `${operation} ${subject[operation]}`;
  if (span.name !== expected) say(`named "${span.name}", not "${expected}"`);
  if (operation === "invoke_workflow" && span.attributes["gen_ai.workflow.name"] === undefined) say("no gen_ai.workflow.name");
  return problems;
}

async function spansOf(run: (onEvent: (event: PlanloopEvent) => void) => Promise<unknown>, tools?: Parameters<typeof openTelemetry>[0]) {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
  const telemetry = openTelemetry({ tracer, recordContent: true, ...tools });
  await run(telemetry.onEvent);
  return exporter.getFinishedSpans();
}

let server: ChatServer | undefined;
afterAll(async () => server?.close());

describe.skipIf(skipWithout(file))("spans against the GenAI semantic conventions (needs ../shared/data/otel-genai-semconv)", () => {
  const semconv = skipWithout(file) ? ({ attributes: {}, groups: {} } as Semconv) : (JSON.parse(readFileSync(file, "utf8")) as Semconv);

  it("the demo's spans", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-semconv-"));
    const spans = await spansOf((onEvent) => runDemo({ dir, latencyMs: 0, queryLatencyMs: 0, onNotice: () => {}, onEvent }));
    expect(spans.length).toBeGreaterThan(15);
    expect(spans.flatMap((span) => problemsOf(semconv, span))).toEqual([]);
    const ops = new Set(spans.map((span) => span.attributes["gen_ai.operation.name"]));
    expect([...ops].sort()).toEqual(["chat", "execute_tool", "invoke_agent", "invoke_workflow", "plan"]);
  });

  it("a plan whose tool fails: error.type on every failed span, the tool's type and description, arguments and result", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Always down",
      input: z.object({ id: z.number() }),
      execute: () => Promise.reject(new Error("down")),
    });
    const fine = defineTool({ name: "fine", description: "Works", input: z.object({}), execute: () => "ok" });
    const tools = [broken, fine];
    const spans = await spansOf(
      (onEvent) =>
        executePlan({
          plan: {
            steps: [
              { id: 1, task: "f", tool: "fine", args: {} },
              { id: 2, task: "b", tool: "broken", args: { id: 7 } },
            ],
          },
          tools,
          retry: { maxAttempts: 1 },
          onEvent,
        }),
      { tools },
    );
    expect(spans.flatMap((span) => problemsOf(semconv, span))).toEqual([]);
    const failed = spans.find((span) => span.name === "execute_tool broken")!;
    expect(failed.attributes).toMatchObject({
      "error.type": "failed",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.description": "Always down",
      "gen_ai.tool.call.arguments": '{"id":7}',
    });
    expect(spans.find((span) => span.name === "execute_tool fine")!.attributes["gen_ai.tool.call.result"]).toBe("ok");
  });

  it("a ReAct loop over HTTP: CLIENT chat spans with the server, the response's model, id and finish reason, usage on the agent", async () => {
    server = await startChatServer([
      {
        json: {
          id: "chatcmpl-1",
          model: "gpt-4o-2024-08-06",
          choices: [
            {
              message: { tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: '{"id":"A7"}' } }] },
              finish_reason: "tool_calls",
            },
          ],
          usage: { prompt_tokens: 30, completion_tokens: 5 },
        },
      },
      {
        json: {
          id: "chatcmpl-2",
          model: "gpt-4o-2024-08-06",
          choices: [{ message: { content: "A7 shipped" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 40, completion_tokens: 3 },
        },
      },
    ]);
    const lookup = defineTool({
      name: "lookup",
      description: "Looks an order up",
      input: z.object({ id: z.string() }),
      execute: ({ id }) => `${id}: shipped`,
    });
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o", stream: false });
    const spans = await spansOf((onEvent) => runAgent({ model, tools: [lookup], task: "A7?", onEvent }), { tools: [lookup] });
    expect(spans.flatMap((span) => problemsOf(semconv, span))).toEqual([]);
    const chats = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(chats).toHaveLength(2);
    const port = Number(new URL(server.baseURL).port);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes).toMatchObject({
        "server.address": "127.0.0.1",
        "server.port": port,
        "gen_ai.response.model": "gpt-4o-2024-08-06",
      });
    }
    expect(chats.map((chat) => chat.attributes["gen_ai.response.finish_reasons"])).toEqual([["tool_calls"], ["stop"]]);
    expect(chats.map((chat) => chat.attributes["gen_ai.response.id"])).toEqual(["chatcmpl-1", "chatcmpl-2"]);
    const agent = spans.find((span) => span.attributes["gen_ai.operation.name"] === "invoke_agent")!;
    expect(agent.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 70,
      "gen_ai.usage.output_tokens": 8,
      "gen_ai.provider.name": "openai-compatible",
    });
    const tool = spans.find((span) => span.name === "execute_tool lookup")!;
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.call.arguments": '{"id":"A7"}', "gen_ai.tool.call.result": "A7: shipped" });
  });
});

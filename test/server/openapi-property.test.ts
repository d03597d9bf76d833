// The run server against its own OpenAPI document, as a generated client would read it: requests
// made from the document's schemas (and some that are not: any JSON for a body, hostile run ids,
// no token), each answer's status listed for its operation and its body valid against the
// schema the document gives that status. Two runs are there to act on: one waiting for an
// approval, one completed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { z } from "zod";
import { Ajv2020 } from "ajv/dist/2020.js";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient } from "planloop/client";
import { refundTool } from "../helpers/refund-tool.js";
import { hostileReferences } from "../helpers/hostile-run-ids.js";
import { arbitraryOf } from "../helpers/json-schema-arbitrary.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

type Schema = Record<string, unknown>;
interface Operation {
  path: string;
  method: string;
  parameters?: Array<{ name: string; in: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const echo = defineTool({ name: "echo", description: "Echo", input: z.object({ text: z.string() }), execute: ({ text }) => text });

let store: CheckpointStore;
let server: RunServer;
let document: Schema;
beforeAll(async () => {
  store = memoryStore();
  server = await startRunServer({ store, tools: [echo, refundTool().refund], pollMs: 20 });
  const client = planloopClient({ url: server.url, token: server.sessionToken! });
  await client.start({ runId: "done", plan: { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] } });
  await client.start({ runId: "waits", plan: { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A7" } }] } });
  for (const runId of ["done", "waits"]) for await (const event of client.stream(runId)) if (event.type === "run-paused") break;
  document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Schema;
});
afterAll(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, Omit<Operation, "path" | "method">>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ ...operation, path, method }) as Operation),
  );

/** Bodies a real client sends, beside those made from the schemas (which mostly name tools the server lacks): starts, retries, forks, decisions. */
const likelyBodies: Record<string, fc.Arbitrary<unknown>> = {
  "post /api/runs": fc.record({
    plan: fc.record({
      steps: fc.tuple(
        fc.record({ id: fc.constant(1), task: fc.constant("echo"), tool: fc.constant("echo"), args: fc.record({ text: fc.string() }) }),
      ),
    }),
    runId: fc.stringMatching(/^[a-c]{1,2}$/),
  }),
  "post /api/runs/{id}/fork": fc.record(
    { step: fc.constantFrom(1, "1", 2), runId: fc.stringMatching(/^f[a-c]?$/), args: fc.record({ text: fc.string() }) },
    { requiredKeys: ["step"] },
  ),
  "post /api/runs/{id}/decisions": fc.constantFrom(
    { pendingId: "step:1", action: "approve" },
    { pendingId: "step:1", action: "deny", reason: "no" },
    [{ pendingId: "step:1", action: "approve" }],
    { grant: { tool: "refund", scope: "run", expiresInMs: 60_000 } },
  ),
};

/** A request for one operation: its path's names (a run's, or a hostile one), its query, its body, with a token or not. */
function requestFor(operation: Operation) {
  const runIds = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("done", "waits") },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:@~-]{1,12}$/) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileReferences, "../done", "done/plan:1", "%2e%2e", "__proto__") },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === "query");
  const bodySchema = operation.requestBody?.content["application/json"]?.schema;
  return fc.record({
    id: runIds,
    name: fc.oneof(fc.constantFrom("export-ready", "__proto__"), fc.string({ minLength: 1, maxLength: 12 })),
    query: fc.record(
      Object.fromEntries(
        query.map((parameter) => [parameter.name, fc.oneof(arbitraryOf(parameter.schema, document), fc.string({ maxLength: 6 }))]),
      ),
      { requiredKeys: [] },
    ),
    body:
      bodySchema === undefined
        ? fc.constant(undefined)
        : fc.oneof(
            { weight: 3, arbitrary: arbitraryOf(bodySchema, document) },
            {
              weight: likelyBodies[`${operation.method} ${operation.path}`] ? 3 : 0,
              arbitrary: likelyBodies[`${operation.method} ${operation.path}`] ?? fc.constant({}),
            },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
          ),
    token: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  });
}

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.sessionToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<Schema, ReturnType<typeof ajv.compile>>();
/** A response schema with the document's components beside it, so its `$ref`s resolve. */
function validatorOf(schema: Schema) {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(schema, validate);
  }
  return validate;
}

describe("the OpenAPI document and the server's answers", () => {
  it("every success answer has a schema, the plan is planloop's plan format, and no schema is `{}` where a body is", () => {
    for (const operation of operations())
      for (const [status, response] of Object.entries(operation.responses)) {
        const content = response.content ?? {};
        expect(Object.keys(content), `${operation.method} ${operation.path} ${status}`).not.toEqual([]);
      }
    const schemas = (document.components as { schemas: Record<string, Schema> }).schemas;
    expect(schemas.Plan).toMatchObject({ type: "object", required: ["steps"] });
    expect(JSON.stringify(schemas.StartRun)).toContain('"plan":{"$ref":"#/components/schemas/Plan"');
    expect(schemas.RunView).toMatchObject({ required: expect.arrayContaining(["runId", "status", "pending", "decisions"]) });
  });

  it("a run id the document refuses the server refuses, and one it takes the server takes (the patterns read alike in any regex dialect)", async () => {
    expect(JSON.stringify(document)).not.toContain("\\\\w");
    const schemas = (document.components as { schemas: Record<string, Schema> }).schemas;
    const event = ajv.compile({ $ref: "#/components/schemas/Event", components: document.components });
    const start = ajv.compile({ $ref: "#/components/schemas/StartRun", components: document.components });
    expect(schemas.Event).toBeDefined();
    const plan = { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] };
    for (const runId of ["", "é", "a/b", "a b", "x".repeat(241), "weekly@2026-12-07", "ok-1", "__proto__"]) {
      const sent = await post(`/api/events/ready`, { runId });
      expect([runId, sent.status]).toEqual([runId, event({ runId }) ? 202 : 400]);
      const started = await post(`/api/runs`, { plan, runId });
      expect([runId, started.status]).toEqual([runId, start({ plan, runId }) ? 201 : 400]);
    }
  });

  it("answers every generated request with a status its operation lists and a body its schema takes (property)", async () => {
    const all = operations();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...all).chain((operation) => requestFor(operation).map((request) => ({ operation, request }))),
        async ({ operation, request }) => {
          const path = operation.path.replace("{id}", encodeURIComponent(request.id)).replace("{name}", encodeURIComponent(request.name));
          const search = new URLSearchParams(Object.entries(request.query).map(([key, value]): [string, string] => [key, String(value)]));
          const controller = new AbortController();
          const response = await fetch(`${server.url}${path}${search.size > 0 ? `?${search}` : ""}`, {
            method: operation.method.toUpperCase(),
            headers: {
              ...(request.token ? { authorization: `Bearer ${server.sessionToken}` } : {}),
              ...(request.body === undefined ? {} : { "content-type": "application/json" }),
            },
            ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
            signal: controller.signal,
          });
          const what = `${operation.method.toUpperCase()} ${path} ${JSON.stringify(request.body)?.slice(0, 300)} → ${response.status}`;
          const documented = operation.responses[String(response.status)];
          expect(documented, `${what}: the document lists ${Object.keys(operation.responses).join(", ")}`).toBeDefined();
          const type = response.headers.get("content-type") ?? "";
          if (type.startsWith("text/event-stream")) {
            // A stream of a waiting run stays open: its status and its kind are what is checked.
            expect(documented!.content?.["text/event-stream"], what).toBeDefined();
            controller.abort();
            return;
          }
          const schema = documented!.content?.["application/json"]?.schema;
          expect(schema, `${what}: ${type}`).toBeDefined();
          const answer = (await response.json()) as unknown;
          const validate = validatorOf(schema!);
          expect(validate(answer), `${what}: ${JSON.stringify(answer).slice(0, 300)} ${ajv.errorsText(validate.errors)}`).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

import { z } from "zod";
import { planSchema } from "../plan/plan-schema.js";
import { decisionsBody, eventBody, forkBody, planField, startRunBody } from "./api-requests.js";
import * as answers from "./api-responses.js";

/**
 * Every body the server takes and gives, by the name the document gives it: one registry, so
 * each schema is written once under `components.schemas` and referred to wherever it is used.
 */
const requests = { StartRun: startRunBody, Decisions: decisionsBody, Fork: forkBody, Event: eventBody, Plan: planSchema };
const responses = {
  RunCreated: answers.runCreated,
  RunList: answers.runList,
  RunView: answers.runView,
  ForkCreated: answers.forkCreated,
  RunCancelled: answers.runCancelled,
  DecisionsTaken: answers.decisionsTaken,
  GrantKept: answers.grantKept,
  EventKept: answers.eventKept,
  Error: answers.apiError,
};

/** The JSON Schemas of named zod schemas, each `$ref` pointing into the document's components; a plan field shows the plan format. */
function components(named: Record<string, z.ZodType>, io: "input" | "output"): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema !== planField) return;
      const description = jsonSchema.description;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
      Object.assign(jsonSchema, { $ref: "#/components/schemas/Plan", ...(description ? { description } : {}) });
    },
  });
  // The document's dialect is OpenAPI 3.1's (2020-12), and a schema is found by its place: none names its own dialect or id.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]));
}

const ref = (id: keyof typeof requests | keyof typeof responses) => ({ $ref: `#/components/schemas/${id}` });
const body = (id: keyof typeof requests) => ({ required: true, content: { "application/json": { schema: ref(id) } } });
const answer = (id: keyof typeof responses, description: string) => ({ description, content: { "application/json": { schema: ref(id) } } });
const error = answer("Error", "refused: `{ error, field?, ids?, problems? }`");
const refusals = { 400: error, 401: error, 403: error, 404: error, 405: error, 409: error, 413: error, 415: error };
const runIdParameter = { name: "id", in: "path", required: true, schema: { type: "string" } };
const scope = (name: string) => ({ security: [{ bearer: [name] }] });

let document: object | undefined;

/**
 * The run server's API as an OpenAPI 3.1 document (`GET /api/openapi.json`): every request body
 * and every answer, successes and refusals, from the same zod schemas the server checks and
 * answers with (`api-requests.ts`, `api-responses.ts`); the plan in its own format.
 */
export function openApiDocument(): object {
  document ??= {
    openapi: "3.1.0",
    info: { title: "planloop run server", version: "1", description: "Start, follow, decide and cancel planloop runs (docs/server.md)." },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A token from `planloop serve tokens add`, or the one serve prints" },
      },
      schemas: { ...components(requests, "input"), ...components(responses, "output") },
    },
    paths: {
      "/api/runs": {
        get: {
          summary: "The runs, newest first",
          ...scope("read"),
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer" } },
            { name: "status", in: "query", schema: { type: "string" } },
          ],
          responses: { 200: answer("RunList", "the runs"), ...refusals },
        },
        post: {
          summary: "Start a run: a plan, or a task for a strategy",
          ...scope("run"),
          requestBody: body("StartRun"),
          responses: {
            201: answer("RunCreated", "started: `{ runId, created: true }`"),
            200: answer("RunCreated", "a run with this id was there already: `{ runId, created: false }`"),
            ...refusals,
          },
        },
      },
      "/api/runs/{id}": {
        get: {
          summary: "A run: status, what it waits for, its result",
          ...scope("read"),
          parameters: [runIdParameter],
          responses: { 200: answer("RunView", "the run"), ...refusals },
        },
      },
      "/api/runs/{id}/stream": {
        get: {
          summary: "The run's events as server-sent events, resumable with Last-Event-ID; ends with `event: end`",
          ...scope("read"),
          parameters: [
            runIdParameter,
            { name: "Last-Event-ID", in: "header", schema: { type: "string" } },
            { name: "format", in: "query", schema: { type: "string", enum: ["planloop", "ai-sdk", "ag-ui"], default: "planloop" } },
          ],
          responses: {
            200: { description: "text/event-stream", content: { "text/event-stream": { schema: { type: "string" } } } },
            ...refusals,
          },
        },
      },
      "/api/runs/{id}/decisions": {
        post: {
          summary: "Decide one pending item, or a wave of them all-or-nothing, or grant a tool's later calls",
          ...scope("decide"),
          parameters: [runIdParameter],
          requestBody: body("Decisions"),
          responses: {
            202: answer("DecisionsTaken", "decided: `{ decided, continued }`"),
            201: answer("GrantKept", "a standing grant kept: `{ grant, decided }`"),
            422: error,
            ...refusals,
          },
        },
      },
      "/api/runs/{id}/fork": {
        post: {
          summary: "Rerun from a step: a new run, the steps before it reused, started at once",
          ...scope("run"),
          parameters: [runIdParameter],
          requestBody: body("Fork"),
          responses: {
            201: answer("ForkCreated", "started: `{ runId, created: true, rerun, reused }`"),
            200: answer("ForkCreated", "the same fork asked again (a retry): `{ runId, created: false }`"),
            ...refusals,
          },
        },
      },
      "/api/runs/{id}/cancel": {
        post: {
          summary: "Cancel the run; its running tools are aborted",
          ...scope("run"),
          parameters: [runIdParameter],
          responses: { 200: answer("RunCancelled", "cancelled: `{ runId, status }`"), ...refusals },
        },
      },
      "/api/events/{name}": {
        post: {
          summary: "Send an event to the runs waiting for it",
          ...scope("run"),
          parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
          requestBody: body("Event"),
          responses: { 202: answer("EventKept", "the event as kept"), ...refusals },
        },
      },
    },
  };
  return document;
}

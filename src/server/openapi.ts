import { z } from "zod";
import { decisionsBody, eventBody, forkBody, startRunBody } from "./api-requests.js";

const json = (schema: z.ZodType) => ({ "application/json": { schema: z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) } });
const error = {
  description: "refused: `{ error, field?, ids? }`",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};
const refusals = { 400: error, 401: error, 403: error, 404: error, 409: error, 413: error, 415: error };
const runIdParameter = { name: "id", in: "path", required: true, schema: { type: "string" } };
const scope = (name: string) => ({ security: [{ bearer: [name] }] });

let document: object | undefined;

/** The run server's API as an OpenAPI 3.1 document (`GET /api/openapi.json`), its bodies from the same zod schemas the server checks with. */
export function openApiDocument(): object {
  document ??= {
    openapi: "3.1.0",
    info: { title: "planloop run server", version: "1", description: "Start, follow, decide and cancel planloop runs (docs/server.md)." },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A token from `planloop serve tokens add`, or the one serve prints" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: { error: { type: "string" }, field: { type: "string" }, ids: { type: "array", items: { type: "string" } } },
        },
      },
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
          responses: { 200: { description: "`{ runs }`" }, ...refusals },
        },
        post: {
          summary: "Start a run: a plan, or a task for a strategy",
          ...scope("run"),
          requestBody: { required: true, content: json(startRunBody) },
          responses: {
            201: { description: "`{ runId, created: true }`" },
            200: { description: "a run with this id was there already: `{ runId, created: false }`" },
            ...refusals,
          },
        },
      },
      "/api/runs/{id}": {
        get: {
          summary: "A run: status, what it waits for, its result",
          ...scope("read"),
          parameters: [runIdParameter],
          responses: { 200: { description: "RunView" }, ...refusals },
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
          summary: "Decide one pending item, or a wave of them all-or-nothing",
          ...scope("decide"),
          parameters: [runIdParameter],
          requestBody: { required: true, content: json(decisionsBody) },
          responses: { 202: { description: "`{ decided, continued }`" }, 422: error, ...refusals },
        },
      },
      "/api/runs/{id}/fork": {
        post: {
          summary: "Rerun from a step: a new run, the steps before it reused, started at once",
          ...scope("run"),
          parameters: [runIdParameter],
          requestBody: { required: true, content: json(forkBody) },
          responses: { 201: { description: "`{ runId, rerun, reused }`" }, ...refusals },
        },
      },
      "/api/runs/{id}/cancel": {
        post: {
          summary: "Cancel the run; its running tools are aborted",
          ...scope("run"),
          parameters: [runIdParameter],
          responses: { 200: { description: "`{ runId, status }`" }, ...refusals },
        },
      },
      "/api/events/{name}": {
        post: {
          summary: "Send an event to the runs waiting for it",
          ...scope("run"),
          parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: json(eventBody) },
          responses: { 202: { description: "the event as kept" }, ...refusals },
        },
      },
    },
  };
  return document;
}

import { z } from "zod";

/**
 * What the run server answers, as zod schemas: the OpenAPI document gives each success and each
 * refusal its schema from these (`openapi.ts`), and the server's handlers are typed by them
 * (`Answer<typeof runView>`), so the document and the answers are one thing. Objects are open
 * (a later server may add a field); every field the server sends is named.
 */

const runId = z.string().describe("The run's id");
const time = z.number().describe("Milliseconds since the epoch");

export const runCreated = z.object({
  runId,
  created: z.boolean().describe("False when a run with this id was there already: a retried request starts nothing twice"),
});

export const runList = z.object({
  runs: z.array(
    z.object({
      runId,
      entry: z.string(),
      status: z.string(),
      unsupportedClaims: z
        .number()
        .int()
        .positive()
        .optional()
        .describe("A completed run whose answer has this many claims its steps do not support (docs/grounded-reports.md)"),
      createdAt: time,
      updatedAt: time,
    }),
  ),
});

const pendingItem = z.looseObject({
  id: z.string().describe("What a decision names as its pendingId"),
  kind: z.string().describe("approval, question, plan-review, …"),
});

export const runView = z.object({
  runId,
  entry: z.string().describe("How the run was started: plan, planAndExecute, runAgent, …"),
  status: z.string().describe("running, waiting, completed, failed, cancelled, …"),
  createdAt: time,
  updatedAt: time,
  pending: z.array(pendingItem).describe("What it waits for, while it waits"),
  decisions: z.array(z.object({ run: z.string(), id: z.string(), decision: z.unknown(), at: time.optional(), by: z.string().optional() })),
  origin: z
    .object({
      schedule: z.object({ name: z.string(), fireAt: time }).optional(),
      forkedFrom: z.object({ runId, step: z.string() }).optional(),
      client: z.string().optional(),
    })
    .optional(),
  result: z.unknown().optional().describe("The run's result, once it finished"),
  webhooks: z
    .array(
      z.object({
        type: z.string(),
        url: z.string(),
        attempt: z.number().int(),
        at: time,
        outcome: z.union([z.number(), z.string()]).describe("The receiver's HTTP status, or why there was none"),
        delivered: z.boolean(),
      }),
    )
    .optional()
    .describe("Each try of each webhook of the run"),
});

export const forkCreated = runCreated.extend({
  rerun: z.array(z.string()).optional().describe("The steps the new run runs again (not on a retry)"),
  reused: z.array(z.string()).optional().describe("The steps whose results it reuses (not on a retry)"),
});

export const runCancelled = z.object({ runId, status: z.literal("cancelled") });

export const decisionsTaken = z.object({
  decided: z.array(z.string()).describe("The ids decided, in the order given"),
  continued: z.boolean().describe("The run goes on in the server's process; follow it on its stream"),
});

export const grantKept = z.object({
  grant: z.object({
    tool: z.string(),
    args: z.record(z.string(), z.unknown()).optional(),
    scope: z.enum(["run", "schedule"]),
    within: z.string().describe("The run, or the schedule, it holds in"),
    expiresAt: time,
    by: z.string(),
    at: time,
  }),
  decided: z.array(z.string()).describe("What the run waited for that the grant approved at once"),
});

export const eventKept = z.object({
  id: z.string(),
  seq: z.number().int().describe("The event's number in the store"),
  duplicate: z.boolean().describe("The same event (name, id, run) had been sent before"),
});

export const apiError = z.object({
  error: z.string(),
  field: z.string().optional().describe("For a bad body: where in it"),
  ids: z.array(z.string()).optional().describe("For a refused decision or wave: the ids of the bad items"),
  problems: z
    .array(z.object({ pendingId: z.string(), problem: z.string(), message: z.string(), errors: z.array(z.string()).optional() }))
    .optional(),
});

/** What a handler answers with a schema's shape. */
export type Answer<Schema extends z.ZodType> = z.input<Schema>;

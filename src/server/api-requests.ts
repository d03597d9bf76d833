import { z } from "zod";
import { strategyNames } from "../strategies/run-strategy.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import { newRunIdSchema, runReferenceSchema } from "../runs/run-id.js";
import { RunRequestError } from "../runs/hosted-request.js";
import { bodyProblem, pathText } from "./body-problem.js";
import { groundingChoices } from "../grounding/grounding-gate.js";

/**
 * The bodies the run server takes, as zod schemas: checked before anything happens, and each
 * refusal names the field (`readBody`). The OpenAPI document is made from the same schemas.
 */

/** A new run's id: the library's one rule (`checkNewRunId`), so no caller names an inner run, a schedule's, or nothing. */
const runId = newRunIdSchema;

/**
 * A grant's `args`: any JSON object, taken as sent (not rebuilt key by key, which would drop a
 * `__proto__` key and leave a pattern that approves every call); `grantPattern` keeps it exactly.
 */
const grantArgs = z
  .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
    message: "an object of the argument values a call must have",
  })
  .meta({ type: "object", description: 'Arguments a call must have, each equal as JSON (1 is not "1")' });

/**
 * A plan, as the body holds it: checked against the server's tools by the run host (whose
 * refusals name the step), so the body takes any value here; the document shows planloop's
 * plan format in its place (`openapi.ts`).
 */
export const planField = z.unknown().describe("A plan (planloop's JSON plan format), checked against the server's tools");

const webhook = z
  .url({ protocol: /^https?$/ })
  .describe("Also POST this run's webhooks here (waiting, completed, failed, cancelled), signed as the server's are");

export const startRunBody = z.union([
  z.strictObject({
    plan: planField,
    runId: runId.optional(),
    webhook: webhook.optional(),
  }),
  z.strictObject({
    task: z.string().min(1).max(20_000),
    strategy: z.enum(strategyNames as [StrategyName, ...StrategyName[]]).default("plan-and-execute"),
    runId: runId.optional(),
    webhook: webhook.optional(),
    grounding: z
      .enum(groundingChoices)
      .optional()
      .describe(
        "How the answer's figures are checked against the steps: flag (the default: a completed run with unsupported claims says so in its outcome, the runs list and its webhook), repair, strict, or off",
      ),
    budget: z
      .strictObject({
        maxTokens: z.number().int().positive().optional(),
        maxCostUsd: z.number().positive().optional(),
        maxToolCalls: z.number().int().positive().optional(),
        deadlineMs: z.number().int().positive().optional(),
      })
      .optional(),
  }),
]);

const decision = z.discriminatedUnion("action", [
  z.strictObject({ pendingId: z.string().min(1), action: z.literal("approve") }),
  z.strictObject({ pendingId: z.string().min(1), action: z.literal("deny"), reason: z.string().max(2_000).optional() }),
  z.strictObject({ pendingId: z.string().min(1), action: z.literal("answer"), text: z.string().min(1).max(20_000) }),
  z.strictObject({ pendingId: z.string().min(1), action: z.literal("edit"), plan: planField }),
]);

/** A standing grant: approve this tool's later calls (those whose arguments hold `args`) in this run, or in its schedule's runs. */
export const grantBody = z.strictObject({
  grant: z.strictObject({
    tool: z.string().min(1),
    args: grantArgs.optional(),
    scope: z.enum(["run", "schedule"]),
    expiresInMs: z
      .number()
      .int()
      .positive()
      .max(30 * 24 * 3_600_000),
  }),
});

/** One decision, a wave of them (`[{ pendingId, action, … }]`, at most 1,000), or a standing grant. */
export const decisionsBody = z.union([decision, z.array(decision).min(1).max(1_000), grantBody]);

/** Rerun from a step: `{ step, args? }` or `{ step, plan }`. */
export const forkBody = z.strictObject({
  step: z.union([z.string().min(1), z.number()]).describe("The step to run again; the steps before it are reused"),
  args: z.unknown().optional().describe("New arguments for that step"),
  plan: planField.optional().describe("A whole edited plan instead (not with args)"),
  runId: runId.optional(),
});

export const eventBody = z.strictObject({
  id: z.string().min(1).max(200).optional().describe("The event's id: the same id twice is one event"),
  runId: runReferenceSchema.optional().describe("Only this run (and the runs kept inside it) may take the event"),
  data: z.unknown().optional().describe("What the waiting step gets as its output"),
});

/** What a body failed with: the first problem, and the field it is about (the run host's own refusals are of the same kind). */
export { RunRequestError as BodyError };

/**
 * Reads `body` by `schema`, or throws a `BodyError` naming the field and saying what it should
 * hold and what the body had (`body: "plna" is not a field here (did you mean "plan"?); …`).
 */
export function readBody<Schema extends z.ZodType>(schema: Schema, body: unknown, what: string): z.output<Schema> {
  const read = schema.safeParse(body);
  if (read.success) return read.data;
  const issue = deepest(read.error.issues);
  const message = bodyProblem({ schema, body, issues: read.error.issues, issue, what });
  throw new RunRequestError(message, `${what}${pathText(issue.path)}`);
}

type Issue = z.core.$ZodIssue;

/** The issue a person should read first: inside a union, the branch that got furthest into what was sent. */
function deepest(issues: readonly Issue[]): Issue {
  let best: Issue | undefined;
  for (const issue of issues) {
    const candidates =
      issue.code === "invalid_union" && issue.errors.length > 0
        ? issue.errors.map((branch) => {
            const inner = deepest(branch);
            return { ...inner, path: [...issue.path, ...inner.path] } as Issue;
          })
        : [issue];
    for (const candidate of candidates) if (best === undefined || weight(candidate) > weight(best)) best = candidate;
  }
  return best!;
}

/** Deeper is better; about a value that was sent beats a field that is missing. */
function weight(issue: Issue): number {
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  return issue.path.length * 2 + (missing ? 0 : 1);
}

export type StartRun = z.output<typeof startRunBody>;
export type Decisions = z.output<typeof decisionsBody>;
export type GrantRequest = z.output<typeof grantBody>["grant"];

import type { z as Zod } from "zod";

/**
 * The plan's zod schemas, made with the zod namespace given: `plan-schema.ts` makes the
 * public ones with the zod it imports; a process that never loaded zod (`planloop validate`
 * on a well-formed plan) makes them only if a plan needs zod's reading (see `planSchemas`).
 */
export function definePlanSchemas(z: typeof Zod) {
  const stepIdSchema = z.union([z.string().min(1), z.number().int().nonnegative()]);
  const step = z.object({
    id: stepIdSchema,
    /** What the step does: the prompt of an agent step, a label for a tool step. */
    task: z.string(),
    /** Steps that must succeed first; `[]` (or omitted) means none. */
    depends_on: z.array(stepIdSchema).default([]),
    /** A tool step calls this tool directly; a step without one is run by an inner agent. */
    tool: z.string().min(1).optional(),
    /** The tool's arguments; may hold placeholders (`#E1`, `$1`, `${1}`) for earlier outputs. */
    args: z.unknown().optional(),
    /** An agent step's own limits. */
    budget: z.object({ maxSteps: z.number().int().positive().optional() }).optional(),
    /** Expected duration, used to start the longest remaining path first. */
    estimateMs: z.number().nonnegative().optional(),
    /** An agent step's model, by its name in the run's `models` (a tier like "fast" or "strong"). */
    model: z.string().min(1).optional(),
    /**
     * The run can do without this step's result (a weekly report whose ticket source is
     * down): if it fails, the run does not fail and its dependents still run, with its result
     * marked missing; the result lists it in `missing`.
     */
    optional: z.boolean().optional(),
    /**
     * A step that waits and calls nothing: until a time passes (`forMs` from when it starts,
     * or `until`, an ISO time with its offset). Its output says when it woke.
     */
    wait: z.object({ forMs: z.number().int().nonnegative().optional(), until: z.string().min(1).optional() }).optional(),
    /**
     * A step that waits for an event sent with `sendEvent` (or `planloop runs signal`): one of
     * this name whose data has `match`'s fields equal. Its output is the event's data. After
     * `timeoutMs` without one, the step fails saying so.
     */
    waitFor: z
      .object({
        event: z.string().min(1),
        match: z.record(z.string(), z.unknown()).optional(),
        timeoutMs: z.number().int().positive().optional(),
      })
      .optional(),
    /**
     * A tool step called again every `everyMs` until its output meets `until` (see
     * `PollCondition`), or `maxMs` passes since its first call: then it fails saying so. A
     * durable run holds nothing between calls: it is kept waiting, and `wakeDueRuns` calls again.
     */
    poll: z
      .object({
        everyMs: z.number().int().positive(),
        maxMs: z.number().int().positive(),
        until: z.object({
          path: z.string(),
          equals: z.unknown().optional(),
          in: z.array(z.unknown()).optional(),
          exists: z.boolean().optional(),
        }),
      })
      .optional(),
  });
  return { stepId: stepIdSchema, step, plan: z.object({ steps: z.array(step).min(1) }) };
}

export type PlanSchemas = ReturnType<typeof definePlanSchemas>;

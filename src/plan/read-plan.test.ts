import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planSchema, planStepSchema } from "./plan-schema.js";
import { readPlan, readPlanStep } from "./read-plan.js";

const stepId = fc.oneof(fc.nat(), fc.string(), fc.constantFrom(-1, 1.5, Number.NaN, 2 ** 53, -0, ""));
const loose = fc.oneof(fc.constant(undefined), fc.constant(null), fc.anything());
/** Mostly values near the schema's edges, sometimes anything at all. */
const mostly = <T>(near: fc.Arbitrary<T>) => fc.oneof({ arbitrary: near, weight: 6 }, { arbitrary: loose, weight: 1 });
const stepLike = fc.record(
  {
    id: mostly(stepId),
    task: mostly(fc.string()),
    depends_on: mostly(fc.array(stepId, { maxLength: 4 })),
    tool: mostly(fc.string()),
    args: loose,
    budget: mostly(fc.record({ maxSteps: mostly(fc.integer({ min: -2, max: 5 })) }, { requiredKeys: [] })),
    estimateMs: mostly(fc.oneof(fc.double({ min: -3, max: 3 }), fc.nat(), fc.constantFrom(Infinity, Number.NaN))),
    model: mostly(fc.string()),
    optional: mostly(fc.boolean()),
    note: loose,
  },
  { requiredKeys: [] },
);

describe("readPlan", () => {
  it("gives exactly what the zod schema gives, for well-formed and malformed steps alike", () => {
    fc.assert(
      fc.property(stepLike, (step) => {
        const quick = readPlanStep(step);
        const zod = planStepSchema.safeParse(step);
        expect(quick.success).toBe(zod.success);
        if (quick.success && zod.success) {
          expect(quick.data).toStrictEqual(zod.data);
          expect(Object.keys(quick.data)).toEqual(Object.keys(zod.data));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads whole plans the same way, and leaves the caller's objects alone", () => {
    fc.assert(
      fc.property(fc.oneof(fc.record({ steps: fc.array(stepLike, { maxLength: 4 }) }), fc.anything()), (plan) => {
        const quick = readPlan(plan);
        const zod = planSchema.safeParse(plan);
        expect(quick.success).toBe(zod.success);
        if (quick.success && zod.success) {
          expect(quick.data).toStrictEqual(zod.data);
          quick.data.steps.forEach((step, index) => {
            const given = (plan as { steps: Array<{ depends_on?: unknown }> }).steps[index]!;
            expect(step).not.toBe(given);
            if (Array.isArray(given.depends_on)) expect(step.depends_on).not.toBe(given.depends_on);
          });
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("leaves the wording of errors to zod", () => {
    const read = readPlan({ steps: [{ id: 1, task: "x", estimateMs: -5 }] });
    expect(read.success).toBe(false);
    if (!read.success) expect(read.error.issues[0]!.path).toEqual(["steps", 0, "estimateMs"]);
  });
});

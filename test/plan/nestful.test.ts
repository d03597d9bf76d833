// Real plan shapes: NESTFUL's 300 gold call sequences as planloop plans.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, findPlaceholders, validatePlan } from "planloop";
import { outputsFor, readNestful, toPlan } from "../helpers/nestful.js";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

const dir = sharedPath("data", "nestful");

describe.skipIf(skipWithout(dir))("NESTFUL plans (needs ../shared/data/nestful)", () => {
  const samples = existsSync(dir) ? readNestful(dir) : [];
  const plans = samples.map(toPlan);

  // A few gold sequences are broken: a label used twice, or a reference to a call that is not there.
  const broken = samples.map((sample) => {
    const labels = sample.output.map((call) => call.label ?? "result");
    const referenced = [...JSON.stringify(sample.output).matchAll(/\$(var\d+)/g)].map((match) => match[1]!);
    return new Set(labels).size !== labels.length || referenced.some((label) => !labels.includes(label));
  });

  it("are valid plans, but for the broken gold sequences, which the validator names", () => {
    expect(samples).toHaveLength(300);
    const checks = plans.map((plan) => validatePlan(plan));
    expect(checks.map((checked) => !checked.ok)).toEqual(broken);
    expect(broken.filter(Boolean).length).toBeLessThan(10);
    for (const checked of checks) {
      if (checked.ok) continue;
      for (const error of checked.errors)
        expect(["duplicate_id", "unknown_dependency", "self_dependency", "undeclared_reference"]).toContain(error.code);
    }
  });

  it('read a price like "$100-$200" as text, not as a reference to step 100', () => {
    const priced = plans.find((plan) => JSON.stringify(plan).includes("$100-$200"))!;
    expect(validatePlan(priced).ok).toBe(true);
  });

  it("run to the end, with every reference replaced by the exact value it points to", async () => {
    let parallel = 0;
    for (const plan of plans.filter((_, index) => !broken[index])) {
      const outputs = outputsFor(plan);
      const seen = new Map<string, unknown>();
      const tools = [...new Set(plan.steps.map((step) => step.tool!))].map((name) =>
        defineTool({
          name,
          description: name,
          input: z.record(z.string(), z.unknown()),
          // Async, like a real service: calls that do not depend on each other overlap.
          execute: async (args, { callId }) => {
            const id = String(callId).replace(/^step:/, "");
            seen.set(id, args);
            return outputs.get(id) ?? { done: id };
          },
        }),
      );
      let running = 0;
      let peak = 0;
      const result = await executePlan({
        plan,
        tools,
        concurrency: 8,
        onEvent: (event) => {
          if (event.type === "step-start") peak = Math.max(peak, ++running);
          if (event.type === "step-end") running -= 1;
        },
      });
      expect(result.status, JSON.stringify(plan)).toBe("completed");
      for (const step of plan.steps) {
        const text = JSON.stringify(seen.get(String(step.id)));
        expect(text).not.toMatch(/\$\{var\d+\}/);
        for (const reference of findPlaceholders(step.args)) {
          if (reference.path.length > 0)
            expect(text).toContain(`${reference.step}${reference.text.slice(reference.text.indexOf("}") + 1)}`.replace(/"/g, '\\"'));
        }
      }
      if (peak > 1) parallel += 1;
    }
    // Many requests have independent calls that the ready queue runs side by side.
    expect(parallel).toBeGreaterThan(50);
  });
});

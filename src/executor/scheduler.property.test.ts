import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { executePlan, type PlanloopEvent } from "planloop";
import { FakeClock } from "planloop/testing";
import { workStep, workTool } from "../../test/helpers/timed-tools.js";

/** A random DAG: each step depends on a random subset of the steps before it. */
const dagArbitrary = fc
  .integer({ min: 1, max: 14 })
  .chain((size) =>
    fc.tuple(
      fc.array(fc.integer({ min: 1, max: 60 }), { minLength: size, maxLength: size }),
      fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: size, maxLength: size }),
      // About one step in ten fails (fast-check leans on edge values, so a fraction drawn from
      // [0, 1] would be 0 far more often than one time in ten).
      fc.array(fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }), {
        minLength: size,
        maxLength: size,
      }),
    ),
  )
  .map(([latencies, picks, failing]) =>
    latencies.map((ms, index) => ({
      id: `s${index}`,
      ms,
      dependsOn: index === 0 ? [] : [...new Set(picks[index]!.map((pick) => `s${pick % index}`))],
      fails: failing[index]!,
    })),
  );

describe("scheduler invariants over random DAGs and latencies", () => {
  it("dependencies first, at most `concurrency` at once, one terminal status, no rerun, Graham's bound", async () => {
    await fc.assert(
      fc.asyncProperty(dagArbitrary, fc.integer({ min: 1, max: 4 }), async (dag, concurrency) => {
        const clock = new FakeClock();
        const { tool, log } = workTool(clock);
        const events: PlanloopEvent[] = [];
        const plan = { steps: dag.map((step) => workStep(step.id, step.ms, step.dependsOn, step.fails ? { fail: true } : {})) };
        const result = await clock.run(
          executePlan({ plan, tools: [tool], clock, concurrency, retry: { maxAttempts: 1 }, onEvent: (event) => events.push(event) }),
        );

        expect(log.peak).toBeLessThanOrEqual(concurrency);
        const starts = new Map<string, number>();
        for (const start of log.started) {
          expect(starts.has(start.step)).toBe(false);
          starts.set(start.step, start.at);
        }
        for (const step of dag) {
          const record = result.steps[step.id]!;
          const ends = events.filter((event) => event.type === "step-end" && event.stepId === step.id);
          expect(ends).toHaveLength(1);
          expect(["succeeded", "failed", "skipped"]).toContain(record.status);
          // Skipped exactly when a dependency did not succeed; a skipped step never started.
          const blocked = step.dependsOn.some((dependency) => result.steps[dependency]!.status !== "succeeded");
          expect(record.status === "skipped").toBe(blocked);
          if (blocked) {
            expect(starts.has(step.id)).toBe(false);
            // Skipped the moment a step before it failed, and saying which.
            const failedBefore = /^step (.+) failed$/.exec(record.error ?? "")?.[1];
            expect(failedBefore !== undefined && result.steps[failedBefore]?.status).toBe("failed");
          }
          if (!starts.has(step.id)) continue;
          for (const dependency of step.dependsOn) {
            expect(result.steps[dependency]!.status).toBe("succeeded");
            expect(result.steps[dependency]!.endedAt!).toBeLessThanOrEqual(starts.get(step.id)!);
          }
        }
        if (dag.every((step) => !step.fails)) {
          expect(result.status).toBe("completed");
          const totalWork = dag.reduce((sum, step) => sum + step.ms, 0);
          const finish = new Map<string, number>();
          for (const step of dag) finish.set(step.id, step.ms + Math.max(0, ...step.dependsOn.map((id) => finish.get(id)!)));
          const criticalPath = Math.max(...finish.values());
          expect(clock.now()).toBeGreaterThanOrEqual(criticalPath);
          expect(clock.now()).toBeLessThanOrEqual(totalWork / concurrency + criticalPath);
        } else {
          expect(result.status).toBe("failed");
          expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("with the tool's own limit too: never more than either limit at once, and every step still ends", async () => {
    await fc.assert(
      fc.asyncProperty(
        dagArbitrary,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        async (dag, concurrency, toolLimit) => {
          const clock = new FakeClock();
          const { tool, log } = workTool(clock);
          const plan = { steps: dag.map((step) => workStep(step.id, step.ms, step.dependsOn, step.fails ? { fail: true } : {})) };
          const result = await clock.run(
            executePlan({ plan, tools: [{ ...tool, concurrency: toolLimit }], clock, concurrency, retry: { maxAttempts: 1 } }),
          );
          expect(log.peak).toBeLessThanOrEqual(Math.min(concurrency, toolLimit));
          for (const step of dag) expect(["succeeded", "failed", "skipped"]).toContain(result.steps[step.id]!.status);
          expect(result.status).toBe(dag.some((step) => step.fails) ? "failed" : "completed");
        },
      ),
      { numRuns: 150 },
    );
  });
});

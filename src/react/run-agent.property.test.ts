import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runAgent, type ModelDecision } from "planloop";

const ok = defineTool({ name: "ok", description: "Succeeds", input: z.object({ n: z.number() }), execute: ({ n }) => n });
const fails = defineTool({
  name: "fails",
  description: "Throws",
  input: z.object({}),
  execute: () => {
    throw new Error("boom");
  },
});

const callArbitrary = fc.record({
  name: fc.constantFrom("ok", "fails", "missing"),
  n: fc.integer({ min: 0, max: 3 }),
});
const decisionArbitrary = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ final: true as const, calls: [] }) },
  {
    weight: 4,
    arbitrary: fc.record({ final: fc.constant(false as const), calls: fc.array(callArbitrary, { minLength: 1, maxLength: 3 }) }),
  },
);

describe("runAgent invariants over random decision sequences", () => {
  it("one model call per step, one result per call, completed has output, state is JSON", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(decisionArbitrary, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (script, maxSteps, detectStalls) => {
          let modelCalls = 0;
          const model = async ({ step }: { step: number }): Promise<ModelDecision> => {
            modelCalls += 1;
            const planned = script[step % script.length]!;
            if (planned.final) return { type: "final", content: `answer ${step}` };
            return {
              type: "tool_calls",
              calls: planned.calls.map((call, index) => ({ id: `${step}-${index}`, name: call.name, arguments: { n: call.n } })),
            };
          };
          const result = await runAgent({ model, tools: [ok, fails], maxSteps, noProgress: detectStalls ? {} : false });
          expect(modelCalls).toBe(result.steps);
          expect(result.steps).toBeLessThanOrEqual(maxSteps);
          expect(result.usage.modelCalls).toBe(modelCalls);
          const requested = result.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
          const answered = result.messages.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : []));
          expect(answered).toEqual(requested.map((call) => call.id));
          if (result.status === "completed") expect(typeof result.output).toBe("string");
          else expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state);
          expect(["completed", "max_steps_exceeded", "no_progress"]).toContain(result.status);
        },
      ),
      { numRuns: 200 },
    );
  });
});

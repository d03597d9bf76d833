import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ModelRequest } from "../../core/model.js";
import { defineTool } from "../../core/tools/define-tool.js";
import { FakeClock } from "../../testing/fake-clock.js";
import { codeMode } from "./code-mode.js";

/** A program's shape: waves of calls made together; a `gate` call needs a person's approval. */
type Call = { tool: "echo" | "gate"; n: number };

const programArbitrary = fc.array(
  fc.array(fc.record({ tool: fc.constantFrom<Call["tool"]>("echo", "gate"), n: fc.integer({ min: 0, max: 2 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
  { minLength: 1, maxLength: 4 },
);

function source(waves: readonly Call[][]): string {
  const lines = ["const out = [];"];
  for (const wave of waves)
    lines.push(`out.push(await Promise.all([${wave.map((call) => `tools.${call.tool}({ n: ${call.n} })`).join(", ")}]));`);
  return `\`\`\`js\n${lines.join("\n")}\nreturn out;\n\`\`\``;
}

describe("code mode's replay (property)", () => {
  it("however often a program waits for approvals, every call runs exactly once and the result is the uninterrupted one", async () => {
    await fc.assert(
      fc.asyncProperty(programArbitrary, async (waves) => {
        const ran = new Map<string, number>();
        const count = (key: string | undefined) => ran.set(key ?? "-", (ran.get(key ?? "-") ?? 0) + 1);
        const echo = defineTool({
          name: "echo",
          description: "Echoes n",
          input: z.object({ n: z.number() }),
          execute: ({ n }, { idempotencyKey }) => (count(idempotencyKey), n),
        });
        const gate = defineTool({
          name: "gate",
          description: "Doubles n, with approval",
          input: z.object({ n: z.number() }),
          needsApproval: true,
          execute: ({ n }, { idempotencyKey }) => (count(idempotencyKey), n * 2),
        });
        let answeredFrom = "";
        const model = (request: ModelRequest) => {
          if (request.purpose === "solve") answeredFrom = String(request.messages.at(-1)?.content ?? "");
          return { type: "final" as const, content: request.purpose === "solve" ? "done" : source(waves) };
        };
        const options = { task: "run the program", model, tools: [echo, gate], clock: new FakeClock(), grounding: false as const };
        let result = await codeMode(options);
        let pauses = 0;
        while (result.status === "waiting") {
          pauses += 1;
          const approvals = Object.fromEntries(result.pending!.map((call) => [call.id, { approved: true as const }]));
          result = await codeMode({ ...options, resume: JSON.parse(JSON.stringify(result.state)), approvals });
        }
        expect(result.status).toBe("completed");
        const calls = waves.flat();
        expect(pauses).toBeLessThanOrEqual(calls.filter((call) => call.tool === "gate").length);
        // One execution per distinct call (the n-th call with the same arguments is its own call).
        expect([...ran.values()].every((times) => times === 1)).toBe(true);
        expect([...ran.values()].reduce((sum, times) => sum + times, 0)).toBe(calls.length);
        const expected = waves.map((wave) => wave.map((call) => (call.tool === "gate" ? call.n * 2 : call.n)));
        expect(answeredFrom).toContain(JSON.stringify(expected));
      }),
      { numRuns: 40 },
    );
  });
});

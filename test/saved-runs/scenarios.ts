// The runs whose saved states and journals the corpus keeps (test/saved-runs/<version>/): each
// stops waiting for a person, so what it saved must be read and continued by every later
// version. `scripts/save-runs.ts` writes them with the version checked out; saved-runs.test.ts
// continues each with today's code. Relative imports only: the script runs in older checkouts.
import { z } from "zod";
import { defineTool, type ModelRequest } from "../../src/index.js";

export interface Calls {
  made: string[];
}

/** A lookup and a refund that needs approval; every call is logged. */
export function refundTools(calls: Calls) {
  return [
    defineTool({
      name: "lookup",
      description: "Look up an order",
      input: z.object({ order: z.string() }),
      execute: ({ order }) => (calls.made.push(`lookup ${order}`), { order, paid: 120 }),
    }),
    defineTool({
      name: "refund",
      description: "Refund an order",
      input: z.object({ order: z.string(), amount: z.number() }),
      needsApproval: true,
      execute: ({ order, amount }) => (calls.made.push(`refund ${order} ${amount}`), `refunded ${amount} on ${order}`),
    }),
  ];
}

/** A ReAct loop: it looks the order up over a few turns, then asks for the refund, then answers. */
export function loopModel({ step }: ModelRequest) {
  if (step < 3) return { type: "tool_calls" as const, calls: [{ id: `l${step}`, name: "lookup", arguments: { order: `A${step}` } }] };
  if (step === 3) return { type: "tool_calls" as const, calls: [{ id: "r1", name: "refund", arguments: { order: "A1", amount: 120 } }] };
  return { type: "final" as const, content: "refunded 120 on A1" };
}

export const refundPlan = {
  steps: [
    { id: 1, task: "look it up", tool: "lookup", args: { order: "A1" }, depends_on: [] },
    { id: 2, task: "refund it", tool: "refund", args: { order: "A1", amount: 120 }, depends_on: [1] },
  ],
};

/** A planner for Plan-and-Execute: the refund plan, then the answer. */
export function plannerModel(request: ModelRequest) {
  if (request.purpose === "plan") return { type: "final" as const, content: JSON.stringify(refundPlan) };
  return { type: "final" as const, content: "refunded 120 on A1" };
}

/** Code mode's program: look the order up, then refund what was paid (the refund waits for approval). */
export const refundProgram =
  "const found = await tools.lookup({ order: 'A1' });\nreturn await tools.refund({ order: 'A1', amount: found.paid });";

/** A model for code mode: the refund program, then the answer. */
export function codeModel(request: ModelRequest) {
  if (request.purpose === "plan") return { type: "final" as const, content: "```js\n" + refundProgram + "\n```" };
  return { type: "final" as const, content: "refunded 120 on A1" };
}

/** What each scenario's run is called in the store, and the entry point that started it. */
export const scenarios = {
  loop: { runId: "saved-loop", entry: "runAgent" },
  plan: { runId: "saved-plan", entry: "executePlan" },
  planAndExecute: { runId: "saved-pae", entry: "planAndExecute" },
  code: { runId: "saved-code", entry: "codeMode" },
} as const;

export const stateSecret = "a state secret of sixteen+ characters";

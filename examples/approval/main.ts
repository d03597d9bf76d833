// A run pauses for a human's approval and is kept in a SQLite store; a second process
// continues it by id with the approval: the refund runs exactly once, and nothing that ran
// before runs again. A third call with the same id hands back the stored result and runs
// nothing. (Without a store, the same works with `result.state` and `resume`.)
// Run: npx tsx examples/approval/main.ts start ./approval-run
//      npx tsx examples/approval/main.ts resume ./approval-run [deny]
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { defineTool, executePlan, toolStepCallId, type PlanRunResult } from "planloop";
import { sqliteStore } from "planloop/sqlite";

/** Tools whose side effects are written to `actions.log` in the run's folder. */
export function approvalTools(dir: string) {
  const act = (line: string) => appendFileSync(join(dir, "actions.log"), `${line}\n`);
  return [
    defineTool({
      name: "lookup_order",
      description: "Look up an order",
      input: z.object({ order_id: z.string() }),
      execute: ({ order_id }) => (act(`lookup ${order_id}`), { order_id, total_cny: 1280, customer: "Li Wei" }),
    }),
    defineTool({
      name: "issue_refund",
      description: "Refund an order; amounts over 500 need a person's approval",
      input: z.object({ order_id: z.string(), amount: z.number() }),
      needsApproval: ({ amount }) => amount > 500,
      execute: ({ order_id, amount }) => (act(`refund ${order_id} ${amount}`), { refunded: amount }),
    }),
    defineTool({
      name: "notify_customer",
      description: "Tell the customer what happened",
      input: z.object({ customer: z.string(), message: z.string() }),
      execute: ({ customer, message }) => (act(`notify ${customer}: ${message}`), "sent"),
    }),
  ];
}

export const refundPlan = {
  steps: [
    { id: 1, task: "look up the order", tool: "lookup_order", args: { order_id: "A123" } },
    { id: 2, task: "refund the order in full", tool: "issue_refund", args: { order_id: "A123", amount: "$1.total_cny" }, depends_on: [1] },
    {
      id: 3,
      task: "tell the customer",
      tool: "notify_customer",
      args: { customer: "$1.customer", message: "Your refund of ¥$1.total_cny is on its way." },
      depends_on: [2],
    },
  ],
};

/** The run's id in the store: calling again with it continues the run, or hands back its result. */
export const runId = "refund-A123";

export async function main(
  stage: "start" | "resume",
  dir: string,
  options: { deny?: boolean; print?: boolean } = {},
): Promise<PlanRunResult> {
  mkdirSync(dir, { recursive: true });
  const print = (line: string) => options.print !== false && console.log(line);
  const store = sqliteStore({ path: join(dir, "runs.sqlite") });
  try {
    if ((await store.getRun(runId))?.status === "finished")
      print(`${stage}: the run already finished; its stored result is handed back and nothing runs`);
    const decision = options.deny
      ? { approved: false as const, reason: "refund policy: partial refunds only" }
      : { approved: true as const };
    const result = await executePlan({
      plan: refundPlan,
      tools: approvalTools(dir),
      store,
      runId,
      ...(stage === "resume" ? { approvals: { [toolStepCallId(2)]: decision } } : {}),
    });
    print(`${stage}: ${result.status}${result.reason ? ` (${result.reason})` : ""}`);
    for (const call of result.pending ?? [])
      print(`  waiting for approval: ${call.name} ${JSON.stringify(call.arguments)} — approve ${call.callId}`);
    return result;
  } finally {
    store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [stage, dir = "approval-run", decision] = process.argv.slice(2);
  if (stage !== "start" && stage !== "resume") {
    console.error("usage: main.ts start|resume <folder> [deny]");
    process.exitCode = 2;
  } else {
    const result = await main(stage, dir, { deny: decision === "deny" });
    process.exitCode = result.status === "completed" || result.status === "waiting" ? 0 : 1;
  }
}

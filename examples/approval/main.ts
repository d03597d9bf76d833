// A run pauses for a human's approval, its state goes to a file, and a second process
// resumes it: the approved refund runs exactly once, nothing that ran before runs again.
// Once the run has finished, its state file says so: resuming it again runs nothing.
// Run: npx tsx examples/approval/main.ts start ./approval-run
//      npx tsx examples/approval/main.ts resume ./approval-run [deny]
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { defineTool, executePlan, toolStepCallId, type PlanRunResult } from "planloop";

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

/** Undefined when the saved run has already finished: nothing is run again. */
export async function main(
  stage: "start" | "resume",
  dir: string,
  options: { deny?: boolean; print?: boolean } = {},
): Promise<PlanRunResult | undefined> {
  mkdirSync(dir, { recursive: true });
  const stateFile = join(dir, "state.json");
  const tools = approvalTools(dir);
  const saved = stage === "resume" ? JSON.parse(readFileSync(stateFile, "utf8")) : undefined;
  if (saved?.finished) {
    if (options.print !== false) console.log(`resume: the run already finished (${saved.finished}); nothing to resume`);
    return undefined;
  }
  const result =
    stage === "start"
      ? await executePlan({ plan: refundPlan, tools })
      : await executePlan({
          plan: refundPlan,
          tools,
          resume: saved,
          approvals: {
            [toolStepCallId(2)]: options.deny ? { approved: false, reason: "refund policy: partial refunds only" } : { approved: true },
          },
        });
  // A run that waits keeps its state; a finished one replaces it with a note that it finished.
  writeFileSync(stateFile, JSON.stringify(result.state ?? { finished: result.status }, null, 2));
  if (options.print !== false) {
    console.log(`${stage}: ${result.status}${result.reason ? ` (${result.reason})` : ""}`);
    for (const call of result.pending ?? [])
      console.log(`  waiting for approval: ${call.name} ${JSON.stringify(call.arguments)} — approve ${call.callId}`);
  }
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [stage, dir = "approval-run", decision] = process.argv.slice(2);
  if (stage !== "start" && stage !== "resume") {
    console.error("usage: main.ts start|resume <folder> [deny]");
    process.exitCode = 2;
  } else {
    const result = await main(stage, dir, { deny: decision === "deny" });
    process.exitCode = result === undefined || result.status === "completed" || result.status === "waiting" ? 0 : 1;
  }
}

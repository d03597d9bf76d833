// A refund that needs approval, logging each call as `<order> <idempotency key or ->`, and a
// one-step plan that calls it: the tests of paused, approved and continued runs share them.
import { z } from "zod";
import { defineTool } from "planloop";

export function refundTool(options: { approvalExpiresInMs?: number } = {}) {
  const refunds: string[] = [];
  const refund = defineTool({
    name: "refund",
    description: "Refund an order",
    input: z.object({ order: z.string() }),
    needsApproval: true,
    ...options,
    execute: ({ order }, { idempotencyKey }) => (refunds.push(`${order} ${idempotencyKey ?? "-"}`), `refunded ${order}`),
  });
  return { refunds, refund };
}

export const refundPlan = { steps: [{ id: 1, task: "refund A7", tool: "refund", args: { order: "A7" } }] };
export const approvedRefund = { "step:1": { approved: true } };

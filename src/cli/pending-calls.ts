import type { PlanPendingCall } from "../executor/plan-state.js";

/** '  step:2 waits for approval: pay {"amount":120}' */
export function pendingLine(call: PlanPendingCall): string {
  return `  ${call.callId} waits for ${call.kind === "input" ? "an answer" : "approval"}: ${call.name} ${JSON.stringify(call.arguments)}`;
}

// Run ids a hostile MCP client names, and what planloop's MCP tools must do with each: refuse
// it (a tool error or a refused call) and start, change or plant nothing. Shared by the stdio
// and the Streamable HTTP tests, the same checks through both transports.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";

/** Ids no caller may name for a new run: an inner run of another's, a schedule's, nothing, too much. */
export const hostileNewRunIds = ["victim/plan:9", "victim/step", "", "x".repeat(201), "weekly@2026-12-07T08:00:00.000Z"];

/** Ids no caller may act on: inner runs (a run's plan run, its agent step's loop), nothing, too much. */
export const hostileReferences = ["victim/plan:1", "victim/step", "", "y".repeat(241)];

const payPlan = (amount: number) => ({ steps: [{ id: 1, task: "pay", tool: "pay", args: { amount } }] });

async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const answer = await client.callTool({ name, arguments: args }).catch((error: unknown) => ({ isError: true, thrown: String(error) }));
  expect(answer.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
}

/**
 * A victim's run waits for a payment of 250,000; the hostile client then names every id above
 * through every run tool. Returns once every call was refused; the caller checks the store.
 */
export async function tryHostileRunIds(client: Client): Promise<void> {
  const victim = await client.callTool({ name: "run_plan", arguments: { runId: "victim", plan: payPlan(250_000) } });
  expect(victim.structuredContent).toMatchObject({ status: "waiting", pending: [{ id: "step:1" }] });
  for (const runId of hostileNewRunIds) await refused(client, "run_plan", { runId, plan: payPlan(0.01) });
  for (const runId of hostileReferences) {
    await refused(client, "get_run", { runId });
    await refused(client, "cancel_run", { runId });
    await refused(client, "decide", { runId, decisions: [{ pendingId: "step:1", action: "approve" }] });
  }
  // The victim's run waits for its own payment alone.
  const after = await client.callTool({ name: "get_run", arguments: { runId: "victim" } });
  const pending = (after.structuredContent as { status: string; pending: Array<{ id: string }> }).pending;
  expect(after.structuredContent).toMatchObject({ status: "waiting" });
  expect(pending.map((item) => item.id)).toEqual(["step:1"]);
  expect(JSON.stringify(pending)).toContain("250000");
}

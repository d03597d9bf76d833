// How the run server started a run is kept in the store beside it, and continued from there
// after a decision or a restart. With the server's secret it is kept signed: a store writer who
// swaps the plan (another payee, another amount) or the webhook gets a refusal, never a payment.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient, type PlanloopApiError } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundTool } from "../helpers/refund-tool.js";

const secret = "a server secret of 32 characters";
let server: RunServer | undefined;
let store: CheckpointStore | undefined;
afterEach(async () => {
  await server?.close({ abortRuns: true });
  await store?.close();
  server = store = undefined;
});

const key = (runId: string) => `planloop:serve:run:${runId}`;

async function waitingRefund(runId: string) {
  store = memoryStore();
  const { refund, refunds } = refundTool();
  server = await startRunServer({ store, tools: [refund], pollMs: 20, secret });
  const client = planloopClient({ url: server.url, token: server.sessionToken! });
  await client.start({ plan: { steps: [{ id: 1, task: "refund A7", tool: "refund", args: { order: "A7" } }] }, runId });
  for await (const event of client.stream(runId)) if (event.type === "run-paused") break;
  return { client, refunds, store };
}

describe("a hosted run's request, signed with the server's secret", () => {
  it("continues as started when nothing was changed", async () => {
    const { client, refunds } = await waitingRefund("kept");
    await client.decide("kept", { pendingId: "step:1", action: "approve" });
    for await (const event of client.stream("kept")) if (event.type === "run-finished") break;
    expect(refunds).toEqual(["A7 kept/1"]);
  });

  it("refuses (409) to continue a run whose kept plan or webhook was changed in the store, and calls nothing", async () => {
    for (const change of [
      (kept: Record<string, unknown>) => ({ ...kept, plan: { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "B9" } }] } }),
      (kept: Record<string, unknown>) => ({ ...kept, webhook: "http://127.0.0.1:9/steal" }),
      (kept: Record<string, unknown>) => ({ ...kept, signature: undefined }),
    ]) {
      const { client, refunds, store: kept } = await waitingRefund("swapped");
      await kept.setValue(key("swapped"), change((await kept.getValue(key("swapped"))) as Record<string, unknown>));
      const refused = await client
        .decide("swapped", { pendingId: "step:1", action: "approve" })
        .then(() => undefined)
        .catch((error: unknown) => error as PlanloopApiError);
      expect(refused?.status).toBe(409);
      expect(refused?.message).toContain("is not signed with this server's secret");
      expect(refunds).toEqual([]);
      expect((await client.get("swapped")).pending.map((item) => item.id)).toEqual(["step:1"]);
      await server!.close({ abortRuns: true });
      await kept.close();
      server = store = undefined;
    }
  });

  it("keeps a plan's secret-keyed arguments sealed in the store, and the run gets them as given", async () => {
    store = memoryStore();
    const seen: string[] = [];
    const call = defineTool({
      name: "call",
      description: "Calls a partner API",
      input: z.object({ apiKey: z.string(), order: z.string() }),
      execute: ({ apiKey, order }) => (seen.push(`${order} ${apiKey}`), "ok"),
    });
    server = await startRunServer({ store, tools: [call], pollMs: 20, secret });
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const plan = { steps: [{ id: 1, task: "call", tool: "call", args: { apiKey: "sk-live-very-secret", order: "A7" } }] };
    await client.start({ plan, runId: "sealed" });
    for await (const event of client.stream("sealed")) if (event.type === "run-finished") break;
    expect(seen).toEqual(["A7 sk-live-very-secret"]);
    const kept = JSON.stringify(await store.getValue(key("sealed")));
    expect(kept).not.toContain("sk-live-very-secret");
    expect(kept).toContain("$sealed");
  });
});

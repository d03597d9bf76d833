// The run server's webhooks, to receivers this test starts on 127.0.0.1: signed (and the
// signature checked with planloop/client's verifyWebhook), tried again while the receiver fails,
// every try kept beside the run, and a receiver that is away never holds a run up.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient, PlanloopApiError, verifyWebhook } from "planloop/client";
import { refundTool } from "../helpers/refund-tool.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { until } from "../helpers/call-log.js";

const secret = "a-webhook-secret-of-some-length";
const { refund } = refundTool();
const echo = defineTool({ name: "echo", description: "Echo", input: z.object({ text: z.string() }), execute: ({ text }) => text });
const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A7" } }] };

const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A receiver that answers 500 to its first `failures` requests, then 200, keeping each body and signature. */
async function receiver(failures: number) {
  const received: Array<{ body: string; signature: string; status: number }> = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const status = received.length < failures ? 500 : 200;
      received.push({ body, signature: String(request.headers["planloop-signature"]), status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function serverWith(webhooks: Parameters<typeof startRunServer>[0]["webhooks"]) {
  const store: CheckpointStore = memoryStore();
  const server: RunServer = await startRunServer({ store, tools: [refund, echo], pollMs: 20, webhooks });
  closing.push(
    () => store.close(),
    () => server.close({ abortRuns: true }),
  );
  return planloopClient({ url: server.url, token: server.sessionToken! });
}

async function waitFor(client: ReturnType<typeof planloopClient>, runId: string, type: string) {
  for await (const event of client.stream(runId)) if (event.type === type) return;
}

describe("the run server's webhooks", () => {
  it("posts waiting and completed, signed; tries again after failures; keeps every try", async () => {
    const hook = await receiver(2);
    const client = await serverWith({ url: hook.url, secret, backoffMs: 5 });
    const { runId } = await client.start({ plan, runId: "hooked" });
    await waitFor(client, runId, "run-paused");
    await until(() => hook.received.some((request) => request.status === 200));
    const [pending] = (await client.get(runId)).pending;
    await client.decide(runId, { pendingId: pending!.id, action: "approve" });
    await waitFor(client, runId, "run-end");
    await until(() => hook.received.filter((request) => request.status === 200).length === 2);
    const delivered = hook.received.filter((request) => request.status === 200).map((request) => JSON.parse(request.body));
    expect(delivered.map((payload) => [payload.type, payload.status, payload.runId])).toEqual([
      ["run.waiting", "waiting", "hooked"],
      ["run.completed", "completed", "hooked"],
    ]);
    for (const request of hook.received) expect(await verifyWebhook({ body: request.body, header: request.signature, secret })).toBe(true);
    const first = hook.received[0]!;
    // Another body, another secret, or a signature from long ago: refused.
    expect(await verifyWebhook({ body: first.body.replace("hooked", "other"), header: first.signature, secret })).toBe(false);
    expect(await verifyWebhook({ body: first.body, header: first.signature, secret: `${secret}!` })).toBe(false);
    expect(await verifyWebhook({ body: first.body, header: first.signature, secret, now: Date.now() + 600_000 })).toBe(false);
    const { webhooks } = (await client.get(runId)) as unknown as { webhooks: Array<{ type: string; attempt: number; outcome: number }> };
    expect(webhooks.map((attempt) => [attempt.type, attempt.attempt, attempt.outcome])).toEqual([
      ["run.waiting", 1, 500],
      ["run.waiting", 2, 500],
      ["run.waiting", 3, 200],
      ["run.completed", 1, 200],
    ]);
  });

  it("a receiver that is away holds no run up; its failed tries are kept", async () => {
    const away = await receiver(0);
    await closing.pop()!();
    const client = await serverWith({ secret, attempts: 2, backoffMs: 5 });
    const { runId } = await client.start({
      plan: { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] },
      webhook: away.url,
    });
    await waitFor(client, runId, "run-end");
    expect((await client.get(runId)).status).toBe("completed");
    let kept: unknown[] | undefined;
    for (let look = 0; look < 500 && kept?.length !== 2; look += 1) {
      kept = ((await client.get(runId)) as unknown as { webhooks?: unknown[] }).webhooks;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(kept).toMatchObject([
      { type: "run.completed", attempt: 1, delivered: false },
      { type: "run.completed", attempt: 2, delivered: false },
    ]);
  });

  it("a receiver that redirects is not followed: the signed POST goes nowhere else (issue 54)", async () => {
    const inside = await receiver(0);
    const redirecting: Server = createServer((request, response) => {
      request.resume();
      response.writeHead(307, { location: inside.url }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => redirecting.close(resolve)));
    const client = await serverWith({ secret, attempts: 1, backoffMs: 5 });
    const { runId } = await client.start({
      plan: { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] },
      webhook: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`,
    });
    await waitFor(client, runId, "run-end");
    let kept: Array<{ outcome?: unknown; delivered?: boolean }> | undefined;
    for (let look = 0; look < 500 && kept?.length !== 1; look += 1) {
      kept = ((await client.get(runId)) as unknown as { webhooks?: typeof kept }).webhooks;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(kept).toMatchObject([{ delivered: false, outcome: "307: redirects are not followed" }]);
    expect(inside.received).toEqual([]);
  });

  it("a server that sends no webhooks refuses a run that asks for one", async () => {
    const client = await serverWith(undefined);
    const refused = await client.start({ plan, webhook: "http://127.0.0.1:9/hook" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlanloopApiError);
    expect((refused as PlanloopApiError).body.field).toBe("body.webhook");
  });
});

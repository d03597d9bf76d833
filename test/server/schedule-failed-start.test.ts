// A schedule whose run cannot start (issue 54): kept as a failed run with the reason, its
// run.failed webhook sent (to a receiver this test starts on 127.0.0.1) with its tries kept beside
// the run, and shown in the ui's runs list by why it did not start.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { memoryStore, RunService, saveSchedule, type Clock } from "planloop";
import { planloopClient, verifyWebhook } from "planloop/client";
import { startRunServer } from "../../src/server/start-server.js";
import { runPage } from "../../src/ui/run-rows.js";
import { until } from "../helpers/call-log.js";

const secret = "a-webhook-secret-of-some-length";
const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function receiver() {
  const received: Array<{ body: string; signature: string }> = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ body, signature: String(request.headers["planloop-signature"]) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const fixedClock = (at: number): Clock => ({ now: () => at, setTimeout: () => undefined, clearTimeout: () => undefined });

describe("a schedule whose run cannot start", () => {
  it("keeps a failed run with the reason, sends its run.failed webhook (tries kept per run), and shows in the ui by its reason", async () => {
    const store = memoryStore();
    const hook = await receiver();
    const server = await startRunServer({ store, tools: [], webhooks: { url: hook.url, secret, backoffMs: 5 } });
    closing.push(
      () => store.close(),
      () => server.close({ abortRuns: true }),
    );
    // Saved ten minutes ago: the next pass starts the latest minute it missed.
    await saveSchedule(store, { name: "digest", cron: "* * * * *", run: null }, fixedClock(Date.now() - 600_000));
    const failures: Array<{ schedule: string; runId: string; reason: string }> = [];
    const warnings: string[] = [];
    const service = new RunService({
      store,
      host: server.host,
      launch: () => Promise.reject(new Error("--model openai:gpt-4.1-mini needs an API key in DIGEST_KEY")),
      onStartFailed: (failure) => {
        failures.push(failure);
        server.sendWebhook(failure.runId, { status: "failed", reason: failure.reason });
      },
      warn: (line) => warnings.push(line),
    });
    await service.pass();
    await service.settled();
    expect(failures).toHaveLength(1);
    const [{ runId, reason }] = failures as [(typeof failures)[0]];
    expect(runId).toMatch(/^digest@/);
    expect(reason).toBe("schedule digest could not start its run: --model openai:gpt-4.1-mini needs an API key in DIGEST_KEY");
    expect(warnings).toEqual([expect.stringContaining(`${runId} could not start`)]);

    await until(() => hook.received.length === 1);
    const [delivery] = hook.received;
    expect(await verifyWebhook({ body: delivery!.body, header: delivery!.signature, secret })).toBe(true);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: "run.failed", runId, status: "failed", reason });

    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const view = await client.get(runId);
    expect(view).toMatchObject({ runId, status: "failed", origin: { schedule: { name: "digest" } } });
    // The try is kept once the receiver has answered.
    // GET /api/runs/:id gives the tries beside the view (docs/server.md#webhooks).
    const triesOf = async () => ((await client.get(runId)) as { webhooks?: unknown[] }).webhooks ?? [];
    let tries = await triesOf();
    for (let look = 0; look < 2000 && tries.length === 0; look += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      tries = await triesOf();
    }
    expect(tries).toEqual([expect.objectContaining({ type: "run.failed", url: hook.url, delivered: true, outcome: 200 })]);

    const { runs } = await runPage(store, { limit: 10 });
    expect(runs).toEqual([expect.objectContaining({ runId, status: "failed", task: reason })]);
  });

  it("a server with no webhook URL sends none, and says so", async () => {
    const store = memoryStore();
    const server = await startRunServer({ store, tools: [] });
    closing.push(
      () => store.close(),
      () => server.close({ abortRuns: true }),
    );
    expect(server.sendWebhook("digest@x", { status: "failed", reason: "no key" })).toBe(false);
  });
});

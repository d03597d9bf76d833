// The run server with its steps on BullMQ workers (a real Redis, scripts/services.sh): the runs
// the API starts run their steps on a worker, never in the server, each step once.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { planloopClient } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { layeredPlan, remoteTools } from "../fixtures/remote-tools.js";
import { lines, logFile } from "../helpers/call-log.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";

const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

describe.skipIf(skipRedis)("the run server with --redis", () => {
  it("runs the API's runs' steps on a worker, each once, none in the server", async () => {
    const queue = freshQueue();
    const log = logFile();
    const worker: RunningWorker = startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 4 });
    closing.push(() => worker.close({ force: true }));
    // The server's tools check plans; were a step run in the server, it would fail.
    const inServer = remoteTools(log).map((tool) =>
      defineTool({
        name: tool.name,
        description: tool.description,
        input: z.any(),
        execute: () => Promise.reject(new Error("ran in the server")),
      }),
    );
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const store = memoryStore();
    const server: RunServer = await startRunServer({ store, tools: inServer, runner, pollMs: 20 });
    closing.push(
      () => runner.close(),
      () => store.close(),
      () => server.close({ abortRuns: true }),
    );
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const plan = layeredPlan(8, 4, 10);
    const { runId } = await client.start({ plan, runId: "on-workers" });
    const events = [];
    for await (const event of client.stream(runId)) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    const starts = lines(log).filter((line) => line.startsWith("start"));
    expect(starts.map((line) => line.split(" ")[3]).sort()).toEqual(plan.steps.map((step) => `on-workers/${step.id}`).sort());
  });
});

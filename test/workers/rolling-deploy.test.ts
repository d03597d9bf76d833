// A rolling deploy on BullMQ (a real Redis): a worker that lacks a step's tool leaves the step to
// a worker that has it, and fails it only after missingToolWaitMs with no such worker.
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { remoteTools } from "../fixtures/remote-tools.js";
import { lines, logFile } from "../helpers/call-log.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";

const workers: RunningWorker[] = [];
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
  await Promise.all(closing.splice(0).map((close) => close()));
});

const plan = { steps: [1, 2, 3].map((id) => ({ id, task: `work ${id}`, tool: "work", args: { name: `w${id}`, ms: 5 } })) };

describe.skipIf(skipRedis)("a worker without a step's tool", () => {
  it("leaves the step to a worker that has it: the old worker gives way to the new one, and every step runs once", async () => {
    const queue = freshQueue();
    const log = logFile();
    const all = remoteTools(log);
    // The old worker: its tools module has no "work". It takes the steps and puts them back.
    const old = startWorker({ connection: redisUrl!, queue, tools: all.filter((tool) => tool.name !== "work"), missingToolWaitMs: 20_000 });
    workers.push(old);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    const running = executePlan({ plan, tools: all, runner, runId: "rolling", retry: { maxAttempts: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The deploy replaces it with a worker that has the tool.
    await old.close();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: all }));
    const result = await running;
    expect(result.status).toBe("completed");
    const starts = lines(log).filter((line) => line.startsWith("start"));
    expect(starts.map((line) => line.split(" ")[3]).sort()).toEqual(["rolling/1", "rolling/2", "rolling/3"]);
  });

  it("fails the step after missingToolWaitMs when no worker has the tool, naming it", async () => {
    const queue = freshQueue();
    const all = remoteTools(logFile());
    workers.push(startWorker({ connection: redisUrl!, queue, tools: all.filter((tool) => tool.name !== "work"), missingToolWaitMs: 400 }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    const result = await executePlan({
      plan: { steps: [plan.steps[0]!] },
      tools: all,
      runner,
      runId: "nowhere",
      retry: { maxAttempts: 1 },
    });
    expect(result.status).toBe("failed");
    expect(result.steps["1"]!.error).toMatch(/no worker with a tool "work" took the step within 400 ms \(missingToolWaitMs\)/);
  });
});

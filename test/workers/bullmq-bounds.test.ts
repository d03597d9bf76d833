// BullMQ runs with bounds (issue 28 §5-6), against the real Redis: a worker that stalls has its
// call run at most once more (a side-effecting one not at all: its step asks a person), then
// the step fails naming the stall; results are removed from Redis once read, and an output too large for it fails
// the step instead of filling the server.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan, memoryStore } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { remoteTools } from "../fixtures/remote-tools.js";
import { logFile, starts } from "../helpers/call-log.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";
import { repoRoot } from "../helpers/paths.js";

const root = repoRoot;
const children: ChildProcess[] = [];
const workers: RunningWorker[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
});

async function workerProcess(queue: string, log: string): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "test", "fixtures", "worker-process.ts"), redisUrl!, queue, log], {
    cwd: root,
  });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve()));
}

describe.skipIf(skipRedis)("a worker that stalls", () => {
  it("runs the call at most once more, with its key, then the step fails naming the stall", async () => {
    const queue = freshQueue();
    const log = logFile();
    await Promise.all([workerProcess(queue, log), workerProcess(queue, log)]);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = { steps: [{ id: "a", task: "t", tool: "block", args: { name: "a", ms: 2_500 } }] };
    const result = await executePlan({ plan, tools: remoteTools(log), runner, runId: "stall-1", retry: { maxAttempts: 1 } });
    await runner.close();
    expect(result.status).toBe("failed");
    expect(result.steps.a!.error).toMatch(/stalled twice .*lockDurationMs/);
    expect(starts(log).length).toBeLessThanOrEqual(2);
    expect(new Set(starts(log).map((line) => line.split(" ")[3]))).toEqual(new Set(["stall-1/a"]));
  });

  it("holds the bound with the step's retries left at their default: a 3 s block over a 1 s lock", async () => {
    const queue = freshQueue();
    const log = logFile();
    await Promise.all([workerProcess(queue, log), workerProcess(queue, log)]);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = { steps: [{ id: "a", task: "t", tool: "block", args: { name: "a", ms: 3_000 } }] };
    const result = await executePlan({ plan, tools: remoteTools(log), runner, runId: "stall-2" });
    await runner.close();
    expect(result.steps.a!.error).toMatch(/stalled twice/);
    expect(starts(log).length).toBeLessThanOrEqual(2);
  });

  it("a call that fails on its run after a stall is not retried by the step: twice in all, with the step's retries left at their default", async () => {
    const queue = freshQueue();
    const log = logFile();
    await Promise.all([workerProcess(queue, log), workerProcess(queue, log)]);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = { steps: [{ id: "f", task: "t", tool: "blockThenFail", args: { name: "f", ms: 2_500 } }] };
    const result = await executePlan({ plan, tools: remoteTools(log), runner, runId: "stall-3" });
    await runner.close();
    expect(result.steps.f!.error).toMatch(/failed after the stall \(it ran twice: its first worker stalled; not retried\)/);
    expect(starts(log)).toHaveLength(2);
  });

  it("a side-effecting call cut short by a stall runs again once approved: as a job of its own, not the one cut short", async () => {
    const queue = freshQueue();
    const log = logFile();
    await Promise.all([workerProcess(queue, log), workerProcess(queue, log)]);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    // A durable run: continued by id, it asks for the same jobs as before (no new incarnation).
    const store = memoryStore();
    const plan = { steps: [{ id: "w", task: "t", tool: "blockOnceWire", args: { name: "w", ms: 2_500 } }] };
    const waiting = await executePlan({ plan, tools: remoteTools(log), runner, store, runId: "stall-4" });
    expect(waiting.pending).toMatchObject([{ id: "step:w#2", kind: "interrupted" }]);
    const approvals = { "step:w#2": { approved: true as const } };
    const approved = await executePlan({ plan, tools: remoteTools(log), runner, store, runId: "stall-4", approvals });
    await runner.close();
    expect(approved.status).toBe("completed");
    expect(starts(log)).toHaveLength(2);
  });

  it("does not run a side-effecting call again after a stall: the step asks a person what became of it", async () => {
    const queue = freshQueue();
    const log = logFile();
    await Promise.all([workerProcess(queue, log), workerProcess(queue, log)]);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = { steps: [{ id: "w", task: "t", tool: "blockingWire", args: { name: "w", ms: 2_500 } }] };
    const result = await executePlan({ plan, tools: remoteTools(log), runner, retry: { maxAttempts: 1 } });
    await runner.close();
    expect(result.steps.w!.error).toMatch(/was running on a worker that stalled .*side-effecting, so it was not run again/);
    expect(result.status).toBe("waiting");
    expect(result.pending).toMatchObject([{ id: "step:w#2", kind: "interrupted", name: "blockingWire" }]);
    expect(starts(log)).toHaveLength(1);
  });
});

describe.skipIf(skipRedis)("Redis stays small", () => {
  it("after 1,000 steps the queue's keys are what they were, within a small constant", async () => {
    const queue = freshQueue();
    const log = logFile();
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: null });
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 16 }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const warm = await executePlan({
      plan: { steps: [{ id: 0, task: "t", tool: "work", args: { name: "w", ms: 0 } }] },
      tools: remoteTools(log),
      runner,
    });
    expect(warm.status).toBe("completed");
    await runner.close();
    const before = (await redis.keys(`bull:${queue}:*`)).length;
    const again = bullmqRunner({ connection: redisUrl!, queue });
    const plan = {
      steps: Array.from({ length: 1_000 }, (_, index) => ({ id: index, task: "t", tool: "work", args: { name: `s${index}`, ms: 0 } })),
    };
    const result = await executePlan({ plan, tools: remoteTools(log), runner: again, concurrency: 32 });
    expect(result.status).toBe("completed");
    await again.close();
    const after = (await redis.keys(`bull:${queue}:*`)).length;
    expect(after - before).toBeLessThanOrEqual(3);
    await redis.quit();
  });

  it("an output over the worker's limit fails its step with a message; Redis never holds it", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), maxResultBytes: 64 * 1024 }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = {
      steps: [
        { id: "big", task: "t", tool: "big", args: { kb: 200 } },
        { id: "small", task: "t", tool: "big", args: { kb: 1 } },
      ],
    };
    const result = await executePlan({ plan, tools: remoteTools(log), runner, retry: { maxAttempts: 1 } });
    await runner.close();
    expect(result.steps.big!.error).toMatch(/the output is \d+ bytes of JSON, over the queue's limit of 65536/);
    expect(result.steps.small!.status).toBe("succeeded");
  });
});

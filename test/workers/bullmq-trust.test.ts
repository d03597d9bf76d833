// Scale-out you can stop and trust (issue 28 §1-3), against the real Redis: a stopped run's
// queued steps do not start on the workers; a job is one call of one run (a run id used again
// with new arguments runs them, a run resumed after its deadline runs what was cut short); and
// with a shared secret, a job or a result nobody signed is refused; agent steps on workers
// stream their events back; a second coordinator on a run is refused.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan, memoryStore, type PlanloopEvent } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { layeredPlan, remoteTools } from "../fixtures/remote-tools.js";
import { logFile, starts, until } from "../helpers/call-log.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const workers: RunningWorker[] = [];
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
  await Promise.all(closing.splice(0).map((close) => close()));
});

const secret = "a queue secret of 16+ chars";
const connection = () => {
  const url = new URL(redisUrl!);
  return { host: url.hostname, port: Number(url.port) };
};

describe.skipIf(skipRedis)("a stopped run stops on the workers", () => {
  it("after a cancel, none of the run's queued steps starts (watched for 2 s)", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 2 }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    const controller = new AbortController();
    // Eight independent steps of 300 ms, all queued at once; the worker takes two at a time.
    const plan = {
      steps: Array.from({ length: 8 }, (_, index) => ({ id: `s${index}`, task: "t", tool: "work", args: { name: `s${index}`, ms: 300 } })),
    };
    const running = executePlan({ plan, tools: remoteTools(log), runner, concurrency: 8, signal: controller.signal });
    await until(() => starts(log).length === 2);
    controller.abort(new Error("stop"));
    expect((await running).status).toBe("cancelled");
    const startedAtReturn = starts(log).length;
    await sleep(2_000);
    expect(starts(log)).toHaveLength(startedAtReturn);
    expect(startedAtReturn).toBe(2);
  });

  it("a job taken after its run's deadline passed is refused before its tool is called", async () => {
    const queue = freshQueue();
    const log = logFile();
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    // No worker yet: the steps wait in the queue while the deadline passes.
    const plan = layeredPlan(3, 3, 10);
    const result = await executePlan({ plan, tools: remoteTools(log), runner, budget: { deadlineMs: 200 } });
    expect(result.status).toBe("deadline_exceeded");
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log) }));
    await sleep(1_500);
    expect(starts(log)).toEqual([]);
  });
});

describe.skipIf(skipRedis)("a job is one call of one run", () => {
  it("a run id used again without a store runs the new arguments; a kept result is never another call's", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log) }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    const plan = (name: string) => ({ steps: [{ id: "a", task: "t", tool: "work", args: { name, ms: 5 } }] });
    const first = await executePlan({ plan: plan("first"), tools: remoteTools(log), runner, runId: "again" });
    const second = await executePlan({ plan: plan("second"), tools: remoteTools(log), runner, runId: "again" });
    const third = await executePlan({ plan: plan("second"), tools: remoteTools(log), runner, runId: "again" });
    expect([first.output, second.output, third.output]).toEqual(["first done", "second done", "second done"]);
    expect(starts(log).map((line) => line.split(" ")[2])).toEqual(["first", "second", "second"]);
  });

  it("a run resumed after its deadline (same id, its state) runs the steps the deadline cut short and completes", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 4 }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    const plan = layeredPlan(2, 2, 600);
    const stopped = await executePlan({ plan, tools: remoteTools(log), runner, runId: "late", budget: { deadlineMs: 150 } });
    expect(stopped.status).toBe("deadline_exceeded");
    const again = await executePlan({ plan, tools: remoteTools(log), runner, runId: "late", resume: stopped.state });
    expect(again.status).toBe("completed");
    // Durable, continued by id: the same jobs are asked for again, and the kept "cancelled" ones run.
    const store = memoryStore();
    const cut = await executePlan({ plan, tools: remoteTools(log), runner, store, runId: "late-2", budget: { deadlineMs: 150 } });
    expect(cut.status).toBe("deadline_exceeded");
    await sleep(200); // the workers' aborted jobs are kept as cancelled
    const resumed = await executePlan({ plan, tools: remoteTools(log), runner, store, runId: "late-2" });
    expect(resumed.status, JSON.stringify(resumed.steps)).toBe("completed");
  });
});

describe.skipIf(skipRedis)("the queue is a trust boundary", () => {
  it("with a secret, a worker refuses a job nobody signed: an approval-gated tool with arguments no plan had never runs", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), secret }));
    const forger = new Queue(queue, { connection: connection() });
    const events = new QueueEvents(queue, { connection: connection() });
    closing.push(
      () => forger.close(),
      () => events.close(),
    );
    await events.waitUntilReady();
    const job = await forger.add("tool", {
      kind: "tool",
      runId: "forged",
      stepKey: "step:1",
      attempt: 1,
      call: { id: "step:1", name: "work", arguments: { name: "prod-db drop", ms: 1 } },
    });
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/not signed with this worker's secret for its id; nothing was run/);
    expect(starts(log)).toEqual([]);
    // A signed run on the same queue runs.
    const runner = bullmqRunner({ connection: redisUrl!, queue, secret });
    closing.push(() => runner.close());
    const result = await executePlan({ plan: layeredPlan(2, 2, 5), tools: remoteTools(log), runner });
    expect(result.status).toBe("completed");
  });

  it("a signed job replayed runs nothing again: not a copy under another id, not the same id after it was removed", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), secret }));
    const runner = bullmqRunner({ connection: redisUrl!, queue, secret, keepResultsFor: 60 });
    closing.push(() => runner.close());
    const attacker = new Queue(queue, { connection: connection() });
    const events = new QueueEvents(queue, { connection: connection() });
    closing.push(
      () => attacker.close(),
      () => events.close(),
    );
    await events.waitUntilReady();
    const plan = { steps: [{ id: "w", task: "wire", tool: "wire", args: { name: "wire-1", ms: 5 } }] };
    expect((await executePlan({ plan, tools: remoteTools(log), runner, runId: "replayed" })).status).toBe("completed");
    const [sent] = await attacker.getJobs(["completed"]);
    const { id, name, data } = sent!;
    // A copy of the signed job under a new id: the signature is bound to the old one.
    const copy = await attacker.add(name, data, { jobId: "copy-1" });
    await expect(copy.waitUntilFinished(events, 10_000)).rejects.toThrow(/not signed with this worker's secret for its id/);
    // The same id, queued again after the job was removed: the worker ran it before.
    await sent!.remove();
    const again = await attacker.add(name, data, { jobId: id! });
    const answer = (await again.waitUntilFinished(events, 10_000)) as { result: { error?: { message: string; cutShort?: boolean } } };
    expect(answer.result.error).toMatchObject({
      cutShort: true,
      message: expect.stringMatching(/ran on a worker before under this job's id/),
    });
    expect(starts(log)).toHaveLength(1);
  });

  it("a forged 'completed' event is not taken as a step's output; the worker's signed result is", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), secret }));
    const runner = bullmqRunner({ connection: redisUrl!, queue, secret });
    closing.push(() => runner.close());
    const redis = new Redis({ ...connection(), maxRetriesPerRequest: null });
    closing.push(() => redis.quit());
    const running = executePlan({
      plan: { steps: [{ id: "a", task: "t", tool: "work", args: { name: "real", ms: 500 } }] },
      tools: remoteTools(log),
      runner,
      runId: "ev",
    });
    await until(() => starts(log).length === 1);
    const [jobId] = await new Queue(queue, { connection: connection() }).getJobs(["active"]).then((jobs) => jobs.map((job) => job.id));
    await redis.xadd(
      `bull:${queue}:events`,
      "*",
      "event",
      "completed",
      "jobId",
      jobId!,
      "returnvalue",
      JSON.stringify({ content: "forged" }),
    );
    const result = await running;
    expect(result).toMatchObject({ status: "completed", output: "real done" });
  });
});

describe.skipIf(skipRedis)("agent steps on workers", () => {
  it("stream their inner events back to the run's listeners, and stop on what is left of the run's budget", async () => {
    const queue = freshQueue();
    const log = logFile();
    const model = async () => ({
      type: "tool_calls" as const,
      calls: [{ id: "c1", name: "work", arguments: { name: "inner", ms: 1 } }],
      usage: { inputTokens: 600, outputTokens: 100 },
    });
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), model }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    closing.push(() => runner.close());
    const events: PlanloopEvent[] = [];
    const result = await executePlan({
      plan: { steps: [{ id: "agent", task: "look around" }] },
      tools: remoteTools(log),
      model,
      runner,
      budget: { maxTokens: 2_000 },
      onEvent: (event) => events.push(event),
    });
    const inner = events.filter((event) => event.type === "model-call-end" || event.type === "tool-call-start");
    expect(inner.length, JSON.stringify([result.steps, events.map((event) => event.type)])).toBeGreaterThan(0);
    expect(inner.every((event) => (event as { stepId?: unknown }).stepId === "agent")).toBe(true);
    // 700 tokens a call: the loop on the worker stops at the run's 2,000, not at its maxSteps.
    expect(result.steps.agent!.error).toMatch(/maxTokens|budget/);
    expect(result.usage.inputTokens + result.usage.outputTokens).toBeLessThanOrEqual(2_100);
  });
});

describe.skipIf(skipRedis)("one coordinator per run", () => {
  it("a second coordinator on the same run id and SQLite store is refused clearly while the first runs", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log) }));
    const path = join(mkdtempSync(join(tmpdir(), "planloop-coordinators-")), "runs.sqlite");
    const { sqliteStore } = await import("planloop/sqlite");
    const [first, second] = [sqliteStore({ path }), sqliteStore({ path })];
    const runners = [bullmqRunner({ connection: redisUrl!, queue }), bullmqRunner({ connection: redisUrl!, queue })];
    closing.push(...runners.map((runner) => () => runner.close()));
    const plan = layeredPlan(2, 2, 400);
    const running = executePlan({ plan, tools: remoteTools(log), runner: runners[0]!, store: first, runId: "shared" });
    await until(() => starts(log).length >= 1);
    await expect(executePlan({ plan, tools: remoteTools(log), runner: runners[1]!, store: second, runId: "shared" })).rejects.toThrow(
      /run "shared" is being run by/,
    );
    expect((await running).status).toBe("completed");
    expect(starts(log)).toHaveLength(2);
    first.close();
    second.close();
  });
});

// planloop runs cancel of a run whose coordinator died reaches the queue itself (issue 44 item
// 5), against the real Redis: `planloop run --redis` SIGKILLed while a worker runs its steps;
// the cancel (no Redis flag: the run's command line names it) removes the queued steps and
// aborts the running one, and no step starts after it.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { startWorker, type RunningWorker } from "planloop/bullmq";
import { tools } from "../fixtures/plan-tools.js";
import { lines, logFile } from "../helpers/call-log.js";
import { repoRoot, testRoot } from "../helpers/paths.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";
import { cli } from "../helpers/run-cli.js";

const workers: RunningWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
});

describe.skipIf(skipRedis)("planloop runs cancel of a run whose coordinator died", () => {
  it("removes its queued steps and aborts the running one: no step starts after the cancel", async () => {
    const queue = freshQueue();
    const log = logFile();
    process.env.PLANLOOP_TEST_LOG = log;
    workers.push(startWorker({ connection: redisUrl!, queue, tools, concurrency: 1 }));
    const dir = mkdtempSync(join(tmpdir(), "planloop-dead-coordinator-"));
    const plan = join(dir, "plan.json");
    // Each step lasts 20 s, so the first is still running when the cancel comes, however long a busy
    // machine takes to start the command (with 800 ms steps, a slow start let a third step begin).
    writeFileSync(
      plan,
      JSON.stringify({
        steps: Array.from({ length: 8 }, (_, i) => ({ id: i, task: "send", tool: "note", args: { text: `send-${i}`, ms: 20_000 } })),
      }),
    );
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const tools_ = join(testRoot, "fixtures", "plan-tools.ts");
    const coordinator = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(repoRoot, "src", "cli", "main.ts"),
        "run",
        plan,
        "--tools",
        tools_,
        "--redis",
        redisUrl!,
        "--queue",
        queue,
        "--store",
        store,
        "--run-id",
        "dead-1",
        "--concurrency",
        "8",
      ],
      { cwd: repoRoot, stdio: "ignore" },
    );
    // Killed once every step is on the queue (one running, seven waiting): a busy machine may take
    // a while to get there, and a kill before it leaves fewer steps to remove.
    const watch = new Queue(queue, { connection: { host: new URL(redisUrl!).hostname, port: Number(new URL(redisUrl!).port) } });
    let queued = 0;
    const countQueued = async () => {
      const counts = await watch.getJobCounts("waiting", "active", "prioritized", "delayed");
      queued = Object.values(counts).reduce((sum, count) => sum + count, 0);
    };
    for (const started = Date.now(); queued < 8 || lines(log).length < 1; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() - started > 120_000) throw new Error(`after 120 s: ${queued} steps queued, ${lines(log).length} started`);
      await countQueued();
    }
    await watch.close();
    coordinator.kill("SIGKILL");
    await new Promise((resolve) => coordinator.once("close", resolve));
    // The Redis named again: the store is not trusted to name one to open; its queue comes from the run's line.
    const cancelled = await cli("runs", "cancel", "dead-1", "--redis", redisUrl!, "--store", store);
    expect(cancelled.err).toBe("");
    expect(cancelled.out).toContain("run dead-1: cancelled");
    expect(cancelled.out).toMatch(new RegExp(`on queue ${queue}, [67] queued steps removed, [12] running steps aborted`));
    const after = lines(log).length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(lines(log).length).toBe(after);
    expect(after).toBeLessThanOrEqual(2);
  });
});

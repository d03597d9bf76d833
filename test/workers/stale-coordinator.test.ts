// A BullMQ coordinator that lost its lease touches nothing (issue 44 item 1), against the real
// Redis: coordinator A (a process of its own) is paused (SIGSTOP) past its lease while a step
// runs on a worker; B takes the run over and waits on the same job; A resumes (SIGCONT), finds
// its lease gone — and neither aborts the step nor removes the job: B's run completes, the step
// ran once and was never aborted. And an owner fences a stale one's cancel in Redis itself.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { sqliteStore } from "planloop/sqlite";
import { remoteTools } from "../fixtures/remote-tools.js";
import { lines, logFile, starts, until } from "../helpers/call-log.js";
import { repoRoot } from "../helpers/paths.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";
import { exited } from "../helpers/cli-process.js";

const children: ChildProcess[] = [];
const workers: RunningWorker[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  }
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
});

describe.skipIf(skipRedis)("a coordinator that lost its lease", () => {
  it("paused past its lease and resumed: it aborts nothing and removes nothing; the new owner's run completes", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 2 }));
    const database = join(mkdtempSync(join(tmpdir(), "planloop-stale-")), "runs.sqlite");
    const plan = { steps: [{ id: "s", task: "work", tool: "work", args: { name: "s", ms: 5_000 } }] };
    const a = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(repoRoot, "test", "fixtures", "coordinator-process.ts"),
        redisUrl!,
        queue,
        database,
        "stale-1",
        log,
        JSON.stringify(plan),
      ],
      { cwd: repoRoot, stdio: "ignore" },
    );
    children.push(a);
    await until(() => starts(log).length === 1);
    a.kill("SIGSTOP");
    // Past A's 500 ms lease: B takes the run over and waits on the job A queued.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const store = sqliteStore({ path: database });
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const b = executePlan({ plan, tools: remoteTools(log), runner, store, runId: "stale-1", lease: { ttlMs: 2_000, onBusy: "wait" } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    a.kill("SIGCONT");
    await exited(a);
    const result = await b;
    await runner.close();
    store.close();
    expect(result.status).toBe("completed");
    expect(starts(log)).toHaveLength(1);
    expect(lines(log).filter((line) => line.startsWith("aborted"))).toEqual([]);
  });

  it("a stale owner's cancel is not sent: the fence in Redis holds the newer owner's token", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 2 }));
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: null });
    const heard: string[] = [];
    await redis.subscribe(`planloop:${queue}:cancel`);
    redis.on("message", (_channel: string, message: string) => void heard.push(message));
    const database = join(mkdtempSync(join(tmpdir(), "planloop-stale-")), "runs.sqlite");
    const store = sqliteStore({ path: database });
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = { steps: [{ id: "s", task: "work", tool: "work", args: { name: "s", ms: 3_000 } }] };
    const controller = new AbortController();
    const running = executePlan({ plan, tools: remoteTools(log), runner, store, runId: "stale-2", signal: controller.signal });
    await until(() => starts(log).length === 1);
    // Another owner took the run (a higher lease token) before this one's cancel.
    const admin = new Redis(redisUrl!, { maxRetriesPerRequest: null });
    await admin.set(`planloop:${queue}:owner:stale-2`, "999");
    controller.abort(new Error("stop"));
    const result = await running;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(result.status).toBe("cancelled");
    expect(heard).toEqual([]);
    expect(lines(log).filter((line) => line.startsWith("aborted"))).toEqual([]);
    // The current owner's cancel goes out.
    await admin.del(`planloop:${queue}:owner:stale-2`);
    const again = new AbortController();
    const second = executePlan({
      plan: { steps: [{ id: "t", task: "work", tool: "work", args: { name: "t", ms: 3_000 } }] },
      tools: remoteTools(log),
      runner,
      store,
      runId: "stale-3",
      signal: again.signal,
    });
    await until(() => starts(log).length === 2);
    again.abort(new Error("stop"));
    await second;
    await until(() => lines(log).some((line) => line.startsWith("aborted") && line.endsWith(" t")));
    await runner.close();
    store.close();
    await Promise.all([redis.quit(), admin.quit()]);
  });
});

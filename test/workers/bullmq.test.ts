// Scale-out on BullMQ against a real Redis (scripts/services.sh): steps run by workers; a
// worker killed mid-step, a coordinator killed mid-run, a run cancelled while its steps run.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { layeredPlan, remoteTools } from "../fixtures/remote-tools.js";
import { lines, logFile, until } from "../helpers/call-log.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";
import { cli } from "../helpers/run-cli.js";
import { tools as planTools } from "../fixtures/plan-tools.js";
import { main as weeklyReportOnWorkers } from "../../examples/weekly-report-workers/main.js";
import { repoRoot } from "../helpers/paths.js";
import { exited } from "../helpers/cli-process.js";

const root = repoRoot;
const children: ChildProcess[] = [];
const workers: RunningWorker[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
});

function spawnScript(script: string, args: string[]): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "test", "fixtures", script), ...args], { cwd: root });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  children.push(child);
  return Object.assign(child, { output: () => output });
}

describe.skipIf(skipRedis)("steps on BullMQ workers", () => {
  it("runs a plan's steps on two workers, each step once, with its key", async () => {
    const queue = freshQueue();
    const log = logFile();
    for (let index = 0; index < 2; index += 1)
      workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 4 }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const plan = layeredPlan(12, 4, 20);
    const result = await executePlan({ plan, tools: remoteTools(log), runner, concurrency: 4, runId: "b1" });
    await runner.close();
    expect(result.status).toBe("completed");
    const starts = lines(log).filter((line) => line.startsWith("start"));
    expect(starts).toHaveLength(12);
    expect(new Set(starts.map((line) => line.split(" ")[3]))).toEqual(new Set(plan.steps.map((step) => `b1/${step.id}`)));
  });

  it("cancelling the run aborts its steps on the workers", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log) }));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const controller = new AbortController();
    const running = executePlan({ plan: layeredPlan(2, 2, 30_000), tools: remoteTools(log), runner, signal: controller.signal });
    await until(() => lines(log).filter((line) => line.startsWith("start")).length === 2);
    controller.abort(new Error("stop"));
    expect((await running).status).toBe("cancelled");
    await until(() => lines(log).filter((line) => line.startsWith("aborted")).length === 2, 20_000); // within its 30 s step
    await runner.close();
  });

  it("a worker killed with SIGKILL mid-step: another worker runs the step, with the same key", async () => {
    const queue = freshQueue();
    const log = logFile();
    const first = spawnScript("worker-process.ts", [redisUrl!, queue, log]);
    await until(() => first.output().includes("ready"));
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    const running = executePlan({ plan: layeredPlan(1, 1, 1_500), tools: remoteTools(log), runner, runId: "b3" });
    await until(() => lines(log).some((line) => line.startsWith("start")));
    first.kill("SIGKILL");
    await exited(first);
    const second = spawnScript("worker-process.ts", [redisUrl!, queue, log]);
    const result = await running;
    await runner.close();
    expect(result.status).toBe("completed");
    const starts = lines(log).filter((line) => line.startsWith("start"));
    expect(starts.map((line) => line.split(" ").slice(1, 2)[0])).toEqual([String(first.pid), String(second.pid)]);
    expect(new Set(starts.map((line) => line.split(" ")[3]))).toEqual(new Set(["b3/s0"]));
  });

  it("a coordinator killed mid-run: a new one with the same run id re-attaches to the running steps and runs nothing twice", async () => {
    const queue = freshQueue();
    const log = logFile();
    workers.push(startWorker({ connection: redisUrl!, queue, tools: remoteTools(log), concurrency: 6 }));
    const database = join(mkdtempSync(join(tmpdir(), "planloop-coordinator-")), "runs.sqlite");
    const args = [redisUrl!, queue, database, "b4", log];
    const first = spawnScript("coordinator-process.ts", args);
    // Killed while the second layer runs: some steps ended, some are on the worker.
    await until(() => lines(log).filter((line) => line.startsWith("start")).length >= 5);
    first.kill("SIGKILL");
    await exited(first);
    const second = spawnScript("coordinator-process.ts", args);
    await exited(second);
    expect(JSON.parse(second.output().trim().split("\n").at(-1)!)).toMatchObject({ status: "completed" });
    const starts = lines(log).filter((line) => line.startsWith("start"));
    expect(starts).toHaveLength(12); // every step ran exactly once: none was queued again
    expect(new Set(starts.map((line) => line.split(" ")[2])).size).toBe(12);
  });

  it("planloop worker runs the steps of planloop run --redis, and stops on SIGTERM after its steps", async () => {
    const queue = freshQueue();
    const tools = join(root, "test", "fixtures", "plan-tools.ts");
    const worker = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "src", "cli", "main.ts"), "worker", "--tools", tools, "--redis", redisUrl!, "--queue", queue],
      { cwd: root },
    );
    children.push(worker);
    let output = "";
    worker.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await until(() => output.includes("worker ready"));
    expect(output).toContain(
      `worker ready: queue ${queue} on ${redisUrl}, ${planTools.length} tools (no model: agent steps fail here), 8 at once`,
    );
    const plan = join(mkdtempSync(join(tmpdir(), "planloop-cli-worker-")), "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        steps: [
          { id: 1, task: "double", tool: "double", args: { value: 21 } },
          { id: 2, task: "again", tool: "double", args: { value: "$1" }, depends_on: [1] },
        ],
      }),
    );
    const ran = await cli("run", plan, "--tools", tools, "--redis", redisUrl!, "--queue", queue, "--no-store");
    expect(ran).toMatchObject({ code: 0, out: expect.stringContaining("output: 84") });
    worker.kill("SIGTERM");
    await exited(worker);
    expect(worker.exitCode).toBe(0);
    expect(output).toContain("worker stopped");
  });

  it("Redis restarted mid-run (append-only file on): the run completes", async () => {
    // A Redis server of this test's own, so that stopping it stops no other test.
    const dir = mkdtempSync(join(tmpdir(), "planloop-redis-"));
    const port = await freePort();
    const startRedis = () => {
      const server = spawn("redis-server", [
        "--bind",
        "127.0.0.1",
        "--port",
        String(port),
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
      ]);
      children.push(server);
      return server;
    };
    let server = startRedis();
    const url = `redis://127.0.0.1:${port}`;
    const queue = freshQueue();
    const log = logFile();
    await until(() => {
      try {
        return readFileSync(join(dir, "appendonlydir", "appendonly.aof.manifest"), "utf8").length > 0;
      } catch {
        return false;
      }
    });
    workers.push(startWorker({ connection: url, queue, tools: remoteTools(log), concurrency: 4 }));
    const runner = bullmqRunner({ connection: url, queue });
    const running = executePlan({ plan: layeredPlan(9, 3, 200), tools: remoteTools(log), runner, concurrency: 3 });
    await until(() => lines(log).filter((line) => line.startsWith("end")).length >= 3);
    server.kill("SIGTERM"); // Redis writes its append-only file and exits
    await exited(server);
    expect(lines(log).filter((line) => line.startsWith("end")).length).toBeLessThan(9); // the run was still going
    server = startRedis();
    const result = await running;
    await runner.close();
    expect(result.status).toBe("completed");
    expect(Object.values(result.steps).every((step) => step.status === "succeeded")).toBe(true);
  });

  it("examples/weekly-report-workers: the weekly report with its steps on two worker processes", async () => {
    const { result, byWorker } = await weeklyReportOnWorkers({ redis: redisUrl!, print: false });
    expect(result).toMatchObject({ status: "completed", replans: 2 });
    expect(result.output).toContain("| orders |");
    expect(byWorker.size).toBe(2);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

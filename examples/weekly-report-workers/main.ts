// The weekly report with its steps on two worker processes (BullMQ on Redis): the planner and
// the DAG stay here; every SQL query and report step runs on a worker next to its data.
// Needs a Redis: eval "$(scripts/services.sh start)" starts one (PLANLOOP_REDIS_URL).
// Run: npx tsx examples/weekly-report-workers/main.ts [redis://127.0.0.1:6379]
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { offlineModel, planAndExecute } from "planloop";
import { bullmqRunner } from "planloop/bullmq";
import { createDemoDatabase, generateDemoData, reportTools, sqlTools, weeklyReportTask, weeklyReportTaskText } from "planloop/demo";

function startWorker(redis: string, queue: string, ran: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "worker.ts"), redis, queue]);
  child.stdout!.on("data", (chunk: Buffer) =>
    ran.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((line) => line.startsWith("ran ")),
    ),
  );
  return new Promise((resolve) => child.stdout!.once("data", () => resolve(child)));
}

export async function main(options: { redis: string; print?: boolean }) {
  const queue = `weekly-report-${process.pid}`;
  const ran: string[] = [];
  const workers = await Promise.all([startWorker(options.redis, queue, ran), startWorker(options.redis, queue, ran)]);
  // The coordinator has the same tools: it checks plans and calls against them; workers run them.
  const db = createDemoDatabase(join(mkdtempSync(join(tmpdir(), "weekly-report-")), "shop.sqlite"), generateDemoData());
  const runner = bullmqRunner({ connection: options.redis, queue });
  try {
    const result = await planAndExecute({
      task: weeklyReportTaskText,
      planner: offlineModel({ tasks: [weeklyReportTask], onNotice: () => {} }),
      tools: [...sqlTools(db), ...reportTools()],
      runner,
      maxReplans: 3,
    });
    const byWorker = new Map<string, number>();
    for (const line of ran) byWorker.set(line.split(" ").at(-1)!, (byWorker.get(line.split(" ").at(-1)!) ?? 0) + 1);
    if (options.print !== false) {
      console.log(`${result.status} after ${result.replans} replans; tool calls per worker process:`);
      for (const [pid, count] of byWorker) console.log(`  ${pid}: ${count}`);
      console.log(`\n${result.output ?? result.reason}`);
    }
    return { result, byWorker };
  } finally {
    await runner.close();
    db.close();
    await Promise.all(workers.map((child) => new Promise((resolve) => (child.once("close", resolve), child.kill("SIGTERM")))));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main({ redis: process.argv[2] ?? process.env.PLANLOOP_REDIS_URL ?? "redis://127.0.0.1:6379" });
}

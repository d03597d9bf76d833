// One worker of the weekly report on many machines: its own copy of the shop's database
// (the tools run next to their data), the report tools, steps from the queue.
// Run: npx tsx examples/weekly-report-workers/worker.ts [redis://127.0.0.1:6379] [queue]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDemoDatabase, generateDemoData, reportTools, sqlTools } from "planloop/demo";
import { startWorker } from "planloop/bullmq";
import type { Tool } from "planloop";

const [redis = process.env.PLANLOOP_REDIS_URL ?? "redis://127.0.0.1:6379", queue = "weekly-report"] = process.argv.slice(2);
const db = createDemoDatabase(join(mkdtempSync(join(tmpdir(), "weekly-report-worker-")), "shop.sqlite"), generateDemoData());
// Each call says which worker ran it, so the example can show the steps spread over both.
const tools = [...sqlTools(db), ...reportTools()].map((tool): Tool => ({
  ...tool,
  execute: (args, context) => (console.log(`ran ${tool.name} in ${process.pid}`), tool.execute!(args, context)),
}));
const worker = startWorker({ connection: redis, queue, tools, concurrency: 4 });
process.on("SIGTERM", () => void worker.close().then(() => (db.close(), process.exit(0))));
console.log(`ready ${process.pid}`);

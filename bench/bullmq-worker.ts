// A worker process for bench/bullmq.bench.ts: bullmq-worker.ts <redis url> <queue> <concurrency>
import { z } from "zod";
import { defineTool } from "../dist/index.js";
import { startWorker } from "../dist/workers/index.js";

const [redis, queue, concurrency] = process.argv.slice(2) as [string, string, string];
const sleep = defineTool({
  name: "sleep",
  description: "Waits ms milliseconds (0: returns at once)",
  input: z.object({ ms: z.number() }),
  execute: ({ ms }) => (ms === 0 ? "done" : new Promise((resolve) => setTimeout(() => resolve("done"), ms))),
});
const worker = startWorker({ connection: redis, queue, tools: [sleep], concurrency: Number(concurrency) });
process.on("SIGTERM", () => void worker.close().then(() => process.exit(0)));
console.log("ready");

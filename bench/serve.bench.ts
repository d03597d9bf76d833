// The run server under load (issue 41), over real HTTP on 127.0.0.1 with one SQLite file:
//   1. Runs started per second through the API (POST /api/runs, one tool step each), and the
//      time until every one of them completed.
//   2. Events per second on one stream: a finished run of STEPS steps read from the start.
//   3. Added latency per event: for a live run of sequential steps (10 ms each), the time from
//      a step's end in the server's process to its step-end event reaching a client over SSE.
//   4. RSS with LIVE runs running at once in the server (each blocked in a tool) and STREAMS
//      streams open on them.
// Run: npm run bench:serve   (RUNS=500 STEPS=2000 CHAIN=200 LIVE=1000 STREAMS=100 to change the sizes)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "../dist/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";
import { planloopClient } from "../dist/client/index.js";
import { startRunServer } from "../dist/server/start-server.js";

const runs = Number(process.env.RUNS ?? 500);
const steps = Number(process.env.STEPS ?? 2000);
const chain = Number(process.env.CHAIN ?? 200);
const live = Number(process.env.LIVE ?? 1000);
const streams = Number(process.env.STREAMS ?? 100);

const ended = new Map<string, number>();
let release: () => void = () => {};
let gate = new Promise<void>((resolve) => (release = resolve));
const tools = [
  defineTool({ name: "echo", description: "echo", input: z.object({ text: z.string() }), execute: ({ text }) => text }),
  defineTool({
    name: "mark",
    description: "notes when it ended",
    input: z.object({ key: z.string() }),
    // Each step takes 10 ms, so the client is listening before the steps end.
    execute: ({ key }) =>
      new Promise((resolve) =>
        setTimeout(() => {
          ended.set(key, performance.now());
          resolve(key);
        }, 10),
      ),
  }),
  defineTool({ name: "block", description: "waits for the gate", input: z.object({}), execute: () => gate.then(() => "free") }),
];

const store = sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-serve-bench-")), "runs.sqlite") });
const server = await startRunServer({ store, tools, concurrency: Math.max(live, 64), pollMs: 250 });
const client = planloopClient({ url: server.url, token: server.sessionToken! });
const drain = async (runId: string) => {
  let count = 0;
  for await (const event of client.stream(runId)) if (event.type !== "") count += 1;
  return count;
};
const percentile = (values: number[], fraction: number) => [...values].sort((a, b) => a - b)[Math.floor(fraction * (values.length - 1))]!;

// 1. Starts per second.
const one = { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] };
let started = performance.now();
const ids = await Promise.all(Array.from({ length: runs }, (_, index) => client.start({ plan: one, runId: `start-${index}` })));
const accepted = performance.now() - started;
await Promise.all(ids.map((started) => drain(started.runId)));
const allDone = performance.now() - started;
console.log(
  `1. ${runs} runs started through the API: ${((runs / accepted) * 1000).toFixed(0)} starts/s (accepted in ${accepted.toFixed(0)} ms); all completed in ${allDone.toFixed(0)} ms (${((runs / allDone) * 1000).toFixed(0)} runs/s)`,
);

// 2. Events per second on one stream.
const wide = {
  steps: Array.from({ length: steps }, (_, index) => ({ id: index + 1, task: "echo", tool: "echo", args: { text: `${index}` } })),
};
await client.start({ plan: wide, runId: "wide" });
await drain("wide");
started = performance.now();
const events = await drain("wide");
const read = performance.now() - started;
console.log(
  `2. a finished run of ${steps} steps read from the start: ${events} events in ${read.toFixed(0)} ms, ${((events / read) * 1000).toFixed(0)} events/s`,
);

// 3. Added latency per event, live.
const sequential = {
  steps: Array.from({ length: chain }, (_, index) => ({
    id: index + 1,
    task: "mark",
    tool: "mark",
    args: { key: `s${index + 1}` },
    depends_on: index === 0 ? [] : [index],
  })),
};
const seen = new Map<string, number>();
await client.start({ plan: sequential, runId: "chain" });
for await (const event of client.stream("chain")) if (event.type === "step-end") seen.set(`s${String(event.stepId)}`, performance.now());
// The first steps may end before the client is connected: they are left out.
for (const key of [...seen.keys()].slice(0, 5)) seen.delete(key);
const delays = [...seen].map(([key, at]) => at - ended.get(key)!);
console.log(
  `3. ${chain} sequential steps, step end in the server to its event at a client: p50 ${percentile(delays, 0.5).toFixed(1)} ms, p95 ${percentile(delays, 0.95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`,
);

// 4. RSS with many runs live and streams open.
const blocked = { steps: [{ id: 1, task: "block", tool: "block", args: {} }] };
const before = process.memoryUsage().rss;
await Promise.all(Array.from({ length: live }, (_, index) => client.start({ plan: blocked, runId: `live-${index}` })));
const open = Array.from({ length: streams }, (_, index) => drain(`live-${index}`));
await new Promise((resolve) => setTimeout(resolve, 2_000));
const rss = process.memoryUsage().rss;
console.log(
  `4. ${live} runs running at once (each in a tool), ${streams} streams open: RSS ${(rss / 1e6).toFixed(0)} MB (${((rss - before) / 1e6).toFixed(0)} MB more than before them)`,
);
release();
await Promise.all(open);
gate = Promise.resolve();
await server.close();
await store.close();

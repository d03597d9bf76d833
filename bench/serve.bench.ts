// The run server under load (issue 41), over real HTTP on 127.0.0.1 with one SQLite file:
//   1. Runs started per second through the API (POST /api/runs, one tool step each), and the
//      time until every one of them completed.
//   2. Events per second on one stream: a finished run of STEPS steps read from the start.
//   3. Added latency per event: for a live run of sequential steps (10 ms each), the time from
//      a step's end in the server's process to its step-end event reaching a client over SSE.
//   4. RSS with LIVE runs running at once in the server (each blocked in a tool) and STREAMS
//      streams open on them.
//   5. Wake skew (issue 54): serveRuns with a run due while another run holds a 10-second step:
//      from its due time to its continuation starting (goal: one tick plus the continuation).
//   6. The first service pass after 3 days down with a one-second schedule (goal: under 100 ms).
//   7. API p50 (GET /api/runs/:id) and the process's CPU while idle, with IDLE open streams on
//      idle runs vs none (goal: p50 under 2x; idle streams at most 1% of a core per 1,000).
//   8. Server memory per stalled reader: STALLED readers that never read a finished run of about
//      10 MB of events, cut off at the stream buffer cap (goal: bounded).
// Run: npm run bench:serve   (RUNS=500 STEPS=2000 CHAIN=200 LIVE=1000 STREAMS=100 IDLE=1000 STALLED=20 to change the sizes)
import { spawn } from "node:child_process";
import { Agent, get } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, RunService, saveSchedule, type JournalEntry } from "../dist/index.js";
import { FakeClock } from "../dist/testing/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";
import { planloopClient } from "../dist/client/index.js";
import { startRunServer } from "../dist/server/start-server.js";

const runs = Number(process.env.RUNS ?? 500);
const steps = Number(process.env.STEPS ?? 2000);
const chain = Number(process.env.CHAIN ?? 200);
const live = Number(process.env.LIVE ?? 1000);
const streams = Number(process.env.STREAMS ?? 100);
const idle = Number(process.env.IDLE ?? 1000);
const stalledReaders = Number(process.env.STALLED ?? 20);

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
// A start is idempotent by its run id: one whose keep-alive connection the server closed at the
// same moment (under load) is sent again, as a client would.
const start = async (body: Parameters<typeof client.start>[0]) => {
  for (let attempt = 1; ; attempt += 1)
    try {
      return await client.start(body);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TypeError)) throw error;
    }
};
const percentile = (values: number[], fraction: number) => [...values].sort((a, b) => a - b)[Math.floor(fraction * (values.length - 1))]!;

// 1. Starts per second.
const one = { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] };
let started = performance.now();
const ids = await Promise.all(Array.from({ length: runs }, (_, index) => start({ plan: one, runId: `start-${index}` })));
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
await Promise.all(Array.from({ length: live }, (_, index) => start({ plan: blocked, runId: `live-${index}` })));
const open = Array.from({ length: streams }, (_, index) => drain(`live-${index}`));
await new Promise((resolve) => setTimeout(resolve, 2_000));
const rss = process.memoryUsage().rss;
console.log(
  `4. ${live} runs running at once (each in a tool), ${streams} streams open: RSS ${(rss / 1e6).toFixed(0)} MB (${((rss - before) / 1e6).toFixed(0)} MB more than before them)`,
);
release();
await Promise.all(open);
gate = Promise.resolve();

// 5. Wake skew: a run due while another run holds a 10-second step, in one service (tick 200 ms).
const tickMs = 200;
const paused = (at: number): JournalEntry => ({ kind: "paused", state: {}, status: "waiting", wake: { at } });
store.createRun({ runId: "long-step", entry: "executePlan", at: Date.now() });
store.append("long-step", [paused(Date.now())], Date.now());
const dueAt = Date.now() + 2_000;
store.createRun({ runId: "due-later", entry: "executePlan", at: Date.now() });
store.append("due-later", [paused(dueAt)], Date.now());
let wokeAt = 0;
const stopService = new AbortController();
const service = new RunService({
  store,
  tickMs,
  continueRun: async ({ runId }) => {
    if (runId === "long-step") await new Promise((resolve) => setTimeout(resolve, 10_000));
    else wokeAt = Date.now();
    store.finishRun(runId, { status: "completed" }, Date.now());
  },
  signal: stopService.signal,
});
const serving = service.run();
while (wokeAt === 0) await new Promise((resolve) => setTimeout(resolve, 10));
console.log(
  `5. a run due while another run holds a 10-second step (tick ${tickMs} ms): continued ${wokeAt - dueAt} ms after its due time (goal: one tick plus the continuation)`,
);
stopService.abort();
await serving;

// 6. The first pass after 3 days down, a one-second schedule.
const threeDays = 3 * 86_400_000;
await saveSchedule(store, { name: "every-second", cron: "* * * * * *", run: null }, new FakeClock(Date.now() - threeDays));
const fired: string[] = [];
const catchUp = new RunService({ store, launch: (fire) => (fired.push(fire.runId), Promise.resolve({ status: "completed" })) });
started = performance.now();
await catchUp.pass();
await catchUp.settled();
console.log(
  `6. the first service pass after 3 days down, a one-second schedule: ${(performance.now() - started).toFixed(1)} ms, ${fired.length} run started (goal: under 100 ms)`,
);

// 7. API p50 and idle CPU with IDLE open streams vs none.
// Over a connection of its own (node:http, keep-alive), so the clients' pool of open streams is not measured.
const apiAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const getRun = (runId: string) =>
  new Promise<void>((resolve, reject) => {
    const sent = get(
      `${server.url}/api/runs/${runId}`,
      { agent: apiAgent, headers: { authorization: `Bearer ${server.sessionToken!}` } },
      (response) => {
        response.resume();
        response.on("end", resolve);
      },
    );
    sent.on("error", reject);
  });
const apiP50 = async () => {
  const times: number[] = [];
  for (let index = 0; index < 1000; index += 1) {
    const at = performance.now();
    await getRun(`start-${index % runs}`);
    times.push(performance.now() - at);
  }
  return percentile(times.slice(100), 0.5);
};
const idleCpu = async (ms: number) => {
  const from = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(from);
  return ((used.user + used.system) / 1000 / ms) * 100;
};
const quietP50 = await apiP50();
const quietCpu = await idleCpu(3_000);
for (let index = 0; index < idle; index += 1) {
  store.createRun({ runId: `idle-${index}`, entry: "executePlan", at: Date.now() });
  store.append(`idle-${index}`, [{ kind: "plan", version: 1, plan: { steps: [] } }], Date.now());
}
const stopStreams = new AbortController();
let opened = 0;
const idleStreams = Array.from({ length: idle }, async (_, index) => {
  try {
    for await (const _event of client.stream(`idle-${index}`, { signal: stopStreams.signal, reconnects: 0 })) opened += 1;
  } catch {
    // stopped
  }
});
while (opened < idle) await new Promise((resolve) => setTimeout(resolve, 20));
const busyCpu = await idleCpu(3_000);
const busyP50 = await apiP50();
console.log(
  `7. GET /api/runs/:id p50: ${quietP50.toFixed(2)} ms with no stream open, ${busyP50.toFixed(2)} ms with ${idle} open (${(busyP50 / quietP50).toFixed(2)}x; goal under 2x); the process idle: ${quietCpu.toFixed(1)}% of a core, ${busyCpu.toFixed(1)}% with the streams open`,
);
stopStreams.abort();
await Promise.all(idleStreams);
apiAgent.destroy();

// 8. Memory per stalled reader.
store.createRun({ runId: "big", entry: "executePlan", at: 1 });
const task = "x".repeat(12_000);
for (let version = 1; version <= 800; version += 1)
  store.append("big", [{ kind: "plan", version, plan: { steps: [{ id: 1, task: `${version} ${task}`, depends_on: [] }] } }], version);
store.finishRun("big", { status: "completed" }, 900);
const memory = async () => {
  for (let round = 0; round < 3; round += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, used: heapUsed + external };
};
let cut = 0;
const capped = await startRunServer({ store, tools: [], onStreamCut: () => (cut += 1) });
// The readers are another process, so this one's memory is the server's alone.
const readerScript = `
  const { request } = require("node:http");
  for (let index = 0; index < ${stalledReaders}; index += 1) {
    const sent = request(${JSON.stringify(`${capped.url}/api/runs/big/stream`)}, { headers: { authorization: ${JSON.stringify(`Bearer ${capped.sessionToken!}`)} } }, (response) => response.pause());
    sent.on("error", () => {});
    sent.end();
  }
  setInterval(() => {}, 1000);
`;
const readers = spawn(process.execPath, ["-e", readerScript], { stdio: "ignore" });
while (cut < stalledReaders) await new Promise((resolve) => setTimeout(resolve, 20));
const held = await memory();
readers.kill("SIGKILL");
await new Promise((resolve) => readers.once("exit", resolve));
await new Promise((resolve) => setTimeout(resolve, 500));
const gone = await memory();
const perReader = (bytes: number) => `${(bytes / stalledReaders / 1024).toFixed(0)} KiB`;
console.log(
  `8. ${stalledReaders} readers (another process) that never read a finished run of 800 events (~10 MB): each cut off at the ${1_048_576 / 1024} KiB cap; what a cut-off reader still holds in the server (heap+external, freed when it goes): ${perReader(held.used - gone.used)}; goal: bounded: at most the cap while behind`,
);
await capped.close();
await server.close();
await store.close();

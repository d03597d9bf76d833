// What the run server costs (issue 54's cost item), side by side with a bare Hono app that does
// one SQLite insert per request, in this process, on this machine. The clients of items 1 and 3
// are another process, so the CPU measured is the servers' alone.
//   1. Starts: CLIENTS connections POST STARTS requests each way (after a warm-up), in ROUNDS
//      rounds taken in turns (medians reported): the server process's CPU per request and
//      requests per second. planloop: POST /api/runs (a one-step
//      plan, the run's id given); bare: POST /runs, its body parsed and one row inserted. Then
//      the CPU per run until all the planloop runs have completed.
//   2. A step's end to its event at a client (CHAIN sequential 10 ms steps): over planloop's SSE
//      stream, over a bare Hono SSE route written to when told, and in-process (executePlan's
//      onEvent), p50 and p95.
//   3. Idle open streams (idle runs; bare: a route that writes nothing): the server process's CPU
//      over IDLE_MS with 100 and with 1,000 open.
//   4. A wake pass over WAKE due runs (each a durable plan whose wait is over, then one step)
//      against reading their rows and journals (getRun each; the median of three passes).
// Run: npm run bench:serve-cost   (STARTS=1000 CLIENTS=16 ROUNDS=3 CHAIN=200 IDLE_MS=5000 WAKE=10000 to change the sizes;
// PROFILE=starts.cpuprofile writes a CPU profile of this process over item 1's last API round, its runs included)
import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { get, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Session } from "node:inspector/promises";
import Database from "better-sqlite3";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { defineTool, executePlan, wakeDueRuns } from "../dist/index.js";
import { FakeClock } from "../dist/testing/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";
import { startRunServer } from "../dist/server/start-server.js";

const starts = Number(process.env.STARTS ?? 1000);
const clients = Number(process.env.CLIENTS ?? 16);
const chain = Number(process.env.CHAIN ?? 200);
const idleMs = Number(process.env.IDLE_MS ?? 5000);
const wake = Number(process.env.WAKE ?? 10_000);
const folder = mkdtempSync(join(tmpdir(), "planloop-serve-cost-"));
const percentile = (values: number[], fraction: number) => [...values].sort((a, b) => a - b)[Math.floor(fraction * (values.length - 1))]!;
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** A process of clients, told what to do one line at a time; answers one line each. */
function clientProcess(): { ask(command: object): Promise<string>; close(): void } {
  const script = `
    const http = require("node:http");
    const agent = new http.Agent({ keepAlive: true, maxSockets: ${clients} });
    const post = (url, headers, body) => new Promise((resolve, reject) => {
      const sent = http.request(url, { method: "POST", agent, headers: { ...headers, "content-type": "application/json" } }, (response) => {
        response.resume(); response.on("end", () => response.statusCode < 300 ? resolve() : reject(new Error(String(response.statusCode))));
      });
      sent.on("error", reject); sent.end(body);
    });
    const open = [];
    const lines = require("node:readline").createInterface({ input: process.stdin });
    lines.on("line", async (line) => {
      const command = JSON.parse(line);
      if (command.kind === "post") {
        let next = 0;
        const started = performance.now();
        await Promise.all(Array.from({ length: ${clients} }, async () => {
          while (next < command.count) { const index = command.from + next++; await post(command.url, command.headers, command.body.replaceAll("#", String(index))); }
        }));
        console.log(String(performance.now() - started));
      } else if (command.kind === "open") {
        let opened = 0;
        for (const url of command.urls) {
          const sent = http.get(url, { headers: command.headers }, (response) => { opened += 1; response.on("data", () => {}); if (opened === command.urls.length) console.log("open"); });
          sent.on("error", () => {}); open.push(sent);
        }
      } else if (command.kind === "close") {
        for (const sent of open.splice(0)) sent.destroy();
        console.log("closed");
      }
    });
  `;
  const child: ChildProcess = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  const answers = createInterface({ input: child.stdout! });
  const waiting: Array<(line: string) => void> = [];
  answers.on("line", (line) => waiting.shift()?.(line));
  return {
    ask: (command) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin!.write(`${JSON.stringify(command)}\n`);
      }),
    close: () => child.kill(),
  };
}

/** Reads an SSE route in this process, telling `seen` each event's data and when it arrived. */
function readEvents(url: string, headers: Record<string, string>, seen: (data: string, at: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const sent = get(url, { headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const at = performance.now();
        text += chunk;
        let end: number;
        while ((end = text.indexOf("\n\n")) >= 0) {
          const data = text
            .slice(0, end)
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("\n");
          text = text.slice(end + 2);
          seen(data, at);
        }
      });
      response.on("end", resolve);
      response.on("close", resolve);
    });
    sent.on("error", reject);
  });
}

// The bare app: one insert per start, an SSE route written to when told, and streams that stay idle.
const bareDb = new Database(join(folder, "bare.sqlite"));
bareDb.pragma("journal_mode = WAL");
bareDb.pragma("synchronous = NORMAL");
bareDb.exec("CREATE TABLE runs (run_id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)");
const insert = bareDb.prepare("INSERT INTO runs (run_id, body, created_at) VALUES (?, ?, ?)");
const told = new EventEmitter();
told.setMaxListeners(0);
const bare = new Hono();
bare.post("/runs", async (context) => {
  const body = await context.req.json<{ runId: string }>();
  insert.run(body.runId, JSON.stringify(body), Date.now());
  return context.json({ runId: body.runId, created: true }, 201);
});
bare.get("/events", (context) =>
  streamSSE(context, async (stream) => {
    const write = (key: string) => void stream.writeSSE({ data: key });
    told.on("step", write);
    await new Promise<void>((resolve) => stream.onAbort(resolve));
    told.off("step", write);
  }),
);
const bareServer = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const started = serve({ fetch: bare.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
});
const bareUrl = `http://127.0.0.1:${(bareServer.address() as { port: number }).port}`;

const ended = new Map<string, number>();
const tools = [
  defineTool({ name: "echo", description: "echo", input: z.object({ text: z.string() }), execute: ({ text }) => text }),
  defineTool({
    name: "mark",
    description: "notes when it ended",
    input: z.object({ key: z.string() }),
    execute: ({ key }) =>
      new Promise((resolve) =>
        setTimeout(() => {
          ended.set(key, performance.now());
          resolve(key);
        }, 10),
      ),
  }),
];
const store = sqliteStore({ path: join(folder, "runs.sqlite") });
const server = await startRunServer({ store, tools, concurrency: 64 });
const auth = { authorization: `Bearer ${server.sessionToken!}` };
const load = clientProcess();
console.log(
  `load average ${(await import("node:os"))
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")}`,
);

// 1. Starts: ROUNDS rounds, each the bare handler's then the API's (its runs completed before the
// next round), so both sides of a round see about the same load on a shared machine; the medians
// of the rounds are reported, and the spread of the per-round ratio.
const rounds = Number(process.env.ROUNDS ?? 3);
const median = (values: number[]) => percentile(values, 0.5);
const plan = { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] };
const startBody = JSON.stringify({ plan, runId: "cost-#" });
const measuredStarts = async (url: string, headers: Record<string, string>, body: string, round: number) => {
  if (round === 0) await load.ask({ kind: "post", url, headers, body, from: 0, count: Math.min(200, starts) });
  const from = process.cpuUsage();
  const ms = Number(await load.ask({ kind: "post", url, headers, body, from: 1_000_000 + round * starts, count: starts }));
  return { cpu: cpuMs(from) / starts, perSecond: (starts / ms) * 1000, from };
};
const bareRounds: Array<{ cpu: number; perSecond: number }> = [];
const apiRounds: Array<{ cpu: number; perSecond: number; withRuns: number }> = [];
const profiling = process.env.PROFILE ? new Session() : undefined;
for (let round = 0; round < rounds; round += 1) {
  bareRounds.push(await measuredStarts(`${bareUrl}/runs`, {}, startBody, round));
  const profiled = profiling !== undefined && round === rounds - 1;
  if (profiled) {
    profiling.connect();
    await profiling.post("Profiler.enable");
    await profiling.post("Profiler.start");
  }
  const apiStarts = await measuredStarts(`${server.url}/api/runs`, auth, startBody, round);
  while ((await store.listRuns({ topLevel: true, status: "running", limit: 1 })).length > 0)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (profiled) {
    const { profile } = await profiling.post("Profiler.stop");
    writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
    profiling.disconnect();
  }
  apiRounds.push({ ...apiStarts, withRuns: cpuMs(apiStarts.from) / starts });
}
const bareStarts = { cpu: median(bareRounds.map((r) => r.cpu)), perSecond: median(bareRounds.map((r) => r.perSecond)) };
const apiStarts = { cpu: median(apiRounds.map((r) => r.cpu)), perSecond: median(apiRounds.map((r) => r.perSecond)) };
const withRuns = median(apiRounds.map((r) => r.withRuns));
const rateRatios = apiRounds.map((r, index) => r.perSecond / bareRounds[index]!.perSecond);
console.log(
  `1. starts (${clients} connections from another process, ${starts} each, median of ${rounds} rounds): bare ${bareStarts.cpu.toFixed(2)} ms CPU a request, ${bareStarts.perSecond.toFixed(0)}/s; ` +
    `POST /api/runs ${apiStarts.cpu.toFixed(2)} ms (${(apiStarts.cpu / bareStarts.cpu).toFixed(1)}x), ${apiStarts.perSecond.toFixed(0)}/s ` +
    `(${median(rateRatios).toFixed(2)}x, rounds ${Math.min(...rateRatios).toFixed(2)}–${Math.max(...rateRatios).toFixed(2)}x; goal >= 0.5x); ${withRuns.toFixed(2)} ms a run until all completed`,
);

// 2. A step's end to its event at a client.
const sequential = {
  steps: Array.from({ length: chain }, (_, index) => ({
    id: index + 1,
    task: "mark",
    tool: "mark",
    args: { key: `s${index + 1}` },
    depends_on: index === 0 ? [] : [index],
  })),
};
const late = (seen: Map<string, number>) => {
  // The first steps may end before the client is connected: they are left out.
  const delays = [...seen].slice(5).map(([key, at]) => at - ended.get(key)!);
  return `p50 ${percentile(delays, 0.5).toFixed(2)} ms, p95 ${percentile(delays, 0.95).toFixed(2)} ms`;
};
const overApi = new Map<string, number>();
await fetch(`${server.url}/api/runs`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/json" },
  body: JSON.stringify({ plan: sequential, runId: "chain" }),
});
await readEvents(`${server.url}/api/runs/chain/stream`, auth, (data, at) => {
  const event = JSON.parse(data || "{}") as { type?: string; stepId?: unknown };
  if (event.type === "step-end") overApi.set(`s${String(event.stepId)}`, at);
});
const overBare = new Map<string, number>();
const bareRead = readEvents(`${bareUrl}/events`, {}, (key, at) =>
  key === "end" ? (bareServer as Server).closeAllConnections() : overBare.set(key, at),
);
await new Promise((resolve) => setTimeout(resolve, 50));
for (let index = 1; index <= chain; index += 1) {
  await new Promise((resolve) => setTimeout(resolve, 10));
  ended.set(`b${index}`, performance.now());
  told.emit("step", `b${index}`);
}
told.emit("step", "end");
await bareRead.catch(() => {});
const inProcess = new Map<string, number>();
await executePlan({
  plan: { steps: sequential.steps.map((step) => ({ ...step, args: { key: `p${step.args.key}` } })) },
  tools,
  store,
  runId: "chain-in-process",
  onEvent: (event) => {
    if (event.type === "step-end") inProcess.set(`ps${String(event.stepId)}`, performance.now());
  },
});
console.log(
  `2. a step's end to its event (${chain} steps of 10 ms): SSE ${late(overApi)} (goal p50 <= 1 ms); bare SSE ${late(overBare)}; in-process ${late(inProcess)}`,
);

// 3. Idle open streams.
for (let index = 0; index < 1000; index += 1) {
  store.createRun({ runId: `idle-${index}`, entry: "executePlan", at: Date.now() });
  store.append(`idle-${index}`, [{ kind: "plan", version: 1, plan: { steps: [] } }], Date.now());
}
const idleCpu = async (urls: string[], headers: Record<string, string>) => {
  await load.ask({ kind: "open", urls, headers });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const from = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const share = (cpuMs(from) / idleMs) * 100;
  await load.ask({ kind: "close" });
  return `${share.toFixed(2)}%`;
};
const apiIdle: string[] = [];
const bareIdle: string[] = [];
for (const count of [100, 1000]) {
  apiIdle.push(
    await idleCpu(
      Array.from({ length: count }, (_, index) => `${server.url}/api/runs/idle-${index}/stream`),
      auth,
    ),
  );
  bareIdle.push(
    await idleCpu(
      Array.from({ length: count }, () => `${bareUrl}/events`),
      {},
    ),
  );
}
console.log(
  `3. idle open streams, the server's CPU over ${idleMs} ms: 100 open ${apiIdle[0]} of a core, 1,000 open ${apiIdle[1]} (goal <= 1% per 1,000); bare ${bareIdle[0]}, ${bareIdle[1]}`,
);
load.close();
await server.close();
bareServer.close();

// 4. A wake pass over due runs against reading them.
const clock = new FakeClock(Date.now());
const until = new Date(clock.now() + 60_000).toISOString();
const waitPlan = {
  steps: [
    { id: 1, task: "wait", wait: { until } },
    { id: 2, task: "echo", tool: "echo", args: { text: "$1.waitedUntil" }, depends_on: [1] },
  ],
};
const wakeStore = sqliteStore({ path: join(folder, "wake.sqlite") });
for (let index = 0; index < wake; index += 1) await executePlan({ plan: waitPlan, tools, store: wakeStore, runId: `w${index}`, clock });
await clock.advance(60_000);
// The reads: the median of three passes (the first may find the file less cached than the others).
const readPasses: Array<{ ms: number; cpu: number }> = [];
for (let pass = 0; pass < 3; pass += 1) {
  const readFrom = performance.now();
  const readCpu = process.cpuUsage();
  for (let index = 0; index < wake; index += 1) await wakeStore.getRun(`w${index}`);
  readPasses.push({ ms: performance.now() - readFrom, cpu: cpuMs(readCpu) });
}
const reads = percentile(
  readPasses.map((read) => read.ms),
  0.5,
);
const readsCpu = percentile(
  readPasses.map((read) => read.cpu),
  0.5,
);
const started = performance.now();
const passCpu = process.cpuUsage();
const woken = await wakeDueRuns({ store: wakeStore, tools, clock, limit: wake, concurrency: 8 });
const pass = performance.now() - started;
const passCpuMs = cpuMs(passCpu);
// The CPU too: on a shared machine it moves less with the load than the time does.
console.log(
  `4. ${wake} due runs: reading their rows and journals ${reads.toFixed(0)} ms; a wake pass ${pass.toFixed(0)} ms (${woken.woken.length} woken), ${(pass / reads).toFixed(1)}x its reads (goal <= 10x); ` +
    `CPU ${readsCpu.toFixed(0)} ms and ${passCpuMs.toFixed(0)} ms (${(passCpuMs / readsCpu).toFixed(1)}x)`,
);
await wakeStore.close();
await store.close();
bareDb.close();

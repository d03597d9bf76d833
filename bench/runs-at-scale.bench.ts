// The `planloop runs` commands at the size a pipeline reaches (issue 27 §5): a store of
// 100,000 runs (90,000 plan runs and 10,000 planAndExecute runs, each of those with its plan
// run kept inside it), written in bulk, then `runs list`, `runs list --status failed`,
// `runs show` and `runs stats` timed as a user runs them (a fresh `planloop` process each),
// with the process's peak memory. Target: each under 1 s and 200 MB, on SQLite and Postgres
// (Postgres when PLANLOOP_POSTGRES_URL is set: eval "$(scripts/services.sh start)").
// Run: npm run bench:runs
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresStore } from "../dist/stores/postgres/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";

const total = Number(process.env.RUNS ?? 100_000);
const strategyRuns = Math.floor(total / 10);

/** Every row of the store: [run_id, entry, status, result, created_at, kept_in, outcome] and its journal lines. */
function* rows(): Generator<{ run: unknown[]; journal: string[] }> {
  const step = (id: number) => ({ id, task: `step ${id}`, tool: "fetch", args: { source: `s${id}` }, depends_on: [] });
  for (let index = 0; index < total; index++) {
    const runId = `run-${String(index).padStart(6, "0")}`;
    const strategy = index % 10 === 0;
    const failed = index % 7 === 0;
    const usage = { modelCalls: 3 + (index % 5), inputTokens: 900, outputTokens: 120, costUsd: 0.002, toolCalls: 4 };
    const status = failed ? "failed" : "completed";
    const result = { status, runId, taskType: `type-${index % 4}`, usage, output: `the answer of ${runId}` };
    const outcome = { status, taskType: result.taskType, usage };
    const plan = { kind: "plan", version: 1, plan: { steps: [1, 2, 3, 4].map(step) } };
    const ends = [1, 2, 3, 4].flatMap((id) => [
      { kind: "step-start", stepKey: String(id), attempt: 1, idempotencyKey: `${runId}/${id}` },
      { kind: "step-end", stepKey: String(id), record: { status: "succeeded", output: `data ${id}`, attempts: 1 } },
    ]);
    const lines = [plan, ...ends].map((entry) => JSON.stringify(entry));
    const at = 1_700_000_000_000 + index * 1000;
    if (!strategy) {
      yield { run: [runId, "executePlan", "finished", JSON.stringify(result), at, null, JSON.stringify(outcome)], journal: lines };
      continue;
    }
    const text = JSON.stringify({ kind: "text", call: "plan:abc:1", text: JSON.stringify(plan.plan) });
    yield { run: [runId, "planAndExecute", "finished", JSON.stringify(result), at, null, JSON.stringify(outcome)], journal: [text] };
    const inner = `${runId}/plan:1`;
    yield {
      run: [inner, "executePlan", "finished", JSON.stringify({ ...result, runId: inner }), at + 1, runId, JSON.stringify(outcome)],
      journal: lines,
    };
  }
}

function fillSqlite(path: string): void {
  sqliteStore({ path }).close(); // creates and migrates the file
  const db = new Database(path);
  const run = db.prepare(
    "INSERT INTO planloop_runs (run_id, entry, status, result, created_at, updated_at, kept_in, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const line = db.prepare("INSERT INTO planloop_journal (run_id, seq, entry) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const { run: values, journal } of rows()) {
      run.run(values[0], values[1], values[2], values[3], values[4], values[4], values[5], values[6]);
      journal.forEach((text, index) => line.run(values[0], index + 1, text));
    }
  })();
  db.close();
}

/** A database of the bench's own on the server, made anew: the server's others are left alone. */
async function benchDatabase(server: string): Promise<string> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query("DROP DATABASE IF EXISTS planloop_bench_runs");
  await client.query("CREATE DATABASE planloop_bench_runs");
  await client.end();
  const url = new URL(server);
  url.pathname = "/planloop_bench_runs";
  return url.toString();
}

async function fillPostgres(url: string): Promise<void> {
  const store = postgresStore({ connectionString: url });
  await store.listRuns({ limit: 1 }); // creates and migrates the tables
  await store.close();
  const writer = new pg.Client({ connectionString: url });
  await writer.connect();
  let batch: Array<{ run: unknown[]; journal: string[] }> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const columns = [0, 1, 2, 3, 4, 5, 6].map((column) => batch.map((row) => row.run[column]));
    await writer.query(
      `INSERT INTO planloop_runs (run_id, entry, status, result, created_at, updated_at, kept_in, outcome)
       SELECT a, b, c, d, e, e, f, g FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::text[]) AS t(a, b, c, d, e, f, g)`,
      columns,
    );
    const ids = batch.flatMap((row) => row.journal.map(() => row.run[0]));
    await writer.query("INSERT INTO planloop_journal (run_id, entry) SELECT * FROM unnest($1::text[], $2::text[])", [
      ids,
      batch.flatMap((row) => row.journal),
    ]);
    batch = [];
  };
  for (const row of rows()) {
    batch.push(row);
    if (batch.length === 2_000) await flush();
  }
  await flush();
  await writer.query("ANALYZE");
  await writer.end();
}

function measure(store: string): void {
  const middle = `run-${String(Math.floor(total / 2)).padStart(6, "0")}`;
  const commands: Array<[string, string[]]> = [
    ["runs list", ["runs", "list", "--store", store]],
    ["runs list --status failed", ["runs", "list", "--status", "failed", "--limit", "50", "--store", store]],
    ["runs list --before (page 2)", ["runs", "list", "--before", middle, "--store", store]],
    ["runs show", ["runs", "show", middle, "--store", store]],
    ["runs stats", ["runs", "stats", "--store", store]],
  ];
  for (const [name, args] of commands) {
    const samples = [0, 1, 2].map(() => timedRun(args));
    const median = samples.sort((a, b) => a.seconds - b.seconds)[1]!;
    console.log(`  ${name.padEnd(30)} ${median.seconds.toFixed(2)} s  ${median.mb.toFixed(0)} MB  (${median.lines} lines; median of 3)`);
  }
}

/** One `planloop` command in a process of its own: seconds and peak resident memory (MB), by /usr/bin/time. */
function timedRun(args: string[]): { seconds: number; mb: number; lines: number } {
  const result = spawnTimed(args);
  const [seconds, kb] = result.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return { seconds: seconds!, mb: kb! / 1024, lines: result.stdout.split("\n").filter(Boolean).length };
}

function spawnTimed(args: string[]): { stdout: string; stderr: string } {
  const child = spawnSync("/usr/bin/time", ["-f", "%e %M", process.execPath, "dist/cli/main.js", ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`planloop ${args.join(" ")} failed: ${child.stderr}`);
  return { stdout: child.stdout, stderr: child.stderr };
}

console.log(
  `${total.toLocaleString("en-US")} top-level runs (${strategyRuns.toLocaleString("en-US")} of them with a plan run inside); load ${loadAverage()}`,
);
const path = join(mkdtempSync(join(tmpdir(), "planloop-runs-")), "runs.sqlite");
let started = Date.now();
fillSqlite(path);
console.log(`SQLite (${((Date.now() - started) / 1000).toFixed(1)} s to write):`);
measure(`sqlite:${path}`);
const url = process.env.PLANLOOP_POSTGRES_URL;
if (url === undefined) console.log('Postgres: skipped (set PLANLOOP_POSTGRES_URL: eval "$(scripts/services.sh start)")');
else {
  const database = await benchDatabase(url);
  started = Date.now();
  await fillPostgres(database);
  console.log(`Postgres (${((Date.now() - started) / 1000).toFixed(1)} s to write):`);
  measure(database);
}
console.log(`load ${loadAverage()}`);

function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

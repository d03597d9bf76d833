// The crash test of durable runs: a child process runs a 34-step plan against a real store and
// is killed with SIGKILL at random moments, then started again with the same run id until the
// run completes. Nothing that finished runs again; what was cut short runs again with its key.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executePlan, memoryStore, type CheckpointStore } from "planloop";
import { postgresStore } from "planloop/postgres";
import { sqliteStore } from "planloop/sqlite";
import { agentModel, crashPlan, lookup, work } from "../fixtures/crash-run.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { repoRoot } from "../helpers/paths.js";

const root = repoRoot;
const script = join(root, "test", "fixtures", "crash-run.ts");

/** A place the child processes share, as its --store flag, and a way for the test to read it. */
type Backend = { flag: string; open(): CheckpointStore };

async function crashAndResume(backend: Backend, seed: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "planloop-crash-"));
  const log = join(dir, "calls.log");
  writeFileSync(log, "");
  const start = () => spawn(process.execPath, ["--import", "tsx", script, backend.flag, log, "crashing"], { cwd: root });
  const exit = (child: ReturnType<typeof start>) => new Promise<number | null>((resolve) => child.on("close", resolve));
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31), state / 2 ** 31);
  let kills = 0;
  let finished = false;
  for (let round = 0; round < 40 && !finished; round += 1) {
    const child = start();
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const before = readFileSync(log, "utf8").length;
    if (kills < 5) {
      // Kill it once it has started some work: after a random number of new calls.
      const wanted = 1 + Math.floor(random() * 12);
      const timer = setInterval(() => {
        const lines = readFileSync(log, "utf8").slice(before).split("\n").filter(Boolean).length;
        if (lines >= wanted && child.exitCode === null) child.kill("SIGKILL");
      }, 5);
      await exit(child);
      clearInterval(timer);
      if (child.signalCode === "SIGKILL") kills += 1;
      else finished = JSON.parse(output.trim() || "{}").status === "completed";
    } else {
      expect(await exit(child), errors).toBe(0);
      finished = JSON.parse(output).status === "completed";
    }
  }
  expect(kills).toBeGreaterThanOrEqual(5);
  expect(finished).toBe(true);

  const store = backend.open();
  const run = (await store.getRun("crashing"))!;
  await store.close();
  expect(run.status).toBe("finished");
  const steps = crashPlan().steps.map((step) => step.id);
  const ends = run.journal.filter((entry) => entry.kind === "step-end" && (entry.record as { status: string }).status === "succeeded");
  for (const id of steps) expect(ends.filter((entry) => entry.kind === "step-end" && entry.stepKey === id).length, id).toBe(1);
  const calls = readFileSync(log, "utf8").trim().split("\n");
  for (const id of steps.filter((step) => step !== "agent")) {
    const mine = calls.filter((line) => line.split("/")[1] === id);
    expect(mine.length, id).toBeGreaterThanOrEqual(1);
    expect(new Set(mine).size, id).toBe(1); // the same key every time
    // One call more only for each kill that cut a call of this step short: every call but
    // the last started and never ended. A start is committed before its call, so there is a
    // start for every call (and, with a store across a network, maybe one more: the process
    // died between the commit and the call).
    const journal = run.journal.filter((entry) => (entry.kind === "step-start" || entry.kind === "step-end") && entry.stepKey === id);
    expect(journal.filter((entry) => entry.kind === "step-start").length, id).toBeGreaterThanOrEqual(mine.length);
    expect(journal.filter((entry) => entry.kind === "step-end").length, id).toBe(1);
    expect(journal.at(-1)?.kind, id).toBe("step-end");
    expect(mine.length - 1, id).toBeLessThanOrEqual(kills);
  }

  // The agent step's loop is a run of its own: its tool call has a key of its own, the same every time.
  const lookups = calls.filter((line) => line.split("/")[1] === "lookup");
  expect(new Set(lookups)).toEqual(new Set(["crashing/lookup/crashing/agent/call:0:0"]));
  expect(lookups.length - 1).toBeLessThanOrEqual(kills);

  const uninterrupted = await executePlan({
    plan: crashPlan(),
    tools: [work(join(dir, "clean.log"), "clean"), lookup(join(dir, "clean.log"), "clean")],
    model: agentModel,
    store: memoryStore(),
  });
  expect((run.result as { output: unknown }).output).toEqual(uninterrupted.output);
}

describe("a durable plan run survives SIGKILL at random moments: every step succeeds once, runs again only after a kill that cut it short, always with the same key", () => {
  it.each([7, 1_234])(
    "on SQLite (seed %i)",
    async (seed) => {
      const path = join(mkdtempSync(join(tmpdir(), "planloop-crash-")), "runs.sqlite");
      await crashAndResume({ flag: `sqlite:${path}`, open: () => sqliteStore({ path }) }, seed);
    },
    120_000,
  );

  it.skipIf(skipPostgres).each([7, 1_234])(
    "on PostgreSQL (seed %i)",
    async (seed) => {
      const connectionString = await freshDatabase();
      await crashAndResume({ flag: connectionString, open: () => postgresStore({ connectionString }) }, seed);
    },
    120_000,
  );
});

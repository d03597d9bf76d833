// A wake pass on a store that batches writes (SQLite) takes each due run's lease with a read of
// it, in one transaction, and the run opens from that read: these watch that the run is still
// its lease's alone, read once, and read as its protected store reads it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, wakeDueRuns, type CheckpointStore, type PlanInput } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { FakeClock } from "planloop/testing";

const monday = Date.parse("2026-12-07T08:00:00Z");
const hour = 3_600_000;

function recorder() {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: "send",
    description: "sends",
    input: z.object({ apiKey: z.string().optional(), text: z.string() }),
    execute: (args) => (seen.push(args), "sent"),
  });
  return { tool, seen };
}

const plan = (args: Record<string, unknown>): PlanInput => ({
  steps: [
    { id: 1, task: "an hour", wait: { forMs: hour } },
    { id: 2, task: "send", tool: "send", args: { ...args, text: "$1.wokeAt" }, depends_on: [1] },
  ],
});

/** The store, with a count of the calls a wake pass makes of it by name. */
function counting(store: CheckpointStore): { store: CheckpointStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const counted = Object.create(store) as CheckpointStore;
  for (const name of ["createRun", "getRun", "acquireLease"] as const) {
    const own = store[name].bind(store) as (...args: unknown[]) => unknown;
    (counted as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return own(...args);
    };
  }
  return { store: counted, calls };
}

describe("a wake pass on a store that batches writes", () => {
  it("opens each due run from the read taken with its lease: one lease, one read, no create, each run continued once", async () => {
    const sqlite = sqliteStore({ path: ":memory:" });
    const clock = new FakeClock(monday);
    const send = recorder();
    for (const runId of ["a", "b", "c"]) await executePlan({ plan: plan({}), tools: [send.tool], store: sqlite, runId, clock });
    await clock.advance(hour);
    const { store, calls } = counting(sqlite);
    const woken = await wakeDueRuns({ store, tools: [send.tool], clock });
    expect(woken.woken.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);
    expect(send.seen).toHaveLength(3);
    expect(calls.get("createRun") ?? 0).toBe(0);
    expect(calls.get("acquireLease")).toBe(3);
    // Each run read once to find it due (its row) and once, under its lease, to continue it.
    expect(calls.get("getRun")).toBe(3);
    // Each run gave its lease up as it finished: another owner takes it at once.
    expect(await sqlite.acquireLease("a", { owner: "someone else", ttlMs: 30_000, at: Date.now() })).toMatchObject({ kind: "acquired" });
    await sqlite.close();
  });

  it("leaves a due run another process holds to it: reported busy, nothing run, its lease still that process's", async () => {
    const store = sqliteStore({ path: ":memory:" });
    const clock = new FakeClock(monday);
    const send = recorder();
    await executePlan({ plan: plan({}), tools: [send.tool], store, runId: "held", clock });
    await clock.advance(hour);
    const other = await store.acquireLease("held", { owner: "another host:1", ttlMs: 60_000, at: Date.now() });
    expect(other.kind).toBe("acquired");
    expect(await wakeDueRuns({ store, tools: [send.tool], clock })).toEqual({ woken: [], busy: ["held"], failed: [] });
    expect(send.seen).toEqual([]);
    expect(await store.acquireLease("held", { owner: "a third host:1", ttlMs: 60_000, at: Date.now() })).toMatchObject({
      kind: "held",
      owner: "another host:1",
    });
    expect((await store.getRun("held"))!.status).toBe("running");
    await store.close();
  });

  it("reads the run as its protected store does: a sealed secret argument reaches the tool opened, a changed entry is refused", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-wake-read-")), "runs.sqlite");
    const store = sqliteStore({ path });
    const clock = new FakeClock(monday);
    const send = recorder();
    const stateSecret = "a state secret of at least thirty-two characters";
    for (const runId of ["kept", "changed"])
      await executePlan({ plan: plan({ apiKey: "sk-live-1234" }), tools: [send.tool], store, runId, clock, stateSecret });
    expect(JSON.stringify((await store.getRun("kept"))!.journal)).not.toContain("sk-live-1234");
    // Another writer changes a signed entry of one run (its plan's task), by hand.
    const other = new Database(path);
    const changes = other
      .prepare('UPDATE planloop_journal SET entry = replace(entry, \'"task":"send"\', \'"task":"sent"\') WHERE run_id = ? AND seq = 1')
      .run("changed").changes;
    other.close();
    expect(changes).toBe(1);
    await clock.advance(hour);
    const woken = await wakeDueRuns({ store, tools: [send.tool], clock, planOptions: { stateSecret } });
    expect(woken.woken).toEqual([{ runId: "kept", status: "completed" }]);
    expect(send.seen).toEqual([{ apiKey: "sk-live-1234", text: "2026-12-07T09:00:00.000Z" }]);
    expect(woken.failed).toEqual([{ runId: "changed", error: expect.stringMatching(/does not match its signature/) }]);
    // The refused run's lease was given up: the next pass may try it again.
    expect(await store.acquireLease("changed", { owner: "someone else", ttlMs: 30_000, at: Date.now() })).toMatchObject({
      kind: "acquired",
    });
    await store.close();
  });
});

import type { CheckpointStore, JournalEntry } from "../journal/checkpoint-store.js";
import type { ConformanceFramework } from "./conformance-framework.js";

/**
 * The contract of a store's events and due runs (`CheckpointStore.events`, `dueRuns`), part of
 * `storeConformance`. A store that keeps neither passes it trivially: it cannot hold runs that
 * wait for a time or an event, and planloop says so when one tries.
 */
export function waitConformance(open: () => CheckpointStore | Promise<CheckpointStore>, framework: ConformanceFramework): void {
  const { it, expect } = framework;
  const pause = (wake: NonNullable<Extract<JournalEntry, { kind: "paused" }>["wake"]>): JournalEntry => ({
    kind: "paused",
    state: { status: "waiting" },
    status: "waiting",
    wake,
  });

  it("numbers events in order, keeps an id once, reads them by name, target and expiry, and lets one run take each", async () => {
    const store = await open();
    const log = store.events;
    if (log === undefined) return void (await store.close());
    expect(await log.lastSeq()).toBe(0);
    const first = await log.put({ id: "e1", name: "ready", data: { n: 1 }, at: 100, expiresAt: 1_000 });
    const again = await log.put({ id: "e1", name: "ready", data: { n: 9 }, at: 101, expiresAt: 1_000 });
    const targeted = await log.put({ id: "e2", name: "ready", data: { n: 2 }, runId: "run-a", at: 102, expiresAt: 1_000 });
    const short = await log.put({ id: "e3", name: "ready", data: { n: 3 }, at: 103, expiresAt: 200 });
    await log.put({ id: "e4", name: "other", data: null, at: 104, expiresAt: 1_000 });
    expect(again).toEqual({ seq: first.seq, duplicate: true });
    expect(targeted.seq > first.seq && short.seq > targeted.seq).toBe(true);
    expect(await log.lastSeq()).toBe(short.seq + 1);
    const seen = async (runId: string, at: number, afterSeq = 0) =>
      ((await log.read({ name: "ready", runId, afterSeq, at })) as Array<{ data: { n: number } }>).map((event) => event.data.n);
    expect(await seen("run-b", 150)).toEqual([1, 3]);
    expect(await seen("run-a/inner", 150)).toEqual([1, 2, 3]);
    expect(await seen("run-ab", 150)).toEqual([1, 3]);
    expect(await seen("run-a", 300)).toEqual([1, 2]);
    expect(await seen("run-a", 300, first.seq)).toEqual([2]);
    expect(await log.read({ name: "ready", runId: "run-a", afterSeq: 0, upTo: first.seq, at: 150 })).toMatchObject([
      { id: "e1", data: { n: 1 } },
    ]);
    expect(await log.take(first.seq, "run-a", 150)).toBe(true);
    expect(await log.take(first.seq, "run-b", 151)).toBe(false);
    await store.close();
  });

  it("keys an event by its name, id and target run: the same id under another name or to another run is another event", async () => {
    const store = await open();
    const log = store.events;
    if (log === undefined) return void (await store.close());
    const event = (name: string, runId?: string) => ({
      id: "42",
      name,
      data: { name, runId },
      ...(runId ? { runId } : {}),
      at: 1,
      expiresAt: 1_000,
    });
    const paid = await log.put(event("invoice-paid"));
    const ready = await log.put(event("export-ready"));
    const toA = await log.put(event("export-ready", "run-a"));
    const toB = await log.put(event("export-ready", "run-b"));
    expect([paid, ready, toA, toB].map((kept) => kept.duplicate)).toEqual([false, false, false, false]);
    expect(new Set([paid.seq, ready.seq, toA.seq, toB.seq]).size).toBe(4);
    expect(await log.put(event("invoice-paid"))).toEqual({ seq: paid.seq, duplicate: true });
    expect(await log.put(event("export-ready", "run-b"))).toEqual({ seq: toB.seq, duplicate: true });
    expect(await log.put(event("export-ready"))).toEqual({ seq: ready.seq, duplicate: true });
    const seen = async (name: string, runId: string) =>
      ((await log.read({ name, runId, afterSeq: 0, at: 2 })) as Array<{ seq: number }>).map((kept) => kept.seq);
    expect(await seen("invoice-paid", "run-a")).toEqual([paid.seq]);
    expect(await seen("export-ready", "run-a")).toEqual([ready.seq, toA.seq]);
    expect(await seen("export-ready", "run-b")).toEqual([ready.seq, toB.seq]);
    await store.close();
  });

  it("lists the runs due to wake: a timer whose time came, an event sent after the run's place; not once they run on", async () => {
    const store = await open();
    if (store.events === undefined || store.dueRuns === undefined) return void (await store.close());
    for (const runId of ["timer", "event", "later", "other"]) await store.createRun({ runId, entry: "executePlan", at: 1 });
    await store.append("timer", [pause({ at: 500 })], 2);
    await store.append("later", [pause({ at: 5_000 })], 2);
    const before = await store.events.put({ id: "old", name: "ready", data: null, at: 3, expiresAt: 10_000 });
    await store.append("event", [pause({ events: [{ name: "ready", afterSeq: before.seq }] })], 4);
    await store.append("other", [pause({ events: [{ name: "ready", afterSeq: before.seq }] })], 4);
    expect(await store.dueRuns({ at: 400, limit: 10 })).toEqual([]);
    expect(await store.dueRuns({ at: 600, limit: 10 })).toEqual(["timer"]);
    await store.events.put({ id: "new", name: "ready", data: null, runId: "event", at: 700, expiresAt: 10_000 });
    expect(await store.dueRuns({ at: 800, limit: 10 })).toEqual(["timer", "event"]);
    expect(await store.dueRuns({ at: 800, limit: 1 })).toEqual(["timer"]);
    // A run that runs on (any entry after its pause) or finishes is no longer due.
    await store.append("timer", [{ kind: "step-start", stepKey: "1", attempt: 1, idempotencyKey: "timer/1" }], 900);
    await store.finishRun("event", { status: "completed" }, 901);
    expect(await store.dueRuns({ at: 10_000, limit: 10 })).toEqual(["later"]);
    await store.close();
  });
}

// The SQLite change feed's poller on a fake clock: when it looks, what one look tells, that it
// stops when nobody listens. "Another process" is a second store on the same file.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckpointStore } from "../../journal/checkpoint-store.js";
import { FakeClock } from "../../testing/fake-clock.js";
import { sqliteStore } from "./index.js";

const stores: CheckpointStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function pair() {
  const path = join(mkdtempSync(join(tmpdir(), "planloop-feed-clock-")), "runs.sqlite");
  const clock = new FakeClock(0);
  const watched = sqliteStore({ path, feedMs: 100, feedClock: clock });
  const writer = sqliteStore({ path });
  stores.push(watched, writer);
  const told: Array<readonly string[] | "any"> = [];
  const write = async (runId: string) => {
    if ((await writer.createRun({ runId, entry: "executePlan", at: 1 })) === "exists")
      await writer.append(runId, [{ kind: "plan", version: 1, plan: { steps: [] } }], 2);
  };
  return { clock, watched, write, told, listen: () => watched.watchRuns!((runIds) => told.push(runIds)) };
}

describe("the SQLite change feed's poller (fake clock)", () => {
  it("looks every feedMs: a write is told at the next look, not before; runs written between two looks come in one", async () => {
    const { clock, write, told, listen } = pair();
    await write("a");
    await write("b");
    listen();
    // Written before anyone listened: not told.
    await clock.advance(100);
    expect(told).toEqual([]);
    await write("a");
    await clock.advance(99);
    expect(told).toEqual([]);
    await clock.advance(1);
    expect(told).toEqual([["a"]]);
    await write("b");
    await write("a");
    await write("a/plan:1");
    await clock.advance(100);
    // One look: each run once, by its top-level id, in the order last written.
    expect(told).toEqual([["a"], ["b", "a"]]);
    // Nothing written: looks tell nothing.
    await clock.advance(1_000);
    expect(told).toHaveLength(2);
  });

  it("is one poller however many listen, and stops when the last one leaves", async () => {
    const { clock, write, told, listen } = pair();
    await write("a");
    const stops = [listen(), listen(), listen()];
    expect(clock.pendingTimers).toBe(1);
    await write("a");
    await clock.advance(100);
    expect(told).toEqual([["a"], ["a"], ["a"]]);
    stops[0]!();
    stops[1]!();
    expect(clock.pendingTimers).toBe(1);
    stops[2]!();
    expect(clock.pendingTimers).toBe(0);
    await write("a");
    await clock.advance(1_000);
    expect(told).toHaveLength(3);
    // Listening again starts from now: what was written meanwhile is not told.
    listen();
    await clock.advance(100);
    expect(told).toHaveLength(3);
    await write("a");
    await clock.advance(100);
    expect(told).toEqual([["a"], ["a"], ["a"], ["a"]]);
  });

  it("stops looking when the store closes", async () => {
    const { clock, watched, listen } = pair();
    listen();
    expect(clock.pendingTimers).toBe(1);
    await watched.close();
    expect(clock.pendingTimers).toBe(0);
  });
});

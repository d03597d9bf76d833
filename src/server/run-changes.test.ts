import { describe, expect, it } from "vitest";
import type { CheckpointStore, RunChangeListener } from "../journal/checkpoint-store.js";
import { memoryStore } from "../journal/memory-store.js";
import { RunChanges } from "./run-changes.js";

/** A memory store with a change feed the test drives. */
function fedStore() {
  let listener: RunChangeListener = () => {};
  const store: CheckpointStore = {
    ...memoryStore(),
    watchRuns: (heard) => {
      listener = heard;
      return () => {};
    },
  };
  return { store, feed: (runIds: readonly string[] | "any") => listener(runIds) };
}

describe("a stream's note of its kept runs' changes (RunChanges.keptChanges)", () => {
  it("is set at first, by this process's writes to a run kept inside, by the feed's news and at close; not by the run's own writes", async () => {
    const { store, feed } = fedStore();
    const changes = new RunChanges(store);
    const note = changes.keptChanges("top");
    const other = changes.keptChanges("other");
    const woken = changes.next("top", undefined); // starts the feed
    expect(note.take()).toBe(true);
    expect(note.take()).toBe(false);
    changes.changed("top");
    changes.changed("top", { type: "step-start", stepId: 1 } as never);
    expect(note.take()).toBe(false);
    changes.changed("top/plan:1");
    expect(note.take()).toBe(true);
    changes.changed("top/plan:1/2");
    changes.changed("top/plan:1/2");
    expect(note.take()).toBe(true);
    expect(note.take()).toBe(false);
    // Another run's kept run is not this one's.
    other.take();
    changes.changed("toplike/x");
    changes.changed("other/x");
    expect(note.take()).toBe(false);
    expect(other.take()).toBe(true);
    // The feed names top runs only: any of its news may be a kept run's.
    feed(["top"]);
    expect(note.take()).toBe(true);
    expect(other.take()).toBe(false);
    feed("any");
    expect([note.take(), other.take()]).toEqual([true, true]);
    await woken;
    changes.close();
    expect(note.take()).toBe(true);
  });

  it("forgets a note once stopped: the run's writes set no note of a closed stream", () => {
    const { store } = fedStore();
    const changes = new RunChanges(store);
    const first = changes.keptChanges("top");
    const second = changes.keptChanges("top");
    first.take();
    second.take();
    first.stop();
    changes.changed("top/x");
    expect([first.take(), second.take()]).toEqual([false, true]);
    second.stop();
    expect((changes as unknown as { keptNotes: Map<string, unknown> }).keptNotes.size).toBe(0);
  });
});

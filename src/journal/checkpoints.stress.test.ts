// A commit far wider than any spread into push() can take (npm run test:stress: input this
// large takes what the machine gives it, so it is kept out of npm test's timings).
import { describe, expect, it } from "vitest";
import { memoryStore } from "./memory-store.js";
import { type JournalEntry } from "./checkpoint-store.js";

describe("memoryStore", () => {
  it("takes a commit of three hundred thousand entries", async () => {
    const store = memoryStore();
    await store.createRun({ runId: "wide", entry: "plan", at: 0 });
    const entries: JournalEntry[] = Array.from({ length: 300_000 }, (_, index) => ({
      kind: "step-start",
      stepKey: String(index),
      attempt: 1,
      idempotencyKey: `wide/${index}`,
    }));
    await store.append("wide", entries, 1);
    const run = await store.getRun("wide");
    expect(run?.journal).toHaveLength(300_000);
    expect(run?.journal.at(-1)).toEqual(entries.at(-1));
  });
});

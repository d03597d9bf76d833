// What the SQLite change feed costs a write: the same appends (one entry, one commit each) into a
// store someone follows (watchRuns: its trigger numbers each written run) and into one nobody
// follows, alternated, medians of 8 rounds.
//
//   node --import tsx bench/sqlite-feed-cost.bench.ts [appends per round, 3000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JournalEntry } from "../src/journal/checkpoint-store.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";

const appends = Number(process.argv[2] ?? 3000);
const dir = mkdtempSync(join(tmpdir(), "planloop-feed-cost-"));

/** µs per append into a fresh store, followed or not. */
async function perAppend(followed: boolean, round: number): Promise<number> {
  const path = join(dir, `${followed ? "followed" : "bare"}-${round}.sqlite`);
  const store = sqliteStore({ path });
  const stop = followed ? store.watchRuns!(() => {}) : undefined;
  const runs = Array.from({ length: 20 }, (_, index) => `run-${index}`);
  for (const runId of runs) await store.createRun({ runId, entry: "executePlan", at: 1 });
  const started = performance.now();
  for (let index = 0; index < appends; index += 1) {
    const entry = { kind: "step-start", stepId: String(index), at: index } as unknown as JournalEntry;
    await store.append(runs[index % runs.length]!, [entry], index);
  }
  const micros = ((performance.now() - started) * 1000) / appends;
  stop?.();
  await store.close();
  return micros;
}

const fed: number[] = [];
const bare: number[] = [];
for (let round = 0; round < 8; round += 1) {
  fed.push(await perAppend(true, round));
  bare.push(await perAppend(false, round));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(
  `SQLite append, median µs: a store followed (change feed) ${median(fed).toFixed(1)}, not followed ${median(bare).toFixed(1)} ` +
    `(+${(median(fed) - median(bare)).toFixed(1)})`,
);
rmSync(dir, { recursive: true, force: true });

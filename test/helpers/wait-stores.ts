// The stores the waits tests run on, each opened anew per test: memory, and SQLite in memory.
import { memoryStore, type CheckpointStore } from "planloop";
import { sqliteStore } from "planloop/sqlite";

export const waitStores: Array<[string, () => CheckpointStore]> = [
  ["memory", () => memoryStore()],
  ["sqlite", () => sqliteStore({ path: ":memory:" })],
];

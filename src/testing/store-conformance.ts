import type { CheckpointStore, JournalEntry } from "../journal/checkpoint-store.js";
import { waitConformance } from "./wait-conformance.js";
import type { ConformanceFramework, ConformanceMatchers } from "./conformance-framework.js";

export type { ConformanceFramework, ConformanceMatchers };

/**
 * The contract every `CheckpointStore` keeps, as tests: runs and their journals, listings and
 * outcomes, values, leases and their fencing tokens, ids named like object machinery. planloop's
 * memory, SQLite and Postgres stores pass it; run it against your own store with your test
 * framework. `open` gives a fresh, empty store each time (each check closes the one it opened).
 *
 * @example
 * import { describe, expect, it } from "vitest";
 * import { storeConformance } from "planloop/testing";
 * storeConformance("my store", () => myStore({ url: process.env.STORE_URL }), { describe, it, expect });
 */
export function storeConformance(
  name: string,
  open: () => CheckpointStore | Promise<CheckpointStore>,
  framework: ConformanceFramework,
): void {
  const { describe, it, expect } = framework;
  describe(`${name}: the CheckpointStore contract`, () => {
    const entries: JournalEntry[] = [
      { kind: "plan", version: 1, plan: { steps: [{ id: 1, task: "a", depends_on: [] }] } },
      { kind: "step-start", stepKey: "1", attempt: 1, idempotencyKey: "run-1/1/1" },
      { kind: "step-end", stepKey: "1", record: { status: "succeeded", output: { rows: [1, 2] }, attempts: 1 } },
    ];

    it("creates a run once; a second create says it exists and changes nothing", async () => {
      const store = await open();
      expect(await store.createRun({ runId: "run-1", entry: "executePlan", at: 10 })).toBe("created");
      await store.append("run-1", entries.slice(0, 1), 11);
      expect(await store.createRun({ runId: "run-1", entry: "runAgent", at: 20 })).toBe("exists");
      expect(await store.getRun("run-1")).toMatchObject({
        runId: "run-1",
        entry: "executePlan",
        status: "running",
        createdAt: 10,
        journal: entries.slice(0, 1),
      });
      expect(await store.getRun("nope")).toBeUndefined();
      await store.close();
    });

    it("keeps entries in the order they were appended, as copies", async () => {
      const store = await open();
      await store.createRun({ runId: "run-2", entry: "executePlan", at: 1 });
      const mutable = JSON.parse(JSON.stringify(entries)) as JournalEntry[];
      await store.append("run-2", mutable.slice(0, 2), 2);
      await store.append("run-2", mutable.slice(2), 3);
      (mutable[0] as { version: number }).version = 99;
      const run = await store.getRun("run-2");
      expect(run?.journal).toEqual(entries);
      expect(run?.updatedAt).toBe(3);
      await store.close();
    });

    it("reads a run's entries after the first ones a reader holds (getRunFrom), where the store offers it", async () => {
      const store = await open();
      if (store.getRunFrom === undefined) return void (await store.close());
      await store.createRun({ runId: "run-from", entry: "executePlan", at: 1 });
      await store.append("run-from", entries.slice(0, 1), 2);
      await store.append("run-from", entries.slice(1), 3);
      const { journal: _, ...row } = (await store.getRun("run-from"))!;
      for (let from = 0; from <= entries.length + 1; from += 1)
        expect(await store.getRunFrom("run-from", from)).toEqual({ ...row, journal: entries.slice(from) });
      await store.finishRun("run-from", { status: "completed" }, 4);
      expect(await store.getRunFrom("run-from", entries.length)).toMatchObject({
        status: "finished",
        result: { status: "completed" },
        journal: [],
      });
      expect(await store.getRunFrom("nope", 0)).toBeUndefined();
      await store.close();
    });

    it("finishes a run with its result; a finished or unknown run takes no entries", async () => {
      const store = await open();
      await store.createRun({ runId: "run-3", entry: "planAndExecute", at: 1 });
      await store.finishRun("run-3", { status: "completed", output: "done" }, 5);
      expect(await store.getRun("run-3")).toMatchObject({
        status: "finished",
        result: { status: "completed", output: "done" },
        updatedAt: 5,
      });
      await expect(async () => store.append("run-3", entries, 6)).rejects.toThrow(/has finished/);
      await expect(async () => store.finishRun("run-3", {}, 6)).rejects.toThrow(/has finished/);
      await expect(async () => store.append("ghost", entries, 6)).rejects.toThrow(/no run "ghost"/);
      await store.close();
    });

    it("lists runs newest first, with how many entries each has", async () => {
      const store = await open();
      for (const [index, runId] of ["a", "b", "c"].entries()) await store.createRun({ runId, entry: "runAgent", at: index });
      await store.append("b", entries, 5);
      const listed = await store.listRuns();
      expect(listed.map((run) => [run.runId, run.entries])).toEqual([
        ["c", 0],
        ["b", 3],
        ["a", 0],
      ]);
      expect((await store.listRuns({ limit: 1 })).map((run) => run.runId)).toEqual(["c"]);
      await store.close();
    });

    it("lists a page of runs by filter: top-level, kept inside a run, by status and task type, before a run", async () => {
      const store = await open();
      const usage = { modelCalls: 2, costUsd: 0.5 };
      const ids = ["s1", "s1/plan:1", "s1/plan:1/step", "s2", "s2/agent", "s3", "x/y", "s10"];
      for (const [index, runId] of ids.entries()) await store.createRun({ runId, entry: "planAndExecute", at: index });
      await store.finishRun("s1", { status: "completed", taskType: "report", usage }, 20);
      await store.append("s2", [{ kind: "paused", state: { usage }, status: "waiting" }], 21);
      await store.append("s3", [{ kind: "paused", state: { usage }, status: "paused" }], 22);
      const ids_ = (rows: Array<{ runId: string }>) => rows.map((row) => row.runId);
      // "x/y" is kept in no run (there is no run "x"); "s10" is not inside "s1".
      expect(ids_(await store.listRuns({ topLevel: true }))).toEqual(["s10", "x/y", "s3", "s2", "s1"]);
      expect(ids_(await store.listRuns({ within: "s1" }))).toEqual(["s1/plan:1/step", "s1/plan:1"]);
      expect(ids_(await store.listRuns({ within: "s1/plan:1" }))).toEqual(["s1/plan:1/step"]);
      expect(ids_(await store.listRuns({ runId: "s1" }))).toEqual(["s1"]);
      expect(ids_(await store.listRuns({ runId: "s1", status: "waiting" }))).toEqual([]);
      expect(ids_(await store.listRuns({ runId: "nope" }))).toEqual([]);
      const listed = await store.listRuns({ within: "s1" });
      expect(listed.map((row) => row.keptIn)).toEqual(["s1/plan:1", "s1"]);
      expect(ids_(await store.listRuns({ status: "completed" }))).toEqual(["s1"]);
      expect(ids_(await store.listRuns({ status: "waiting" }))).toEqual(["s2"]);
      expect(ids_(await store.listRuns({ status: "paused" }))).toEqual(["s3"]);
      expect(ids_(await store.listRuns({ status: "running", topLevel: true }))).toEqual(["s10", "x/y"]);
      expect(ids_(await store.listRuns({ taskType: "report" }))).toEqual(["s1"]);
      const [first] = await store.listRuns({ status: "completed" });
      expect(first).toMatchObject({ outcome: { status: "completed", taskType: "report", usage } });
      const page = await store.listRuns({ topLevel: true, limit: 2 });
      expect(ids_(page)).toEqual(["s10", "x/y"]);
      expect(ids_(await store.listRuns({ topLevel: true, limit: 2, before: page.at(-1)! }))).toEqual(["s3", "s2"]);
      const outcomes = async (options: { topLevel?: boolean; taskType?: string }) =>
        (await store.runOutcomes(options)).map((row) => [row.runId, row.outcome.status]).sort();
      expect(await outcomes({ topLevel: true })).toEqual([
        ["s1", "completed"],
        ["s2", "waiting"],
        ["s3", "paused"],
      ]);
      expect(await outcomes({ taskType: "report" })).toEqual([["s1", "completed"]]);
      // Running again after a pause: the next entries clear it.
      await store.append("s2", [{ kind: "step-start", stepKey: "1", attempt: 1, idempotencyKey: "k" }], 23);
      expect(ids_(await store.listRuns({ status: "waiting" }))).toEqual([]);
      expect(await outcomes({ topLevel: true })).toEqual([
        ["s1", "completed"],
        ["s3", "paused"],
      ]);
      await store.close();
    });

    it("keeps where a run came from (its origin) as its creator gave it, and lists a schedule's runs by it, never by id", async () => {
      const store = await open();
      const weekly = { schedule: { name: "weekly", fireAt: 1_000 } };
      expect(await store.createRun({ runId: "weekly@1", entry: "executePlan", at: 1, origin: weekly })).toBe("created");
      // Named like a schedule's run, but created without an origin (an old row, a client's name): it has none.
      await store.createRun({ runId: "weekly@2", entry: "executePlan", at: 2 });
      const forked = { forkedFrom: { runId: "weekly@1", step: "1" }, client: "ci" };
      await store.createRun({ runId: "copy", entry: "executePlan", at: 3, origin: forked });
      // A second create changes nothing, its origin included.
      expect(await store.createRun({ runId: "weekly@2", entry: "executePlan", at: 4, origin: weekly })).toBe("exists");
      expect((await store.getRun("weekly@1"))?.origin).toEqual(weekly);
      expect((await store.getRun("copy"))?.origin).toEqual(forked);
      expect((await store.getRun("weekly@2"))?.origin).toBeUndefined();
      const listed = await store.listRuns();
      expect(listed.map((row) => [row.runId, row.origin ?? null])).toEqual([
        ["copy", forked],
        ["weekly@2", null],
        ["weekly@1", weekly],
      ]);
      expect((await store.listRuns({ schedule: "weekly" })).map((row) => row.runId)).toEqual(["weekly@1"]);
      expect(await store.listRuns({ schedule: "monthly" })).toEqual([]);
      // An origin of the wrong shape is refused, and nothing is created.
      await expect(async () =>
        store.createRun({ runId: "bad", entry: "executePlan", at: 5, origin: { schedule: "weekly" } as never }),
      ).rejects.toThrow(/a run's origin is/);
      expect(await store.getRun("bad")).toBeUndefined();
      await store.close();
    });

    it("treats ids and keys named like object machinery as data", async () => {
      const store = await open();
      for (const runId of ["__proto__", "constructor", "toString"]) {
        expect(await store.createRun({ runId, entry: "executePlan", at: 1 })).toBe("created");
        await store.append(runId, [{ kind: "step-end", stepKey: "__proto__", record: { status: "succeeded", attempts: 1 } }], 2);
        expect((await store.getRun(runId))?.journal).toEqual([
          { kind: "step-end", stepKey: "__proto__", record: { status: "succeeded", attempts: 1 } },
        ]);
      }
      await store.close();
    });

    it("keeps values beside the runs, replaced by key", async () => {
      const store = await open();
      expect(await store.getValue("planloop/latencies")).toBeUndefined();
      await store.setValue("planloop/latencies", { kind: "a", n: [1, 2] });
      await store.setValue("planloop/latencies", { kind: "b" });
      await store.setValue("__proto__", 7);
      expect(await store.getValue("planloop/latencies")).toEqual({ kind: "b" });
      expect(await store.getValue("__proto__")).toBe(7);
      await store.close();
    });

    it("updates a value whole: every one of many updates at once is kept (where the store has updateValue)", async () => {
      const store = await open();
      if (store.updateValue === undefined) return void (await store.close());
      const adds = Array.from({ length: 20 }, (_, index) =>
        store.updateValue!("planloop/list", (current) => [...((current as number[] | undefined) ?? []), index]),
      );
      await Promise.all(adds);
      expect(((await store.getValue("planloop/list")) as number[]).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      // An update that throws changes nothing.
      await expect(
        Promise.resolve().then(() =>
          store.updateValue!("planloop/list", () => {
            throw new Error("no");
          }),
        ),
      ).rejects.toThrow("no");
      expect(((await store.getValue("planloop/list")) as number[]).length).toBe(20);
      expect(await store.updateValue("planloop/new", (current) => ({ was: current ?? null }))).toEqual({ was: null });
      await store.close();
    });

    it("leases a run to one owner at a time; a new owner after expiry or release gets a larger token", async () => {
      const store = await open();
      await store.createRun({ runId: "lease-1", entry: "executePlan", at: 1 });
      const first = await store.acquireLease("lease-1", { owner: "A", ttlMs: 100, at: 1_000 });
      expect(first).toMatchObject({ kind: "acquired" });
      const token = (first as { token: number }).token;
      expect(await store.acquireLease("lease-1", { owner: "B", ttlMs: 100, at: 1_050 })).toEqual({
        kind: "held",
        owner: "A",
        expiresAt: 1_100,
      });
      // The owner asking again keeps its token; renewing moves the expiry.
      expect(await store.acquireLease("lease-1", { owner: "A", ttlMs: 100, at: 1_060 })).toEqual({ kind: "acquired", token });
      expect(await store.renewLease("lease-1", { token, ttlMs: 100, at: 1_090 })).toBe(true);
      expect(await store.acquireLease("lease-1", { owner: "B", ttlMs: 100, at: 1_150 })).toEqual({
        kind: "held",
        owner: "A",
        expiresAt: 1_190,
      });
      // Run out: the next owner takes it over, and the old token is dead.
      const second = await store.acquireLease("lease-1", { owner: "B", ttlMs: 100, at: 1_200 });
      expect(second).toEqual({ kind: "acquired", token: token + 1 });
      expect(await store.renewLease("lease-1", { token, ttlMs: 100, at: 1_201 })).toBe(false);
      // Given up: free at once.
      await store.releaseLease("lease-1", token); // stale: changes nothing
      expect(await store.acquireLease("lease-1", { owner: "C", ttlMs: 100, at: 1_210 })).toMatchObject({ kind: "held", owner: "B" });
      await store.releaseLease("lease-1", token + 1);
      expect(await store.acquireLease("lease-1", { owner: "C", ttlMs: 100, at: 1_211 })).toEqual({ kind: "acquired", token: token + 2 });
      await store.close();
    });

    it("takes a live lease from exactly the holder the caller found gone, and from no other", async () => {
      const store = await open();
      await store.createRun({ runId: "lease-gone", entry: "executePlan", at: 1 });
      const first = (await store.acquireLease("lease-gone", { owner: "A", ttlMs: 10_000, at: 1_000 })) as { token: number };
      expect(await store.acquireLease("lease-gone", { owner: "C", ttlMs: 100, at: 1_010, goneOwner: "B" })).toMatchObject({
        kind: "held",
        owner: "A",
      });
      expect(await store.acquireLease("lease-gone", { owner: "C", ttlMs: 100, at: 1_020, goneOwner: "A" })).toEqual({
        kind: "acquired",
        token: first.token + 1,
      });
      // A second caller that found A gone too comes after C took it: C's lease is not A's.
      expect(await store.acquireLease("lease-gone", { owner: "D", ttlMs: 100, at: 1_030, goneOwner: "A" })).toMatchObject({
        kind: "held",
        owner: "C",
      });
      expect(await store.renewLease("lease-gone", { token: first.token, ttlMs: 100, at: 1_040 })).toBe(false);
      await store.close();
    });

    it("refuses writes under a token that is no longer the run's, and writes nothing", async () => {
      const store = await open();
      await store.createRun({ runId: "lease-2", entry: "executePlan", at: 1 });
      const old = (await store.acquireLease("lease-2", { owner: "A", ttlMs: 10, at: 100 })) as { token: number };
      const now = (await store.acquireLease("lease-2", { owner: "B", ttlMs: 10_000, at: 200 })) as { token: number };
      await store.append("lease-2", entries.slice(0, 1), 201, now.token);
      await expect(async () => store.append("lease-2", entries.slice(1), 202, old.token)).rejects.toThrow(/no longer this process's/);
      await expect(async () => store.append("lease-2", [], 202, old.token)).rejects.toThrow(/no longer this process's/);
      await expect(async () => store.finishRun("lease-2", { status: "completed" }, 203, old.token)).rejects.toThrow(
        /no longer this process's/,
      );
      expect(await store.getRun("lease-2")).toMatchObject({ status: "running", journal: entries.slice(0, 1) });
      await store.finishRun("lease-2", { status: "completed" }, 204, now.token);
      expect(await store.getRun("lease-2")).toMatchObject({ status: "finished" });
      // The old owner of a run that was taken over and finished has lost it (a LeaseLostError), not misused the store.
      for (const write of [
        () => store.append("lease-2", entries.slice(1), 205, old.token),
        () => store.finishRun("lease-2", {}, 205, old.token),
      ]) {
        await expect(async () => write()).rejects.toThrow(/"lease-2" is no longer this process's/);
      }
      await expect(async () => store.append("lease-2", entries.slice(1), 205)).rejects.toThrow(/has finished; it takes no more entries/);
      await store.close();
    });

    it("tells its change feed's listeners which top-level run was written to (where the store has watchRuns)", async () => {
      const store = await open();
      if (store.watchRuns === undefined) return void (await store.close());
      const named: string[] = [];
      let heard: () => void = () => {};
      const stop = store.watchRuns((runIds) => {
        if (runIds !== "any") named.push(...runIds);
        heard();
      });
      await store.createRun({ runId: "feed", entry: "executePlan", at: 1 });
      await store.createRun({ runId: "feed/inner", entry: "runAgent", at: 1 });
      // A feed may take a while (a poller's next look, a notification): waited for, not timed. One
      // that says "any" (it began listening after the write) is written to again.
      for (let write = 0; write < 5 && !named.includes("feed"); write += 1) {
        const note = new Promise<void>((resolve) => (heard = resolve));
        await store.append("feed/inner", entries.slice(0, 1), 2 + write);
        await note;
      }
      expect(named.includes("feed")).toBe(true);
      expect(named.includes("feed/inner")).toBe(false);
      stop();
      await store.close();
    });

    waitConformance(open, framework);
  });
}

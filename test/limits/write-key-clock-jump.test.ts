// Outside review (flow control): on SQLite and Postgres a write key's hold was judged by the
// callers' wall clocks (Date.now). (1) A process whose clock jumped forward saw another's live
// hold as run out and took the key while that call still ran. (2) A holder paused longer than
// holdMs lost its hold, and the renewal that found it lost was ignored: its call went on beside
// the next holder's. Holds are now judged by the store's clock (the machine's monotonic clock for
// a SQLite file, the server's for Postgres and Redis), and a lost hold aborts the call.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { startLineProcess, type LineProcess } from "../helpers/line-process.js";
import { repoRoot } from "../helpers/paths.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";
import { overlaps } from "../helpers/write-log.js";

const script = join(repoRoot, "test", "fixtures", "write-key-clock-process.ts");
// Long enough that a process kept off the CPU by a busy machine renews in time (300 ms was not,
// at a load of 12, on Postgres): the jumps that matter are the first, of an hour.
const holdMs = 2_000;

interface Round {
  log: string;
  table: string;
  calls: number[];
  jumps: Array<{ afterMs: number; offsetMs: number }>;
}

interface Answer {
  status: string;
  errors: string[];
}

const send = async (process: LineProcess, round: Round): Promise<Answer> => JSON.parse(await process.send(round)) as Answer;

const backends = [
  ["a SQLite file", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-clock-")), "limits.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
  ["Redis", skipRedis, async () => `redis:${redisUrl!}`],
] as const;

/** A jump of the wall clock: forward or back by a second to an hour. */
const jump = fc.record({
  afterMs: fc.integer({ min: 0, max: 120 }),
  offsetMs: fc.tuple(fc.boolean(), fc.integer({ min: 1_000, max: 3_600_000 })).map(([back, ms]) => (back ? -ms : ms)),
});

describe.each(backends)("a write key held in %s", (_name, skip, flagOf) => {
  it.skipIf(skip)("is never taken from a live holder by a process whose wall clock jumps (seeded property)", async () => {
    const flag = await flagOf();
    const dir = mkdtempSync(join(tmpdir(), "planloop-clock-log-"));
    // Process A's clock jumps; B's keeps the time.
    const [jumping, steady] = [
      startLineProcess(script, [flag, "A", String(holdMs)], "A"),
      startLineProcess(script, [flag, "B", String(holdMs)], "B"),
    ];
    try {
      expect(await Promise.all([jumping.ready, steady.ready])).toEqual(["ready", "ready"]);
      let round = 0;
      const calls = fc.array(fc.integer({ min: 5, max: 40 }), { minLength: 1, maxLength: 4 });
      await fc.assert(
        fc.asyncProperty(calls, calls, fc.array(jump, { minLength: 1, maxLength: 4 }), async (callsOfA, callsOfB, jumps) => {
          const log = join(dir, `round-${(round += 1)}.log`);
          writeFileSync(log, "");
          // Tables of this test alone: other tests may share the Redis server.
          const table = randomUUID().slice(0, 8);
          // The first jump is forward, at once: A's first tries meet B's live hold on a clock ahead of it.
          const forward = [{ afterMs: 0, offsetMs: 3_600_000 }, ...jumps];
          const answers = await Promise.all([
            send(jumping, { log, table, calls: callsOfA, jumps: forward }),
            send(steady, { log, table, calls: callsOfB, jumps: [] }),
          ]);
          const written = readFileSync(log, "utf8");
          expect(overlaps(written)).toEqual([]);
          expect(answers).toEqual([
            { status: "completed", errors: [] },
            { status: "completed", errors: [] },
          ]);
          expect(written.split("\n").filter((line) => line.startsWith("start"))).toHaveLength(callsOfA.length + callsOfB.length);
        }),
        { numRuns: 10, seed: 7 },
      );
    } finally {
      await Promise.all([jumping.stop(), steady.stop()]);
    }
  });

  it.skipIf(skip)("aborts a call whose holder was paused past holdMs and lost it, and its outcome names the key", async () => {
    const flag = await flagOf();
    const log = join(mkdtempSync(join(tmpdir(), "planloop-clock-log-")), "paused.log");
    writeFileSync(log, "");
    const table = randomUUID().slice(0, 8);
    const [paused, other] = [
      startLineProcess(script, [flag, "A", String(holdMs)], "A"),
      startLineProcess(script, [flag, "B", String(holdMs)], "B"),
    ];
    try {
      await Promise.all([paused.ready, other.ready]);
      const answerOfA = send(paused, { log, table, calls: [5_000], jumps: [] });
      while (!readFileSync(log, "utf8").includes("start")) await new Promise((resolve) => setTimeout(resolve, 10));
      // A stops inside the table (a VM paused, a process stopped); its hold runs out and B takes the key.
      paused.child.kill("SIGSTOP");
      expect(await send(other, { log, table, calls: [0], jumps: [] })).toEqual({ status: "completed", errors: [] });
      paused.child.kill("SIGCONT");
      // A's next renewal finds the hold lost: its call is aborted, not left to write on.
      const answer = await answerOfA;
      expect(answer.status).toBe("failed");
      expect(answer.errors).toHaveLength(1);
      expect(answer.errors[0]).toContain(`the hold on write key "table:${table}" was lost while the call ran`);
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([
        `start ${table} A/0`,
        `start ${table} B/0`,
        `end ${table} B/0`,
        `aborted ${table} A/0`,
      ]);
    } finally {
      paused.child.kill("SIGCONT");
      await Promise.all([paused.stop(), other.stop()]);
    }
  });
});

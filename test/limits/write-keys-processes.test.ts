// Write keys across processes (issue 58): three processes whose tools write shared tables, the
// resources held in one store (Redis, Postgres, a SQLite file). A property test draws each
// process's calls (which tables, how long) and reads the log of starts and ends they appended to
// one file, in the order they happened: no table ever has two calls inside it at once. A process
// killed while it holds a table frees it once its hold runs out.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { startLineProcess } from "../helpers/line-process.js";
import { overlaps } from "../helpers/write-log.js";
import { repoRoot as root } from "../helpers/paths.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const script = join(root, "test", "fixtures", "write-keys-process.ts");

/** A fixture process: send it a round, hear it answer. */
function startProcess(flag: string, name: string, holdMs?: number) {
  const started = startLineProcess(script, [flag, name, ...(holdMs === undefined ? [] : [String(holdMs)])], name);
  return { ...started, round: (round: { log: string; calls: Array<{ tables: string[]; ms: number }> }) => started.send(round) };
}

const backends = [
  ["a SQLite file", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-keys-")), "limits.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
  ["Redis", skipRedis, async () => `redis:${redisUrl!}`],
] as const;

describe.each(backends)("write keys held in %s, across three processes", (_name, skip, flagOf) => {
  it.skipIf(skip)(
    "no two calls that write one table are ever inside it at once, in any process (property)",
    async () => {
      const flag = await flagOf();
      const dir = mkdtempSync(join(tmpdir(), "planloop-keys-log-"));
      // Tables of this test alone: other tests may share the Redis server.
      const tag = randomUUID().slice(0, 8);
      const processes = ["A", "B", "C"].map((name) => startProcess(flag, name));
      try {
        expect(await Promise.all(processes.map((each) => each.ready))).toEqual(["ready", "ready", "ready"]);
        let round = 0;
        const calls = fc.array(
          fc.record({
            tables: fc
              .subarray(["orders", "refunds", "tickets"], { minLength: 1 })
              .map((tables) => tables.map((table) => `${tag}-${table}`)),
            ms: fc.integer({ min: 0, max: 6 }),
          }),
          { minLength: 1, maxLength: 8 },
        );
        await fc.assert(
          fc.asyncProperty(fc.tuple(calls, calls, calls), async (perProcess) => {
            const log = join(dir, `round-${(round += 1)}.log`);
            writeFileSync(log, "");
            const answers = await Promise.all(processes.map((each, index) => each.round({ log, calls: perProcess[index]! })));
            expect(answers).toEqual(["completed", "completed", "completed"]);
            const written = readFileSync(log, "utf8");
            expect(overlaps(written)).toEqual([]);
            // Every call ran, each table it names once.
            const starts = written.split("\n").filter((line) => line.startsWith("start")).length;
            expect(starts).toBe(perProcess.flat().reduce((sum, call) => sum + new Set(call.tables).size, 0));
          }),
          { numRuns: 15, seed: 58 },
        );
      } finally {
        await Promise.all(processes.map((each) => each.stop()));
      }
    },
    180_000,
  );

  it.skipIf(skip)(
    "a process killed inside a table frees it once its hold runs out; the other then writes it",
    async () => {
      const flag = await flagOf();
      const log = join(mkdtempSync(join(tmpdir(), "planloop-keys-log-")), "killed.log");
      writeFileSync(log, "");
      const table = `${randomUUID().slice(0, 8)}-orders`;
      const [doomed, survivor] = [startProcess(flag, "A", 600), startProcess(flag, "B", 600)];
      try {
        await Promise.all([doomed.ready, survivor.ready]);
        void doomed.round({ log, calls: [{ tables: [table], ms: 60_000 }] }).catch(() => {});
        while (!readFileSync(log, "utf8").includes("start")) await new Promise((resolve) => setTimeout(resolve, 10));
        const answer = survivor.round({ log, calls: [{ tables: [table], ms: 0 }] });
        // B waits while A lives and holds the table, whatever the time it takes.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(readFileSync(log, "utf8")).not.toContain("B/0");
        doomed.child.kill("SIGKILL");
        expect(await answer).toBe("completed");
        expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([`start ${table} A/0`, `start ${table} B/0`, `end ${table} B/0`]);
      } finally {
        doomed.child.kill("SIGKILL");
        await survivor.stop();
      }
    },
    60_000,
  );
});

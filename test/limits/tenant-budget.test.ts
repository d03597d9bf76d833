// A tenant's budget for the day (issue 58), shared by its runs in every process on one store:
// two processes run one tenant's runs at once against 1,000 tokens a day, each call held at its
// worst case (100 tokens) before it is made. Together they make exactly the 10 calls the day
// pays for — none past it — and both runs stop budget_exceeded, naming the tenant's day.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Budget, memoryLimitStore, tenantBudget } from "planloop";
import { FakeClock } from "planloop/testing";
import { repoRoot } from "../helpers/paths.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

function runProcess(args: string[]): Promise<{ status: string; reason: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test", "fixtures", "tenant-budget-process.ts"), ...args], {
    cwd: repoRoot,
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`exited ${code}: ${err}`)))),
  );
}

const backends = [
  ["a SQLite file", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-budget-")), "limits.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
  ["Redis", skipRedis, async () => `redis:${redisUrl!}`],
] as const;

describe.each(backends)("a tenant's daily budget on %s, across two processes", (_name, skip, flagOf) => {
  it.skipIf(skip)(
    "the two processes' runs make exactly the calls the day pays for, and stop before the one that would pass it",
    async () => {
      const flag = await flagOf();
      const log = join(mkdtempSync(join(tmpdir(), "planloop-budget-log-")), "calls.log");
      writeFileSync(log, "");
      // A tenant of this test alone (others may share the Redis server); a hostile-looking name.
      const tenant = `acme:${randomUUID().slice(0, 8)}:2026-01-01`;
      const results = await Promise.all(["A", "B"].map((name) => runProcess([flag, log, name, tenant, "1000"])));
      const calls = readFileSync(log, "utf8").trim().split("\n");
      expect(calls).toHaveLength(10);
      for (const result of results) {
        expect(result.status).toBe("budget_exceeded");
        expect(result.reason).toMatch(/^tenant "acme:.*'s budget for \d{4}-\d\d-\d\d \(UTC\) cannot pay for another call/);
      }
    },
    60_000,
  );
});

describe("tenantBudget", () => {
  it("holds a call's worst case before it is made, charges what it cost, and starts afresh the next day", async () => {
    const clock = new FakeClock(Date.parse("2026-03-01T23:59:00Z"));
    const shared = memoryLimitStore();
    const day = () => new Budget({}, { clock, shared: tenantBudget({ tenant: "t", perDay: { maxCostUsd: 1 }, shared, clock }) });
    const first = day();
    const held = await first.reserve({ tokens: 0, costUsd: 0.6 });
    expect("settle" in held).toBe(true);
    // Another run of the tenant: 0.6 is held, 0.5 more would pass the dollar.
    const second = day();
    expect(await second.reserve({ tokens: 0, costUsd: 0.5 })).toMatchObject({ limit: "maxCostUsd" });
    // The call cost less than its worst case: what is left comes back.
    if ("settle" in held) held.settle({ costUsd: 0.2 });
    await new Promise((resolve) => setImmediate(resolve));
    const third = await second.reserve({ tokens: 0, costUsd: 0.5 });
    expect("settle" in third).toBe(true);
    if ("settle" in third) third.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await second.reserve({ tokens: 0, costUsd: 0.9 })).toMatchObject({
      limit: "maxCostUsd",
      message: expect.stringMatching(/^tenant "t"'s budget for 2026-03-01 \(UTC\) cannot pay for another call \(\$0\.200000 of \$1 spent/),
    });
    // A new day, a new ledger.
    await clock.advance(60_000);
    expect("settle" in (await second.reserve({ tokens: 0, costUsd: 0.9 }))).toBe(true);
  });

  it("a call whose hold was given back before it was counted (a stream left early) still charges the day", async () => {
    const shared = memoryLimitStore();
    const budget = new Budget({}, { shared: tenantBudget({ tenant: "t", perDay: { maxCostUsd: 1 }, shared }) });
    const held = await budget.reserve({ tokens: 0, costUsd: 0.5 });
    if (!("settle" in held)) throw new Error("refused");
    held.release();
    held.settle({ costUsd: 0.4 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(budget.spent.costUsd).toBe(0.4);
    expect(await budget.reserve({ tokens: 0, costUsd: 0.7 })).toMatchObject({ limit: "maxCostUsd" });
    expect("settle" in (await budget.reserve({ tokens: 0, costUsd: 0.6 }))).toBe(true);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryLimitStore } from "./limit-store.js";

const intervalMs = 100;
const claimMs = 1000;

interface Asker {
  tenant: string;
  /** When it asks next (Infinity: it has no call waiting). */
  at: number;
  /** When its current call became ready. */
  readyAt: number;
  /** How late it wakes after the time it was told (ms), by turn. */
  lateness: () => number;
}

interface Served {
  tenant: string;
  start: number;
  readyAt: number;
}

/**
 * Processes asking one line for turns on a simulated clock: each asker is a process's head call
 * of a tenant; a busy asker asks again once its turn came, a lone one after `gap()`. Several
 * askers of one tenant stand for its calls in several processes.
 */
async function simulate(options: { askers: Asker[]; weights: Map<string, number>; turns: number; gap: () => number }): Promise<Served[]> {
  const store = memoryLimitStore();
  const served: Served[] = [];
  while (served.length < options.turns) {
    const asker = options.askers.reduce((first, each) => (each.at < first.at ? each : first));
    const now = asker.at;
    const turn = await store.bookFair("line", {
      tenant: asker.tenant,
      intervalMs,
      now,
      step: 1 / (options.weights.get(asker.tenant) ?? 1),
      claimMs,
    });
    if ("retryAt" in turn) {
      asker.at = Math.max(now, turn.retryAt) + asker.lateness();
      continue;
    }
    served.push({ tenant: asker.tenant, start: turn.start, readyAt: asker.readyAt });
    const next = asker.tenant === "lone" ? turn.start + options.gap() : turn.start + asker.lateness();
    asker.readyAt = next;
    asker.at = next;
  }
  return served;
}

describe("tenants' turns booked in a shared store (decideFairTurn)", () => {
  it("serves a lone tenant within one turn of being ready, however many processes ask for a busy one, woken late at random", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (busyProcesses, seed) => {
        let state = seed;
        const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
        const lateness = () => random() * intervalMs * 0.9;
        const askers: Asker[] = [
          ...Array.from({ length: busyProcesses }, () => ({ tenant: "busy", at: random() * 50, readyAt: 0, lateness })),
          { tenant: "lone", at: 20 + random() * 500, readyAt: 0, lateness },
        ];
        askers.at(-1)!.readyAt = askers.at(-1)!.at;
        const served = await simulate({ askers, weights: new Map(), turns: 300, gap: () => random() * 5 * intervalMs });
        const starts = served.map((each) => each.start).sort((a, b) => a - b);
        // Never two turns closer than the rate allows.
        for (let index = 1; index < starts.length; index += 1)
          expect(starts[index]! - starts[index - 1]!).toBeGreaterThanOrEqual(intervalMs - 1e-6);
        const lone = served.filter((each) => each.tenant === "lone");
        expect(lone.length).toBeGreaterThan(5);
        for (const call of lone) {
          const before = served.filter((each) => each.tenant === "busy" && each.start > call.readyAt && each.start < call.start);
          expect(before.length).toBeLessThanOrEqual(1);
        }
      }),
      { seed: 58, numRuns: 60 },
    );
  });

  it("shares the turns by weight between tenants that always wait, a tenant named __proto__ too", async () => {
    const lateness = () => 0;
    const askers: Asker[] = [
      ...Array.from({ length: 3 }, () => ({ tenant: "__proto__", at: 0, readyAt: 0, lateness })),
      ...Array.from({ length: 3 }, () => ({ tenant: "plain", at: 0, readyAt: 0, lateness })),
    ];
    const served = await simulate({ askers, weights: new Map([["__proto__", 2]]), turns: 300, gap: () => 0 });
    const heavy = served.filter((each) => each.tenant === "__proto__").length;
    expect(heavy).toBeGreaterThanOrEqual(199);
    expect(heavy).toBeLessThanOrEqual(201);
  });

  it("keeps a weight-3 tenant's share when its next call asks a moment after its turn came, one call at a time", async () => {
    // Each tenant has one call at a time (a step after a step): its next call asks a little after
    // its turn came, while the other tenant asks the moment it was told to. Without the served
    // tenant's claim kept until the next turn, the other one took every other turn.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (seed) => {
        let state = seed;
        const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
        const lateness = () => 1 + random() * intervalMs * 0.5;
        const askers: Asker[] = [
          { tenant: "heavy", at: random() * 50, readyAt: 0, lateness },
          { tenant: "light", at: random() * 50, readyAt: 0, lateness },
        ];
        const served = await simulate({ askers, weights: new Map([["heavy", 3]]), turns: 400, gap: () => 0 });
        const heavy = served.filter((each) => each.tenant === "heavy").length;
        // 3 of every 4 turns, give or take a few.
        expect(heavy).toBeGreaterThanOrEqual(290);
        expect(heavy).toBeLessThanOrEqual(310);
        const starts = served.map((each) => each.start).sort((a, b) => a - b);
        for (let index = 1; index < starts.length; index += 1)
          expect(starts[index]! - starts[index - 1]!).toBeGreaterThanOrEqual(intervalMs - 1e-6);
      }),
      { seed: 58, numRuns: 30 },
    );
  });

  it("lets a claim whose process died go once it lapses: the others are held no longer than that", async () => {
    const store = memoryLimitStore();
    const request = (tenant: string, now: number) => store.bookFair("line", { tenant, intervalMs, now, step: 1, claimMs });
    expect(await request("busy", 0)).toEqual({ start: 0 });
    expect(await request("busy", 10)).toEqual({ start: 100 });
    // "gone" asks while busy's second turn is booked ahead: told to ask again at 100; its process dies.
    expect(await request("gone", 20)).toEqual({ retryAt: 100 });
    // Busy is held behind gone's claim (served less) until it lapses at 100 + claimMs, then goes.
    let now = 100;
    for (let turn = await request("busy", now); "retryAt" in turn; turn = await request("busy", now)) {
      expect(turn.retryAt).toBe(now + intervalMs);
      now = turn.retryAt;
    }
    expect(now).toBe(100 + claimMs);
  });
});

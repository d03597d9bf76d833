// Tenants (issue 58): runs of many tenants share step slots; a freed slot goes to the tenant
// using the fewest for its weight. Two tenants on 4 slots, one with 10 runs of 4 parallel steps
// and one with a single run of a 3-step chain: each of the lone tenant's steps starts with the
// first slot freed after it is ready — no step of the busy tenant starts between. Without
// tenants (each run its own share) the lone run waits behind the busy tenant's waiting runs.
// Logical time: a step takes a few turns of the event loop; the order of starts and ends is the clock.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, StepSlots } from "planloop";

const yieldTurns = async (turns: number) => {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

async function share(tenants: boolean, weights?: Record<string, number>) {
  const events: string[] = [];
  const work = defineTool({
    name: "work",
    description: "works a while",
    input: z.object({ who: z.string() }),
    execute: async ({ who }) => {
      events.push(`start ${who}`);
      await yieldTurns(5);
      events.push(`end ${who}`);
      return who;
    },
  });
  const slots = new StepSlots(4, weights === undefined ? {} : { weights });
  const busy = Array.from({ length: 10 }, (_, run) =>
    executePlan({
      plan: { steps: [1, 2, 3, 4].map((step) => ({ id: step, task: "work", tool: "work", args: { who: `busy${run}/${step}` } })) },
      tools: [work],
      slots,
      ...(tenants ? { tenant: "busy" } : {}),
    }),
  );
  // The lone tenant's run comes once the busy tenant holds every slot.
  await yieldTurns(2);
  events.push("launch lone");
  const lone = executePlan({
    plan: {
      steps: [1, 2, 3].map((step) => ({
        id: step,
        task: "work",
        tool: "work",
        args: { who: `lone/${step}` },
        depends_on: step > 1 ? [step - 1] : [],
      })),
    },
    tools: [work],
    slots,
    ...(tenants ? { tenant: "lone" } : {}),
  });
  const results = await Promise.all([...busy, lone]);
  expect(results.every((result) => result.status === "completed")).toBe(true);
  return events;
}

/** For each of the lone run's steps: the busy tenant's steps that started after it was ready and before it started. */
function overtaken(events: string[]): number[] {
  return [1, 2, 3].map((step) => {
    const ready = events.indexOf(step === 1 ? "launch lone" : `end lone/${step - 1}`);
    const started = events.indexOf(`start lone/${step}`);
    expect(ready).toBeGreaterThanOrEqual(0);
    expect(started).toBeGreaterThan(ready);
    return events.slice(ready, started).filter((event) => event.startsWith("start busy")).length;
  });
}

describe("tenants sharing step slots", () => {
  it("two tenants, 10 runs and 1 run, 4 slots: the lone tenant's steps start with the first slot freed after they are ready", async () => {
    const events = await share(true);
    expect(events.filter((event) => event.startsWith("start busy")).length).toBe(40);
    // The busy tenant held all 4 slots when the lone run came.
    expect(events.slice(0, events.indexOf("launch lone")).filter((event) => event.startsWith("start busy")).length).toBe(4);
    expect(overtaken(events)).toEqual([0, 0, 0]);
    // Within one step's time: at most one step ended (freeing the slot) between ready and start.
    for (const step of [1, 2, 3]) {
      const ready = events.indexOf(step === 1 ? "launch lone" : `end lone/${step - 1}`);
      const ended = events.slice(ready + 1, events.indexOf(`start lone/${step}`)).filter((event) => event.startsWith("end"));
      expect(ended.length).toBeLessThanOrEqual(1);
    }
  });

  it("a tenant may be called anything: __proto__ and constructor are tenants like any other", async () => {
    const slots = new StepSlots(2, { weights: { constructor: 2 } });
    const filler = slots.for("f", "filler");
    for (let slot = 0; slot < 2; slot += 1) expect(filler.take(() => {})).toBe(true);
    const woken: string[] = [];
    const runs = [
      { run: "c1", slot: slots.for("c1", "constructor") },
      { run: "c2", slot: slots.for("c2", "constructor") },
      { run: "p", slot: slots.for("p", "__proto__") },
    ];
    for (const { run, slot } of runs) expect(slot.take(() => woken.push(run))).toBe(false);
    // Each freed slot is taken by the run woken for it.
    for (let slot = 0; slot < 2; slot += 1) {
      filler.release();
      expect(runs.find((each) => each.run === woken.at(-1))!.slot.take(() => {})).toBe(true);
    }
    // constructor first (waiting longest); then __proto__, holding none, before constructor's
    // second run (constructor holds 1 for its weight of 2: a share of 0.5).
    expect(woken).toEqual(["c1", "p"]);
    expect(Object.fromEntries(slots.holdings())).toEqual({ c1: 1, p: 1 });
  });

  it("without tenants, each run its own share, the lone run waits behind the busy runs that waited before it", async () => {
    const events = await share(false);
    expect(overtaken(events)[0]).toBeGreaterThan(0);
  });

  it("a tenant of weight 3 holds up to three times the slots of one of weight 1 before the other comes first", async () => {
    const slots = new StepSlots(4, { weights: { heavy: 3 } });
    // A third tenant holds every slot; then the light tenant's 2 runs and the heavy one's 4 ask.
    const filler = slots.for("f", "filler");
    for (let slot = 0; slot < 4; slot += 1) expect(filler.take(() => {})).toBe(true);
    const woken: string[] = [];
    const runs = [
      ...["l1", "l2"].map((run) => ({ run, tenant: "light" })),
      ...["h1", "h2", "h3", "h4"].map((run) => ({ run, tenant: "heavy" })),
    ].map(({ run, tenant }) => ({ run, tenant, slot: slots.for(run, tenant) }));
    for (const { run, slot } of runs) expect(slot.take(() => woken.push(run))).toBe(false);
    // The filler's slots free one by one; each goes to the run woken for it.
    const granted: string[] = [];
    for (let slot = 0; slot < 4; slot += 1) {
      filler.release();
      const next = runs.find((each) => each.run === woken.at(-1))!;
      expect(next.slot.take(() => {})).toBe(true);
      granted.push(next.tenant);
    }
    // Light first (equal shares, waiting longer), then heavy until it holds 3 for its weight of 3.
    expect(granted).toEqual(["light", "heavy", "heavy", "heavy"]);
    expect(() => new StepSlots(2, { weights: { bad: 0 } })).toThrow(/weight of tenant "bad" must be a number > 0/);
  });
});

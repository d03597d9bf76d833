// Tenants on a run server (issue 58): the runs `planloop serve` hosts share its step slots, each
// run's tenant being the API client that started it (else its schedule). One client with 10 runs
// of 4 parallel steps and another with one run of a 3-step chain, on 4 slots: each later step of
// the lone client's chain starts with the first slot freed after it is ready — no step of the
// busy client starts between. Logical time: a step takes a few turns of the event loop.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore } from "planloop";
import { RunHost } from "../../src/runs/run-host.js";

const yieldTurns = async (turns: number) => {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe("a run server's tenants", () => {
  it("the API client with one run gets the next freed slot while the client with ten waits", async () => {
    const events: string[] = [];
    const work = defineTool({
      name: "work",
      description: "works a while",
      input: z.object({ who: z.string() }),
      effect: "pure",
      execute: async ({ who }) => {
        events.push(`start ${who}`);
        await yieldTurns(5);
        events.push(`end ${who}`);
        return who;
      },
    });
    const store = memoryStore();
    const host = new RunHost({ store, tools: [work], stepSlots: 4 });
    const busy = await Promise.all(
      Array.from({ length: 10 }, (_, run) =>
        host.start(
          { plan: { steps: [1, 2, 3, 4].map((step) => ({ id: step, task: "work", tool: "work", args: { who: `busy${run}/${step}` } })) } },
          { client: "busy" },
        ),
      ),
    );
    while (events.filter((event) => event.startsWith("start busy")).length < 4) await yieldTurns(1);
    const lone = await host.start(
      {
        plan: {
          steps: [1, 2, 3].map((step) => ({
            id: step,
            task: "work",
            tool: "work",
            args: { who: `lone/${step}` },
            depends_on: step > 1 ? [step - 1] : [],
          })),
        },
      },
      { client: "lone" },
    );
    await Promise.all([...busy, lone].map((started) => host.settled(started.runId)));
    await host.close();
    expect(events.filter((event) => event.startsWith("start busy"))).toHaveLength(40);
    for (const step of [2, 3]) {
      const ready = events.indexOf(`end lone/${step - 1}`);
      const started = events.indexOf(`start lone/${step}`);
      expect(started).toBeGreaterThan(ready);
      expect(events.slice(ready, started).filter((event) => event.startsWith("start busy"))).toEqual([]);
    }
    // The busy client still had steps waiting when the lone one's last step started.
    const lastBusyStart = events.findLastIndex((event) => event.startsWith("start busy"));
    expect(lastBusyStart).toBeGreaterThan(events.indexOf("start lone/3"));
  });
});

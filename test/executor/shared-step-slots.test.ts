// Step slots shared by runs (StepSlots): at most n steps of all runs at once, and a run that
// comes second gets the next slot that frees rather than waiting behind the first run's steps.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, StepSlots } from "planloop";

function gatedWork() {
  const started: string[] = [];
  const open = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const work = defineTool({
    name: "work",
    description: "waits until the test lets it end",
    input: z.object({ name: z.string() }),
    execute: ({ name }) =>
      new Promise<string>((resolve) => {
        started.push(name);
        running += 1;
        most = Math.max(most, running);
        open.set(name, () => {
          running -= 1;
          resolve(name);
        });
      }),
  });
  const end = async (name: string) => {
    open.get(name)!();
    // Let the runs' schedulers take their turns (microtasks and the step's records).
    for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
  };
  return { work, started, end, most: () => most };
}

const plan = (prefix: string, count: number) => ({
  steps: Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    task: "work",
    tool: "work",
    args: { name: `${prefix}${index + 1}` },
  })),
});

describe("StepSlots shared by runs", () => {
  it("holds every run's steps to the shared size, and gives a freed slot to the run holding the fewest", async () => {
    const { work, started, end, most } = gatedWork();
    const slots = new StepSlots(2);
    const a = executePlan({ plan: plan("a", 4), tools: [work], slots, concurrency: 4 });
    for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
    expect(started).toEqual(["a1", "a2"]);
    const b = executePlan({ plan: plan("b", 2), tools: [work], slots, concurrency: 4 });
    for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
    // b waits: both slots are a's.
    expect(started).toEqual(["a1", "a2"]);
    await end("a1");
    // The slot a1 freed is b's, though a has two more steps ready.
    expect(started).toEqual(["a1", "a2", "b1"]);
    await end("a2");
    // a holds none now, b one: the slot is a's.
    expect(started).toEqual(["a1", "a2", "b1", "a3"]);
    // The rest, each as it starts.
    const ended = new Set(["a1", "a2"]);
    while (ended.size < 6) {
      const next = started.find((name) => !ended.has(name))!;
      ended.add(next);
      await end(next);
    }
    const [first, second] = await Promise.all([a, b]);
    expect([first.status, second.status]).toEqual(["completed", "completed"]);
    expect(started.sort()).toEqual(["a1", "a2", "a3", "a4", "b1", "b2"]);
    expect(most()).toBe(2);
  });

  it("is checked: anything but a StepSlots is refused", async () => {
    const { work } = gatedWork();
    await expect(executePlan({ plan: plan("x", 1), tools: [work], slots: { size: 2 } as never })).rejects.toThrow(
      /slots must be a StepSlots/,
    );
  });
});

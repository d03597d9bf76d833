import { describe, expect, it } from "vitest";
import { buildPlanGraph } from "../plan/graph/plan-graph.js";
import { createScheduler, type SchedulerHooks } from "./scheduler.js";

type StepSpec = { id: string; depends_on?: string[]; tool?: string };

/** Fake hooks: a clock the test moves, yields it counts, steps the test finishes by hand. */
function harness(steps: StepSpec[], options: { concurrency: number; toolLimits?: Record<string, number>; instant?: boolean }) {
  const graph = buildPlanGraph({ steps: steps.map((step) => ({ id: step.id, task: step.id, depends_on: step.depends_on ?? [] })) });
  let now = 0;
  const yields: Array<() => void> = [];
  const started: string[] = [];
  const finishers = new Map<string, (ok: boolean) => void>();
  const hooks: SchedulerHooks = {
    graph,
    priorities: undefined,
    concurrency: options.concurrency,
    initially: () => "open",
    toolOf: (step) => steps[step]!.tool,
    toolLimit: (tool) => options.toolLimits?.[tool] ?? Infinity,
    mayStart: () => true,
    onReady: () => {},
    run: (step, done) => {
      started.push(steps[step]!.id);
      // Instant steps take 1 ms of the fake clock each and end at once.
      if (options.instant) {
        now += 1;
        return true;
      }
      finishers.set(steps[step]!.id, (ok) => done(step, ok));
      return undefined;
    },
    now: () => now,
    yieldTurn: (resume) => yields.push(resume),
  };
  const scheduler = createScheduler(hooks);
  steps.forEach((_, index) => scheduler.add(index));
  scheduler.close();
  const finish = async (id: string, ok = true) => {
    finishers.get(id)!(ok);
    finishers.delete(id);
    await flush();
  };
  return { scheduler, started, finishers, yields, finish };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the scheduler's runner, on fake hooks", () => {
  it("never runs more than `concurrency` steps, and fills a slot the moment one frees", async () => {
    const run = harness([{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d", depends_on: ["a"] }], { concurrency: 2 });
    await flush();
    expect(run.started).toEqual(["a", "b"]);
    await run.finish("b");
    expect(run.started).toEqual(["a", "b", "c"]);
    await run.finish("a");
    expect(run.started).toEqual(["a", "b", "c", "d"]);
    expect(run.finishers.size).toBe(2);
  });

  it("parks a step whose tool is at its limit without holding a slot, and starts it when that tool frees", async () => {
    const steps = [
      { id: "s1", tool: "slow" },
      { id: "s2", tool: "slow" },
      { id: "f1", tool: "fast" },
    ];
    const run = harness(steps, { concurrency: 3, toolLimits: { slow: 1 } });
    await flush();
    expect(run.started).toEqual(["s1", "f1"]);
    await run.finish("f1");
    expect(run.started).toEqual(["s1", "f1"]);
    await run.finish("s1");
    expect(run.started).toEqual(["s1", "f1", "s2"]);
  });

  it("does not start a step whose dependency failed, and is done once nothing can start", async () => {
    const run = harness([{ id: "a" }, { id: "b", depends_on: ["a"] }], { concurrency: 2 });
    await flush();
    let done = false;
    void run.scheduler.done.then(() => (done = true));
    await run.finish("a", false);
    expect(run.started).toEqual(["a"]);
    expect(done).toBe(true);
  });

  it("gives the event loop a turn through its hook once a burst of instant steps has held it for 5 ms", async () => {
    const steps = Array.from({ length: 300 }, (_, index) => ({ id: `s${index}`, ...(index > 0 ? { depends_on: [`s${index - 1}`] } : {}) }));
    const run = harness(steps, { concurrency: 1, instant: true });
    await flush();
    // The clock is read before every 64th start: the read before start 64 opens the burst,
    // the one before start 128 (64 ms of fake time later) ends it.
    expect(run.started).toHaveLength(127);
    expect(run.yields).toHaveLength(1);
    while (run.yields.length > 0) run.yields.shift()!();
    expect(run.started).toHaveLength(300);
  });
});

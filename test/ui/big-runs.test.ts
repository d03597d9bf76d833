// Large runs in planloop ui (issue 44 item 8): the run page is sent its first 200 steps and
// their count, the rest a page at a time; the timeline's bars only when asked; a run's page and
// what it waits for are made once per change (the journal is not read again while nothing
// moved); a plan too large to draw as a graph says so instead of being laid out.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, type CheckpointStore } from "planloop";
import { startUi, type UiServer } from "../../src/ui/index.js";
import { RunDetails } from "../../src/ui/run-details.js";
import { renderTraceHtml } from "../../src/trace/trace-html.js";
import { storedRunEvents } from "../../src/trace/stored-trace.js";

let ui: UiServer | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

const echo = defineTool({ name: "echo", description: "echo", input: z.object({ text: z.string() }), execute: ({ text }) => text });
const pay = defineTool({ name: "pay", description: "pay", input: z.object({}), needsApproval: true, execute: () => "paid" });
const wide = (size: number, approval = false) => ({
  steps: [
    ...Array.from({ length: size }, (_, index) => ({
      id: index + 1,
      task: `step ${index + 1}`,
      tool: "echo",
      args: { text: `t${index}` },
    })),
    ...(approval ? [{ id: size + 1, task: "pay", tool: "pay", args: {} }] : []),
  ],
});

/** The store, counting how often a run's journal is read. */
function counted(store: CheckpointStore) {
  const reads: string[] = [];
  return { reads, store: { ...store, getRun: (runId: string) => (reads.push(runId), store.getRun(runId)) } as CheckpointStore };
}

describe("large runs in planloop ui", () => {
  it("pages the steps: the first 200 with their count, then the rest 5,000 at most at a time; bars only when asked", async () => {
    const store = memoryStore();
    await executePlan({ plan: wide(450), tools: [echo], store, runId: "wide", concurrency: 50 });
    ui = await startUi({ store });
    const base = ui.url.slice(0, ui.url.indexOf("/?"));
    const get = async (path: string) => {
      const answer = await fetch(base + path, { headers: { "x-planloop-token": ui!.token } });
      return { status: answer.status, body: (await answer.json()) as Record<string, any> };
    };
    const page = (await get("/api/runs/wide")).body;
    expect(page.steps).toHaveLength(200);
    expect(page.stepCount).toBe(450);
    expect(page.trace.bars).toBeUndefined();
    expect(page.result).not.toHaveProperty("steps");
    expect(page.result).toMatchObject({ status: "completed" });
    expect((await get("/api/runs/wide?bars=1")).body.trace.bars).toHaveLength(450);
    const rest = (await get("/api/runs/wide/steps?from=200&limit=1000")).body;
    expect(rest.stepCount).toBe(450);
    const keys = [...page.steps, ...rest.steps].map((step: { stepKey: string }) => step.stepKey);
    expect(new Set(keys).size).toBe(450);
    expect((await get("/api/runs/wide/steps?from=440")).body.steps).toHaveLength(10);
    expect((await get("/api/runs/wide/steps?from=-1")).status).toBe(400);
    expect((await get("/api/runs/nope/steps")).status).toBe(404);
  });

  it("makes a run's page and its waits once per change", async () => {
    const { store, reads } = counted(memoryStore());
    await executePlan({ plan: wide(30, true), tools: [echo, pay], store, runId: "pays" });
    const details = new RunDetails(store);
    await details.page("pays");
    await details.page("pays");
    await details.steps("pays", 0, 10);
    expect(reads.filter((id) => id === "pays")).toHaveLength(1);
    expect((await details.inbox()).map((item) => item.id)).toEqual(["step:31"]);
    await details.inbox();
    expect(reads.filter((id) => id === "pays")).toHaveLength(2);
    // The run moves: both are made again, once.
    await executePlan({ plan: wide(30, true), tools: [echo, pay], store, runId: "pays", approvals: { "step:31": { approved: true } } });
    reads.length = 0;
    expect((await details.page("pays"))?.row.status).toBe("completed");
    expect(await details.inbox()).toEqual([]);
    await details.page("pays");
    expect(reads.filter((id) => id === "pays")).toHaveLength(1);
  });

  it("does not lay out a plan of more than 2,000 steps as a graph: it says so", async () => {
    const store = memoryStore();
    await executePlan({ plan: wide(2_001), tools: [echo], store, runId: "huge", concurrency: 100 });
    const html = renderTraceHtml(storedRunEvents((await store.getRun("huge"))!, []), { embedded: true });
    expect(html).toContain('data-too-large="2001"');
    expect(html).not.toContain('class="dag"');
  });
});

// The ui's mark "waiting for the provider's limit": a model call that must wait for its
// provider's limit writes the wait (a journal entry with its end) as soon as it starts, so the
// ui, which reads only the store, shows it on the runs list and the run page while it lasts —
// for a loop's own call and for a call of an agent step's inner loop — and not once it is over.
import { afterEach, describe, expect, it, vi } from "vitest";
import { executePlan, memoryStore, runAgent, type CheckpointStore, type ModelRequest } from "planloop";
import { startUi, type UiServer } from "../../src/ui/index.js";
import { limitWaitOf } from "../../src/ui/run-rows.js";
import type { RunPage, RunRow } from "../../src/ui/api-types.js";

let ui: UiServer | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

async function api<T>(server: UiServer, path: string): Promise<T> {
  const response = await fetch(`${server.url.slice(0, server.url.indexOf("/?"))}${path}`, {
    headers: { "x-planloop-token": server.token },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** A model whose call waits for a limit named `limit` until `until`, then answers once let go. */
function waitingModel(limit: string, untils: number[]) {
  let letGo: () => void = () => {};
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  const model = async (request: ModelRequest) => {
    for (const until of untils) request.onLimitWait?.({ limit, until });
    await gate;
    return { type: "final" as const, content: "done" };
  };
  return { model, letGo };
}

async function rowOfRun(server: UiServer, runId: string): Promise<RunRow | undefined> {
  const page = await api<RunPage>(server, "/api/runs");
  return [...page.waiting, ...page.runs].find((row) => row.runId === runId);
}

describe("the ui's mark for a call waiting on its provider's limit", () => {
  it("shows a loop's wait, with its limit and end, on the runs list and the run page while it lasts", async () => {
    const store = memoryStore();
    ui = await startUi({ store });
    const until = Date.now() + 10 * 60_000;
    const { model, letGo } = waitingModel("openai <b>", [until]);
    const running = runAgent({ model, tools: [], task: "t", store, runId: "loop" });
    await vi.waitFor(async () => expect((await rowOfRun(ui!, "loop"))?.limitWait).toEqual({ limit: "openai <b>", until }), {
      timeout: 20_000,
    });
    const detail = await api<{ row: RunRow }>(ui, "/api/runs/loop");
    expect(detail.row.limitWait).toEqual({ limit: "openai <b>", until });
    letGo();
    expect((await running).status).toBe("completed");
    expect((await rowOfRun(ui, "loop"))?.limitWait).toBeUndefined();
    expect((await api<{ row: RunRow }>(ui, "/api/runs/loop")).row.limitWait).toBeUndefined();
  });

  it("shows an agent step's wait on its plan run's row; waits less than a second apart are written once", async () => {
    const store = memoryStore();
    ui = await startUi({ store });
    const start = Date.now() + 10 * 60_000;
    // Three waits: the second within a second of the first (not written), the third 5 s later.
    const { model, letGo } = waitingModel("anthropic", [start, start + 400, start + 5000]);
    const plan = { steps: [{ id: 1, task: "look it up", depends_on: [] }] };
    const running = executePlan({ plan, tools: [], model, store, runId: "plan" });
    await vi.waitFor(async () => expect((await rowOfRun(ui!, "plan"))?.limitWait).toEqual({ limit: "anthropic", until: start + 5000 }), {
      timeout: 20_000,
    });
    letGo();
    expect((await running).status).toBe("completed");
    expect(await waitsIn(store, "plan")).toEqual([start, start + 5000]);
  });

  it("reads only a wait still to end, and the newest of each journal", () => {
    const run = (runId: string, untils: number[]) => ({
      runId,
      entry: "runAgent",
      status: "running" as const,
      createdAt: 0,
      updatedAt: 0,
      journal: untils.map((until) => ({ kind: "limit-wait" as const, limit: runId, until, at: 0, step: 0 })),
    });
    expect(limitWaitOf([run("a", [500])], 1000)).toEqual({});
    // A journal's newest wait counts, even when an older one ran later.
    expect(limitWaitOf([run("a", [5000, 1500])], 1000)).toEqual({ limitWait: { limit: "a", until: 1500 } });
    expect(limitWaitOf([run("a", [5000, 900])], 1000)).toEqual({});
    expect(limitWaitOf([run("a", [1500]), run("b", [3000])], 1000)).toEqual({ limitWait: { limit: "b", until: 3000 } });
  });
});

/** The ends of the waits written by a run and the runs inside it. */
async function waitsIn(store: CheckpointStore, runId: string): Promise<number[]> {
  const runs = await store.listRuns({});
  const mine = runs.filter((each) => each.runId === runId || each.runId.startsWith(`${runId}/`));
  const untils: number[] = [];
  for (const each of mine) {
    const run = await store.getRun(each.runId);
    for (const entry of run?.journal ?? []) if (entry.kind === "limit-wait") untils.push(entry.until);
  }
  return untils.sort((a, b) => a - b);
}

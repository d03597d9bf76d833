// Deciding through planloop ui's JSON API goes through decideRun: an answer for an approval or an
// approval for a question is refused (422, naming the item) and nothing is handed on; a valid wave
// is taken whole, with who; the same wave again is refused, and each call ran once.
import { afterEach, describe, expect, it } from "vitest";
import { askUser, executePlan, memoryStore, type CheckpointStore } from "planloop";
import { startUi, type UiServer } from "../../src/ui/index.js";
import { refundTool } from "../helpers/refund-tool.js";
import { RunLease } from "../../src/journal/run-lease.js";
import { RunHost } from "../../src/runs/run-host.js";
import { whyNotHere } from "../../src/cli/commands/ui-command.js";

let ui: UiServer | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

const plan = {
  steps: [
    { id: 1, task: "refund A1", tool: "refund", args: { order: "A1" } },
    { id: 2, task: "refund A2", tool: "refund", args: { order: "A2" } },
    { id: 3, task: "ask", tool: "ask_user", args: { question: "Which currency?" } },
  ],
};

async function waitingUi() {
  const store = memoryStore();
  const { refund, refunds } = refundTool();
  const tools = [refund, askUser()];
  expect((await executePlan({ plan, tools, store, runId: "r1" })).status).toBe("waiting");
  const handedOn: unknown[] = [];
  ui = await startUi({
    store,
    tools,
    continueRun: async ({ runId, taken }) => {
      handedOn.push(taken?.decided);
      await executePlan({ plan, tools, store, runId, ...taken?.decided, lease: taken ? { held: taken.lease } : undefined });
    },
  });
  const send = async (body: unknown) => {
    const response = await fetch(`${ui!.url.slice(0, ui!.url.indexOf("/?"))}/api/runs/r1/decisions`, {
      method: "POST",
      headers: { "x-planloop-token": ui!.token, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { error?: string; ids?: string[] } };
  };
  return { store, refunds, handedOn, send };
}

/** The decisions the run kept: on what, and by whom. */
async function kept(store: CheckpointStore): Promise<Array<[string, string | undefined]>> {
  return (await store.getRun("r1"))!.journal.flatMap((entry) => (entry.kind === "human-decision" ? [[entry.id, entry.by] as const] : []));
}

/** Until the run has kept `count` decisions (the ui continues it after answering). */
async function settled(store: CheckpointStore, count: number) {
  for (let look = 0; look < 400 && (await kept(store)).length < count; look += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("deciding through planloop ui", () => {
  it("refuses a wave with an answer for an approval, and an approve for a question, naming each; nothing is kept", async () => {
    const { store, refunds, handedOn, send } = await waitingUi();
    const wave = await send([
      { pendingId: "step:1", action: "answer", text: "yes" },
      { pendingId: "step:2", action: "approve" },
    ]);
    expect(wave).toMatchObject({ status: 422, body: { ids: ["step:1"] } });
    expect(wave.body.error).toContain('step:1 waits for approval (approve or deny); "answer" does not fit it');
    const question = await send({ pendingId: "step:3", action: "approve" });
    expect(question).toMatchObject({ status: 422, body: { ids: ["step:3"] } });
    const answered = await send({ pendingId: "step:1", action: "answer", text: "yes" });
    expect(answered).toMatchObject({ status: 422, body: { ids: ["step:1"] } });
    expect([handedOn, refunds, await kept(store)]).toEqual([[], [], []]);
  });

  it("takes a valid wave whole with who; the same wave again is refused, and each call ran once", async () => {
    const { store, refunds, handedOn, send } = await waitingUi();
    const wave = [
      { pendingId: "step:1", action: "approve" },
      { pendingId: "step:2", action: "approve" },
    ];
    expect((await send(wave)).status).toBe(202);
    await settled(store, 2);
    expect(handedOn).toMatchObject([{ ids: ["step:1", "step:2"], decidedBy: "planloop ui", decidedAt: expect.any(Number) }]);
    expect(refunds.sort()).toEqual(["A1 r1/1", "A2 r1/2"]);
    // The run now waits for its question only: the wave again decides nothing and runs nothing.
    const again = await send(wave);
    expect(again).toMatchObject({ status: 409, body: { ids: ["step:1", "step:2"] } });
    expect((await send({ pendingId: "step:3", action: "answer", text: "EUR" })).status).toBe(202);
    await settled(store, 3);
    const decisions = (await store.getRun("r1"))!.journal.flatMap((entry) =>
      entry.kind === "human-decision" ? [[entry.id, entry.by]] : [],
    );
    expect(decisions).toEqual([
      ["step:1", "planloop ui"],
      ["step:2", "planloop ui"],
      ["step:3", "planloop ui"],
    ]);
    expect(refunds).toHaveLength(2);
  });

  it("refuses (409, naming the process) a decision on a run another process holds; nothing is handed on, and it is taken once that process lets go", async () => {
    const { store, refunds, handedOn, send } = await waitingUi();
    // Another process continues the run: it holds the run's lease.
    const other = await RunLease.take(store, "r1", {});
    const busy = await send({ pendingId: "step:1", action: "approve" });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatch(/is being run by .*nothing was decided/);
    expect(handedOn).toEqual([]);
    expect(await kept(store)).toEqual([]);
    await other.release();
    expect((await send({ pendingId: "step:1", action: "approve" })).status).toBe(202);
    await settled(store, 1);
    expect(refunds).toEqual(["A1 r1/1"]);
  });

  it("refuses (409, saying where to decide it) a run planloop serve's API started: a standalone ui cannot continue it", async () => {
    const store = memoryStore();
    const { refund } = refundTool();
    const host = new RunHost({ store, tools: [refund] });
    await host.start({ plan: { steps: [{ id: 1, task: "refund A1", tool: "refund", args: { order: "A1" } }] }, runId: "hosted" });
    await host.close();
    expect((await store.getRun("hosted"))?.status).toBe("running");
    const continued: string[] = [];
    ui = await startUi({ store, tools: [refund], continueRun: async ({ runId }) => void continued.push(runId) });
    const response = await fetch(`${ui.url.slice(0, ui.url.indexOf("/?"))}/api/runs/hosted/decisions`, {
      method: "POST",
      headers: { "x-planloop-token": ui.token, "content-type": "application/json" },
      body: JSON.stringify({ pendingId: "step:1", action: "approve" }),
    });
    const body = (await response.json()) as { error: string };
    expect(response.status).toBe(409);
    expect(body.error).toContain("planloop serve's HTTP API");
    expect(body.error).toContain("POST /api/runs/hosted/decisions");
    expect(continued).toEqual([]);
    const run = await store.getRun("hosted");
    expect(run!.journal.filter((entry) => entry.kind === "human-decision")).toEqual([]);
  });

  it("refuses (409, saying who continues it) a run a program started: planloop ui has no command line to continue it by", async () => {
    const store = memoryStore();
    const { refund } = refundTool();
    expect((await executePlan({ plan, tools: [refund, askUser()], store, runId: "r1" })).status).toBe("waiting");
    const continued: string[] = [];
    ui = await startUi({
      store,
      tools: [refund, askUser()],
      continueRun: async ({ runId }) => void continued.push(runId),
      cannotContinue: (runId) => whyNotHere(store, runId, { word: { store: "memory", tools: "/tools.mjs" }, command: "planloop ui" }),
    });
    const response = await fetch(`${ui.url.slice(0, ui.url.indexOf("/?"))}/api/runs/r1/decisions`, {
      method: "POST",
      headers: { "x-planloop-token": ui.token, "content-type": "application/json" },
      body: JSON.stringify({ pendingId: "step:1", action: "approve" }),
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toContain(
      'run "r1" was started by a program (executePlan), which continues it',
    );
    expect(continued).toEqual([]);
    expect(await kept(store)).toEqual([]);
  });
});

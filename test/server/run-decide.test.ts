// Deciding through the run server's HTTP API goes through decideRun: a wave whose action does not
// fit an item (an answer for an approval, an approval for a question) is refused whole, naming the
// bad items, and nothing is kept; a valid wave is taken whole; the same wave again is refused.
import { afterEach, describe, expect, it } from "vitest";
import { askUser, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient, PlanloopApiError, type StreamEvent } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundTool } from "../helpers/refund-tool.js";

let server: RunServer | undefined;
let store: CheckpointStore | undefined;
afterEach(async () => {
  await server?.close({ abortRuns: true });
  await store?.close();
  server = store = undefined;
});

const plan = {
  steps: [
    { id: 1, task: "refund A1", tool: "refund", args: { order: "A1" } },
    { id: 2, task: "refund A2", tool: "refund", args: { order: "A2" } },
    { id: 3, task: "ask", tool: "ask_user", args: { question: "Which currency?" } },
  ],
};

async function waitingRun() {
  store = memoryStore();
  const { refund, refunds } = refundTool();
  server = await startRunServer({ store, tools: [refund, askUser()], pollMs: 20 });
  const client = planloopClient({ url: server.url, token: server.sessionToken! });
  const { runId } = await client.start({ plan, runId: "mixed" });
  for await (const event of client.stream(runId)) if (event.type === "run-paused") break;
  expect((await client.get(runId)).pending.map((item) => [item.id, item.kind])).toEqual([
    ["step:1", "approval"],
    ["step:2", "approval"],
    ["step:3", "input"],
  ]);
  return { client, refunds, runId };
}

const refused = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error as PlanloopApiError);

describe("deciding through the run server", () => {
  it("refuses a wave with an answer for an approval, and an approval for a question, naming each; nothing is kept", async () => {
    const { client, refunds, runId } = await waitingRun();
    const wrong = await refused(
      client.decide(runId, [
        { pendingId: "step:1", action: "answer", text: "yes" },
        { pendingId: "step:2", action: "approve" },
      ]),
    );
    expect(wrong).toBeInstanceOf(PlanloopApiError);
    expect(wrong!.status).toBe(422);
    expect(wrong!.body.ids).toEqual(["step:1"]);
    expect(wrong!.message).toContain('step:1 waits for approval (approve or deny); "answer" does not fit it');
    const question = await refused(client.decide(runId, { pendingId: "step:3", action: "approve" }));
    expect([question!.status, question!.body.ids]).toEqual([422, ["step:3"]]);
    // Nothing kept: the run still waits for all three, no decision recorded, nothing refunded.
    const view = await client.get(runId);
    expect([view.status, view.pending.map((item) => item.id), view.decisions]).toEqual(["waiting", ["step:1", "step:2", "step:3"], []]);
    expect(refunds).toEqual([]);
  });

  it("takes a valid wave whole, with who; the same wave again is refused and the calls ran once", async () => {
    const { client, refunds, runId } = await waitingRun();
    const wave = [
      { pendingId: "step:1", action: "approve" as const },
      { pendingId: "step:2", action: "deny" as const, reason: "not this one" },
      { pendingId: "step:3", action: "answer" as const, text: "EUR" },
    ];
    expect(await client.decide(runId, wave)).toEqual({ decided: ["step:1", "step:2", "step:3"], continued: true });
    const events: StreamEvent[] = [];
    for await (const event of client.stream(runId)) events.push(event);
    const view = await client.get(runId);
    expect(view.decisions.map(({ id, by }) => [id, by])).toEqual([
      ["step:1", "session"],
      ["step:2", "session"],
      ["step:3", "session"],
    ]);
    expect(refunds).toEqual(["A1 mixed/1"]);
    const again = await refused(client.decide(runId, wave));
    expect([again!.status, again!.body.ids]).toEqual([409, ["step:1", "step:2", "step:3"]]);
    expect(refunds).toEqual(["A1 mixed/1"]);
  });
});

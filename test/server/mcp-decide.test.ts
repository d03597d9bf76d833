// MCP's decide tool goes through decideRun: an answer for an approval or an approval for a question
// is a tool error naming the item, and nothing is kept; a valid wave is taken whole; the same wave
// again is a tool error, and each call ran once. Driven by the MCP SDK's client over /mcp.
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { askUser, memoryStore, type CheckpointStore } from "planloop";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundTool } from "../helpers/refund-tool.js";

let store: CheckpointStore;
let server: RunServer;
let client: Client;
afterEach(async () => {
  await client.close();
  await server.close({ abortRuns: true });
  await store.close();
});

const plan = {
  steps: [
    { id: 1, task: "refund A1", tool: "refund", args: { order: "A1" } },
    { id: 2, task: "refund A2", tool: "refund", args: { order: "A2" } },
    { id: 3, task: "ask", tool: "ask_user", args: { question: "Which currency?" } },
  ],
};

type Outcome = { status: string; pending?: Array<{ id: string; kind: string }> };

async function waitingRun() {
  store = memoryStore();
  const { refund, refunds } = refundTool();
  server = await startRunServer({ store, tools: [refund, askUser()], pollMs: 20 });
  client = new Client({ name: "planloop-test", version: "1.0.0" });
  const headers = { authorization: `Bearer ${server.sessionToken}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  const waiting = (await client.callTool({ name: "run_plan", arguments: { plan, runId: "mixed" } })).structuredContent as Outcome;
  expect(waiting.pending?.map((item) => [item.id, item.kind])).toEqual([
    ["step:1", "approval"],
    ["step:2", "approval"],
    ["step:3", "input"],
  ]);
  const decide = async (decisions: unknown[]) => {
    const result = await client.callTool({ name: "decide", arguments: { runId: "mixed", decisions } });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? "";
    return { isError: result.isError === true, text, outcome: result.structuredContent as Outcome | undefined };
  };
  return { refunds, decide };
}

describe("MCP's decide", () => {
  it("refuses a run tool's runId that is taken, instead of handing back the old run's answer (issue 56, outside review of 53)", async () => {
    const { refunds } = await waitingRun();
    const again = await client.callTool({ name: "run_plan", arguments: { plan, runId: "mixed" } });
    expect(again.isError).toBe(true);
    expect((again.content as Array<{ text?: string }>)[0]?.text).toContain('run "mixed" exists already: a run tool starts a new run');
    expect((await store.getRun("mixed"))?.status).toBe("running");
    expect(refunds).toEqual([]);
  });

  it("refuses a wave with an answer for an approval, and an approve for a question, naming each; nothing is kept", async () => {
    const { refunds, decide } = await waitingRun();
    const wave = await decide([
      { pendingId: "step:1", action: "answer", text: "yes" },
      { pendingId: "step:2", action: "approve" },
    ]);
    expect(wave.isError).toBe(true);
    expect(wave.text).toContain('step:1 waits for approval (approve or deny); "answer" does not fit it');
    const question = await decide([{ pendingId: "step:3", action: "approve" }]);
    expect(question).toMatchObject({
      isError: true,
      text: expect.stringContaining('step:3 waits for an answer; "approve" does not fit it'),
    });
    const run = await store.getRun("mixed");
    expect(run!.journal.filter((entry) => entry.kind === "human-decision")).toEqual([]);
    const view = (await client.callTool({ name: "get_run", arguments: { runId: "mixed" } })).structuredContent as Outcome;
    expect(view.pending?.map((item) => item.id)).toEqual(["step:1", "step:2", "step:3"]);
    expect(refunds).toEqual([]);
  });

  it("takes a valid wave whole; the same wave again is a tool error, and each call ran once", async () => {
    const { refunds, decide } = await waitingRun();
    const wave = [
      { pendingId: "step:1", action: "approve" },
      { pendingId: "step:2", action: "deny", reason: "not this one" },
      { pendingId: "step:3", action: "answer", text: "EUR" },
    ];
    // The denied refund fails its step, and so the plan (a failed run is the call's error); the approved one and the answer are taken.
    expect(await decide(wave)).toMatchObject({ isError: true, outcome: { status: "failed" } });
    expect(refunds).toEqual(["A1 mixed/1"]);
    const again = await decide(wave);
    expect(again).toMatchObject({ isError: true, text: expect.stringContaining('the run does not wait for "step:1"') });
    expect(refunds).toEqual(["A1 mixed/1"]);
    const kept = (await store.getRun("mixed"))!.journal.flatMap((entry) => (entry.kind === "human-decision" ? [[entry.id, entry.by]] : []));
    // Kept with who decided: over HTTP, the name of the token the client came with (here the session's), not "mcp".
    expect(kept).toEqual([
      ["step:1", "session"],
      ["step:2", "session"],
      ["step:3", "session"],
    ]);
  });
});

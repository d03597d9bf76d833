// 2026-07-28 elicitation over HTTP: a run that waits for a person answers the 2.x client with
// input_required (one form for the wave, a signed requestState); the retried request carries
// the answer and decides the run. The same retry twice decides once; a forged or another
// token's state is refused.
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { memoryStore, type CheckpointStore } from "planloop";
import { addToken } from "../../src/server/api-tokens.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundPlan, refundTool } from "../helpers/refund-tool.js";

let store: CheckpointStore;
let server: RunServer;
const closing: Client[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
  await server.close({ abortRuns: true });
  await store.close();
});

type ClientOptions = ConstructorParameters<typeof Client>[1];

async function connect(options: ClientOptions & { token?: string } = {}): Promise<Client> {
  const { token = server.sessionToken!, ...rest } = options;
  const client = new Client({ name: "modern-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, ...rest });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  closing.push(client);
  return client;
}

const approve = { planloop_decisions: { action: "accept", content: { "step:1": true } } };

async function start() {
  store = memoryStore();
  const { refund, refunds } = refundTool();
  server = await startRunServer({ store, tools: [refund], pollMs: 20, secret: "a server secret of some length" });
  return refunds;
}

/** The first round by hand: the input_required answer a client that can show forms gets. */
async function firstRound(client: Client, runId: string) {
  const asked = (await client.callTool({ name: "run_plan", arguments: { plan: refundPlan, runId } }, {
    allowInputRequired: true,
  } as never)) as unknown as {
    resultType: string;
    inputRequests: Record<string, { method: string; params: { requestedSchema: unknown } }>;
    requestState: string;
  };
  return asked;
}

describe("/mcp asks a 2026-07-28 client through inputRequired", () => {
  it("decides a run waiting for approval with the form's answer, asked and retried by the client itself", async () => {
    const refunds = await start();
    const forms: unknown[] = [];
    const client = await connect({ capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (request) => {
      forms.push(request.params);
      return { action: "accept", content: { "step:1": true } };
    });
    const done = await client.callTool({ name: "run_plan", arguments: { plan: refundPlan, runId: "asked" } });
    expect(done.structuredContent).toMatchObject({ runId: "asked", status: "completed" });
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ requestedSchema: { properties: { "step:1": { type: "boolean" } }, required: ["step:1"] } });
    expect(refunds).toHaveLength(1);
  });

  it("decides once when the same retried request comes twice, one after the other and at once", async () => {
    const refunds = await start();
    const client = await connect({ capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    for (const [runId, together] of [
      ["twice-in-a-row", false],
      ["twice-at-once", true],
    ] as const) {
      const asked = await firstRound(client, runId);
      expect(asked.resultType).toBe("input_required");
      expect(asked.inputRequests.planloop_decisions?.method).toBe("elicitation/create");
      const retry = () =>
        client.callTool({
          name: "run_plan",
          arguments: { plan: refundPlan, runId },
          inputResponses: approve,
          requestState: asked.requestState,
        } as never);
      const answers = together ? await Promise.all([retry(), retry()]) : [await retry(), await retry()];
      for (const answer of answers) expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
      expect(answers.some((answer) => (answer.structuredContent as { status?: string }).status === "completed")).toBe(true);
    }
    expect(refunds).toHaveLength(2);
    expect(refunds.map((line) => line.split(" ")[0])).toEqual(["A7", "A7"]);
  });

  it("refuses a forged requestState and one minted for another token, deciding nothing", async () => {
    const refunds = await start();
    const client = await connect({ capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    const asked = await firstRound(client, "guarded");
    const [head, body, mac] = asked.requestState.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString()) as { p: { runId: string } };
    payload.p.runId = "someone-else";
    const forged = [head, Buffer.from(JSON.stringify(payload)).toString("base64url"), mac].join(".");
    const { token } = await addToken(store, { name: "other", scopes: ["run", "decide"] });
    const other = await connect({ token, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    for (const [caller, requestState] of [
      [client, forged],
      [client, "not a state"],
      [other, asked.requestState],
    ] as const) {
      await expect(
        caller.callTool({
          name: "run_plan",
          arguments: { plan: refundPlan, runId: "guarded" },
          inputResponses: approve,
          requestState,
        } as never),
      ).rejects.toThrow(/requestState/i);
    }
    expect(refunds).toEqual([]);
    const read = await client.callTool({ name: "get_run", arguments: { runId: "guarded" } });
    expect(read.structuredContent).toMatchObject({ status: "waiting" });
  });

  it("answers a client that cannot show forms with the waiting run, as before", async () => {
    const refunds = await start();
    const client = await connect();
    const waiting = await client.callTool({ name: "run_plan", arguments: { plan: refundPlan, runId: "no-forms" } });
    expect(waiting.structuredContent).toMatchObject({ status: "waiting", pending: [{ id: "step:1", kind: "approval" }] });
    expect(refunds).toEqual([]);
  });
});

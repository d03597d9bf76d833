// The web app's server and JSON API over a store: every request needs the token, requests a
// page of another site could send are refused, decisions are checked against what the run
// waits for (an edited plan like any plan), continuing a run goes through the ui's
// continueRun, and the event stream names the runs that moved.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan, memoryStore, planAndExecute, type CheckpointStore } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { startUi, type UiServer } from "../../src/ui/index.js";
import { refundPlan, refundTool } from "../helpers/refund-tool.js";

let ui: UiServer | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

/** A request with exactly these headers (fetch would set Host and Origin itself). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const call = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text.startsWith("{") ? JSON.parse(text) : { text } }));
    });
    call.on("error", reject);
    call.end(body);
  });
}

async function waitingRefund(store: CheckpointStore, runId: string) {
  const { refund, refunds } = refundTool();
  const paused = await executePlan({ plan: refundPlan, tools: [refund], store, runId });
  expect(paused.status).toBe("waiting");
  return { refund, refunds };
}

const base = (server: UiServer) => server.url.slice(0, server.url.indexOf("/?"));

describe("planloop ui's server", () => {
  it("needs the token on every request, and answers only for its own host", async () => {
    const store = memoryStore();
    await waitingRefund(store, "r1");
    ui = await startUi({ store });
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    expect((await send(`${base(ui)}/api/runs`)).status).toBe(401);
    expect((await send(`${base(ui)}/api/runs?token=wrong`)).status).toBe(401);
    expect((await send(`${base(ui)}/`)).status).toBe(401);
    const listed = await send(`${base(ui)}/api/runs`, { headers: { "x-planloop-token": ui.token } });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      waiting: [{ runId: "r1", status: "waiting", entry: "executePlan", task: "a plan of 1 step", steps: "0/1" }],
      runs: [],
    });
    // A name that points here from elsewhere (DNS rebinding) is refused even with the token.
    const rebound = await send(`${base(ui)}/api/runs`, { headers: { "x-planloop-token": ui.token, host: "attacker.example:80" } });
    expect(rebound.status).toBe(421);
  });

  it("refuses decisions a page of another site could send: no token header, another origin, not JSON", async () => {
    const store = memoryStore();
    await waitingRefund(store, "r2");
    ui = await startUi({ store, continueRun: () => Promise.reject(new Error("must not be called")) });
    const url = `${base(ui)}/api/runs/r2/decisions`;
    const body = { pendingId: "step:1", action: "approve" };
    const cookie = `planloop_ui_${new URL(ui.url).port}=${ui.token}`;
    const json = { "content-type": "application/json" };
    expect((await send(url, { method: "POST", headers: { cookie, ...json }, body })).status).toBe(403);
    const foreign = { "x-planloop-token": ui.token, origin: "http://attacker.example", ...json };
    expect((await send(url, { method: "POST", headers: foreign, body })).status).toBe(403);
    expect(
      (await send(url, { method: "POST", headers: { "x-planloop-token": ui.token, "content-type": "text/plain" }, body })).status,
    ).toBe(415);
    const run = await store.getRun("r2");
    expect(run!.journal.some((entry) => entry.kind === "human-decision")).toBe(false);
  });

  it("checks a decision against what the run waits for; without continueRun it hands back the command", async () => {
    const store = memoryStore();
    await waitingRefund(store, "r3");
    ui = await startUi({ store, storeFlag: "sqlite:/tmp/my runs.sqlite" });
    const headers = { "x-planloop-token": ui.token, "content-type": "application/json" };
    const url = `${base(ui)}/api/runs/r3/decisions`;
    expect(await send(url, { method: "POST", headers, body: { pendingId: "step:9", action: "approve" } })).toMatchObject({
      status: 409,
      body: { error: expect.stringContaining('does not wait for "step:9"') },
    });
    expect((await send(url, { method: "POST", headers, body: { pendingId: "step:1", action: "shrug" } })).status).toBe(400);
    const answer = await send(url, { method: "POST", headers, body: { pendingId: "step:1", action: "deny", reason: "not this week" } });
    expect(answer).toMatchObject({ status: 200, body: { continued: false } });
    expect(answer.body.command).toBe(
      "planloop runs deny r3 step:1 --reason 'not this week' --store 'sqlite:/tmp/my runs.sqlite' --tools <your tools module>",
    );
    expect((await store.getRun("r3"))!.status).toBe("running");
  });

  it("names the page's cookie for its port: another server on 127.0.0.1 never receives it", async () => {
    ui = await startUi({ store: memoryStore() });
    const page = await fetch(ui.url);
    expect(page.status).toBe(200);
    const port = new URL(ui.url).port;
    expect(page.headers.get("set-cookie")).toBe(`planloop_ui_${port}=${ui.token}; HttpOnly; SameSite=Strict; Path=/`);
    // The cookie of another port's page opens nothing here.
    const other = await fetch(`${base(ui)}/api/runs`, { headers: { cookie: `planloop_ui_1=${ui.token}` } });
    expect(other.status).toBe(401);
  });

  it("continues one run at a time per run, not per server: a decision on b goes on while a's continuation still runs", async () => {
    const store = memoryStore();
    await waitingRefund(store, "ra");
    await waitingRefund(store, "rb");
    let releaseA!: () => void;
    const aHolds = new Promise<void>((resolve) => (releaseA = resolve));
    const continued: string[] = [];
    ui = await startUi({
      store,
      continueRun: async ({ runId }) => {
        if (runId === "ra") await aHolds;
        continued.push(runId);
      },
    });
    const headers = { "x-planloop-token": ui.token, "content-type": "application/json" };
    const decide = (runId: string) =>
      send(`${base(ui!)}/api/runs/${runId}/decisions`, { method: "POST", headers, body: { pendingId: "step:1", action: "approve" } });
    expect((await decide("ra")).status).toBe(202);
    expect((await decide("rb")).status).toBe(202);
    for (let look = 0; look < 200 && continued.length === 0; look += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(continued).toEqual(["rb"]);
    // A second decision on the run being continued is refused, not queued behind it.
    expect((await decide("ra")).status).toBe(409);
    releaseA();
    await ui.close();
    ui = undefined;
    expect(continued).toEqual(["rb", "ra"]);
  });

  it("a wave: all approvals (or all denials) at once, each one the run waits for, else nothing; handed on as decisions", async () => {
    const store = memoryStore();
    await waitingRefund(store, "r5");
    const waves: unknown[] = [];
    ui = await startUi({ store, continueRun: async ({ decisions }) => void waves.push(decisions) });
    const headers = { "x-planloop-token": ui.token, "content-type": "application/json" };
    const url = `${base(ui)}/api/runs/r5/decisions`;
    const stale = await send(url, {
      method: "POST",
      headers,
      body: [
        { pendingId: "step:1", action: "approve" },
        { pendingId: "step:7", action: "approve" },
      ],
    });
    expect(stale).toMatchObject({ status: 409, body: { ids: ["step:7"] } });
    const mixed = [
      { pendingId: "step:1", action: "approve" },
      { pendingId: "step:1", action: "deny" },
    ];
    expect((await send(url, { method: "POST", headers, body: mixed })).status).toBe(400);
    expect(waves).toEqual([]);
    expect(await send(url, { method: "POST", headers, body: [{ pendingId: "step:1", action: "approve" }] })).toMatchObject({ status: 202 });
    await ui.close();
    ui = undefined;
    expect(waves).toEqual([[{ pendingId: "step:1", action: "approve" }]]);
  });

  it("continues a run through continueRun once; the run then reads completed", async () => {
    const store = memoryStore();
    const { refund, refunds } = await waitingRefund(store, "r4");
    const decisions: unknown[] = [];
    ui = await startUi({
      store,
      continueRun: async ({ runId, decision, taken }) => {
        decisions.push(decision);
        // The ui took the run's lease for the decision: the run goes on under it.
        await executePlan({ plan: refundPlan, tools: [refund], store, runId, ...taken!.decided, lease: { held: taken!.lease } });
      },
    });
    const headers = { "x-planloop-token": ui.token, "content-type": "application/json" };
    const posted = await send(`${base(ui)}/api/runs/r4/decisions`, {
      method: "POST",
      headers,
      body: { pendingId: "step:1", action: "approve" },
    });
    expect(posted).toMatchObject({ status: 202, body: { continued: true } });
    let detail: Record<string, unknown> = {};
    for (let tries = 0; tries < 500 && (detail.row as { status?: string } | undefined)?.status !== "completed"; tries++) {
      detail = (await send(`${base(ui)}/api/runs/r4`, { headers })).body;
    }
    expect(detail).toMatchObject({ row: { status: "completed", steps: "1/1" }, pending: [], continuation: { state: "continued" } });
    expect(decisions).toEqual([{ pendingId: "step:1", action: "approve" }]);
    expect(refunds).toEqual(["A7 r4/1"]);
  });

  it("an edited plan with a cycle is refused with its problems, and nothing changes", async () => {
    const store = memoryStore();
    const plan = { steps: [{ id: "a", task: "refund A7", tool: "refund", args: { order: "A7" } }] };
    const planner = new ScriptedModel([{ purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } }]);
    const { refund } = refundTool();
    const paused = await planAndExecute({ task: "refund A7", planner, tools: [refund], store, runId: "p1", reviewPlan: true });
    expect(paused.status).toBe("waiting");
    ui = await startUi({ store, tools: [refund] });
    const headers = { "x-planloop-token": ui.token, "content-type": "application/json" };
    const inbox = await send(`${base(ui)}/api/inbox`, { headers });
    expect(inbox.body.items).toMatchObject([{ runId: "p1", id: "plan:1", kind: "plan", version: 1, task: "refund A7" }]);
    const cycle = {
      steps: [
        { id: "a", task: "refund A7", tool: "refund", args: { order: "A7" }, depends_on: ["b"] },
        { id: "b", task: "refund A8", tool: "refund", args: { order: "A8" }, depends_on: ["a"] },
      ],
    };
    const refused = await send(`${base(ui)}/api/runs/p1/decisions`, {
      method: "POST",
      headers,
      body: { pendingId: "plan:1", action: "edit", plan: cycle },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.problems)).toMatch(/cycle/i);
    const before = (await store.getRun("p1"))!.journal.length;
    expect((await send(`${base(ui)}/api/inbox`, { headers })).body.items).toHaveLength(1);
    expect((await store.getRun("p1"))!.journal.length).toBe(before);
  });

  it("the event stream names the runs that moved", async () => {
    const store = memoryStore();
    ui = await startUi({ store, pollMs: 10 });
    const events = await fetch(`${base(ui)}/api/events?token=${ui.token}`);
    const reader = events.body!.getReader();
    const seen: string[] = [];
    const read = async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        seen.push(new TextDecoder().decode(value));
        if (seen.join("").includes('"changed":["fresh"]')) return;
      }
    };
    const reading = read();
    // The stream's first look at the store takes what is there as seen; a run started after it is news.
    while (!seen.join("").includes("event: ready")) await new Promise((resolve) => setImmediate(resolve));
    await waitingRefund(store, "fresh");
    await reading;
    expect(seen.join("")).toContain('event: runs\ndata: {"changed":["fresh"]}');
    await reader.cancel();
  });
});

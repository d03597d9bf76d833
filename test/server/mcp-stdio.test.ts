// planloop as an MCP server over stdio (planloop mcp, a process of its own), driven by the MCP
// SDK's own client: its tools listed with their schemas, a plan run to completion with a progress
// notification per step, a run that waits for approval answered through decide, a cancelled run.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { connectMcp } from "../helpers/mcp-command.js";
import { tryHostileRunIds } from "../helpers/hostile-run-ids.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(dir: string, log: string): Promise<Client> {
  const client = await connectMcp(`sqlite:${join(dir, "runs.sqlite")}`, log);
  clients.push(client);
  return client;
}

type Outcome = { runId: string; status: string; output?: unknown; pending?: Array<{ id: string; kind: string }> };

describe("planloop mcp over stdio", () => {
  it("lists its tools, runs a plan with progress, waits for an approval and takes it through decide, and cancels", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-mcp-"));
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    const client = await connect(dir, log);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask", "cancel_run", "decide", "double_it", "get_run", "list_runs", "run_plan"]);
    // A pipeline the tools module exports is a tool of its own, its input schema from its zod object.
    const pipeline = tools.find((tool) => tool.name === "double_it")!;
    expect(pipeline.inputSchema).toMatchObject({
      properties: { value: { type: "number", description: "the number to double" } },
      required: ["value"],
    });
    expect((await client.callTool({ name: "double_it", arguments: { value: 5 } })).structuredContent).toMatchObject({
      status: "completed",
      output: 10,
    });
    const runPlan = tools.find((tool) => tool.name === "run_plan")!;
    expect(runPlan.inputSchema.required).toEqual(["plan"]);
    expect(runPlan.outputSchema?.properties).toHaveProperty("status");

    // A plan of three steps, to completion, with a progress notification as each step ends.
    const progress: Array<{ progress: number; total?: number | undefined }> = [];
    const paused = await client.callTool(
      {
        name: "run_plan",
        arguments: {
          runId: "doubles",
          plan: {
            steps: [1, 2, 3].map((id) => ({ id, task: "pause", tool: "pause", args: { ms: 40 }, depends_on: id === 1 ? [] : [id - 1] })),
          },
        },
      },
      undefined,
      { onprogress: (update) => void progress.push(update) },
    );
    expect(paused.structuredContent).toMatchObject({ runId: "doubles", status: "completed" });
    // The SDK's client drops a notification it reads together with the answer (it handles the
    // answer first); the server leaves a gap before the answer, and the first two come long before.
    const told = progress.map((update) => [update.progress, update.total]);
    expect(told.slice(0, 2)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(told.slice(2)).toEqual(told.length === 3 ? [[3, 3]] : []);

    // A payment that waits for approval: the call returns with what it waits for; decide approves it.
    const waiting = (
      await client.callTool({
        name: "run_plan",
        arguments: { runId: "pays", plan: { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 7 } }] } },
      })
    ).structuredContent as Outcome;
    expect(waiting).toMatchObject({ runId: "pays", status: "waiting", pending: [{ id: "step:1", kind: "approval" }] });
    const payments = () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line.startsWith("paid"));
    expect(payments()).toEqual([]);
    const paid = (
      await client.callTool({ name: "decide", arguments: { runId: "pays", decisions: [{ pendingId: "step:1", action: "approve" }] } })
    ).structuredContent as Outcome;
    expect(paid).toMatchObject({ status: "completed" });
    expect(payments()).toEqual(["paid 7 pays/1"]);
    // A stale decision is a tool error the model reads, not a protocol error.
    const stale = await client.callTool({
      name: "decide",
      arguments: { runId: "pays", decisions: [{ pendingId: "step:1", action: "approve" }] },
    });
    expect(stale.isError).toBe(true);

    // A waiting run cancelled; the list shows all three.
    await client.callTool({
      name: "run_plan",
      arguments: { runId: "dropped", plan: { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 9 } }] } },
    });
    expect((await client.callTool({ name: "cancel_run", arguments: { runId: "dropped" } })).structuredContent).toMatchObject({
      status: "cancelled",
    });
    const listed = (await client.callTool({ name: "list_runs", arguments: {} })).structuredContent as {
      runs: Array<{ runId: string; status: string }>;
    };
    // The pipeline's run has an id of the server's making.
    const named = listed.runs.filter((run) => !run.runId.startsWith("run-"));
    expect(Object.fromEntries(named.map((run) => [run.runId, run.status]))).toEqual({
      doubles: "completed",
      pays: "completed",
      dropped: "cancelled",
    });
    expect(listed.runs).toHaveLength(4);
  });

  it("takes run ids by the library's one rule: no inner run of another's, no schedule's, nothing empty or huge; plants nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-mcp-ids-"));
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    const client = await connect(dir, log);
    await tryHostileRunIds(client);
    await client.close();
    const store = sqliteStore({ path: join(dir, "runs.sqlite") });
    // The only run is the victim's, started by this client (its origin says so), and nothing was paid.
    expect((await store.listRuns()).map((row) => [row.runId, row.origin])).toEqual([["victim", { client: "mcp" }]]);
    await store.close();
    expect(readFileSync(log, "utf8")).toBe("");
  });
});

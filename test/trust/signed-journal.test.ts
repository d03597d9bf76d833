// What is in the store cannot be turned against the person who resumes (issue 27 §3): with a
// stateSecret every journal entry and the result are signed, so an edited output, a waiting
// record turned into a success and a forged result are refused; secret arguments are sealed
// with the secret, or kept out of the store without one.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, planAndExecute, runAgent, StoreError } from "planloop";
import pg from "pg";
import { postgresStore } from "planloop/postgres";
import { sqliteStore } from "planloop/sqlite";
import { ScriptedModel } from "planloop/testing";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { openSqliteFile } from "../helpers/sqlite-file.js";

const secret = "a secret of sixteen or more";
const apiKey = "sk-live-7f3a9c1e55";

function storeFile() {
  const dir = mkdtempSync(join(tmpdir(), "planloop-signed-"));
  const path = join(dir, "runs.sqlite");
  /** Every byte the store keeps, the WAL file included. */
  const bytes = () =>
    readdirSync(dir)
      .map((name) => readFileSync(join(dir, name)).toString("latin1"))
      .join("");
  /** Changes the stored journal as someone with the file could. */
  const edit = (sql: string, ...params: unknown[]) => {
    const db = openSqliteFile(path);
    db.prepare(sql).run(...params);
    db.close();
  };
  return { path, bytes, edit };
}

/** Step 1 looks a price up (25); step 2 refunds it, after approval. */
function refundPlanTools() {
  const refunds: number[] = [];
  const lookup = defineTool({ name: "lookup", description: "price", input: z.object({ order: z.string() }), execute: () => 25 });
  const refund = defineTool({
    name: "refund",
    description: "refund",
    input: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (refunds.push(amount), `refunded ${amount}`),
  });
  const plan = {
    steps: [
      { id: 1, task: "price", tool: "lookup", args: { order: "A7" } },
      { id: 2, task: "refund", tool: "refund", args: { order: "A7", amount: "$1" }, depends_on: [1] },
    ],
  };
  return { refunds, tools: [lookup, refund], plan, approvals: { "step:2": { approved: true } } };
}

describe("a journal signed with the state secret", () => {
  it("refuses an edited step output, naming the run and the entry; the refund never runs on it", async () => {
    const file = storeFile();
    const { refunds, tools, plan, approvals } = refundPlanTools();
    const store = sqliteStore({ path: file.path });
    expect(await executePlan({ plan, tools, store, runId: "r1", stateSecret: secret })).toMatchObject({ status: "waiting" });
    file.edit("UPDATE planloop_journal SET entry = replace(entry, '\"output\":25', '\"output\":777') WHERE run_id = 'r1'");
    const continued = executePlan({ plan, tools, store, runId: "r1", stateSecret: secret, approvals });
    await expect(continued).rejects.toThrow(StoreError);
    await expect(continued).rejects.toThrow(/run "r1"\): journal entry \d+ \(step-end\) does not match its signature/);
    expect(refunds).toEqual([]);
    store.close();
  });

  it("refuses a waiting record edited to a success, and a forged result row", async () => {
    const file = storeFile();
    const { refunds, tools, plan, approvals } = refundPlanTools();
    const store = sqliteStore({ path: file.path });
    await executePlan({ plan, tools, store, runId: "skip", stateSecret: secret });
    file.edit(
      'UPDATE planloop_journal SET entry = replace(entry, \'"status":"waiting"\', \'"status":"succeeded","output":"refunded 25"\') WHERE run_id = \'skip\'',
    );
    await expect(executePlan({ plan, tools, store, runId: "skip", stateSecret: secret, approvals })).rejects.toThrow(
      /run "skip"\): journal entry \d+ \(step-end\) does not match its signature/,
    );

    await executePlan({ plan, tools, store, runId: "forged", stateSecret: secret });
    file.edit(
      "UPDATE planloop_runs SET status = 'finished', result = ? WHERE run_id = 'forged'",
      JSON.stringify({ status: "completed", output: "refunded" }),
    );
    await expect(executePlan({ plan, tools, store, runId: "forged", stateSecret: secret })).rejects.toThrow(
      /run "forged"\): the stored result does not match the journal's signatures/,
    );
    // A line removed from the middle breaks the chain too.
    await executePlan({ plan, tools, store, runId: "cut", stateSecret: secret });
    file.edit("DELETE FROM planloop_journal WHERE run_id = 'cut' AND seq = 2");
    await expect(executePlan({ plan, tools, store, runId: "cut", stateSecret: secret, approvals })).rejects.toThrow(
      /does not match its signature/,
    );
    expect(refunds).toEqual([]);

    // Untouched, the same run continues, and a finished one's result reads back as it was.
    await executePlan({ plan, tools, store, runId: "kept", stateSecret: secret });
    const done = await executePlan({ plan, tools, store, runId: "kept", stateSecret: secret, approvals });
    expect(done).toMatchObject({ status: "completed", output: "refunded 25" });
    expect(await executePlan({ plan, tools, store, runId: "kept", stateSecret: secret })).toEqual(JSON.parse(JSON.stringify(done)));
    await expect(executePlan({ plan, tools, store, runId: "kept" })).rejects.toThrow(
      /kept with a stateSecret: continue it with the same stateSecret/,
    );
    expect(refunds).toEqual([25]);
    store.close();
  });
});

describe.skipIf(skipPostgres)("a signed journal on Postgres", () => {
  it("refuses an edited step output and a forged result, as on SQLite", async () => {
    const url = await freshDatabase();
    const { refunds, tools, plan, approvals } = refundPlanTools();
    const store = postgresStore({ connectionString: url });
    const edit = async (sql: string, ...params: unknown[]) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(sql, params);
      await client.end();
    };
    await executePlan({ plan, tools, store, runId: "p1", stateSecret: secret });
    await edit("UPDATE planloop_journal SET entry = replace(entry, '\"output\":25', '\"output\":777') WHERE run_id = 'p1'");
    await expect(executePlan({ plan, tools, store, runId: "p1", stateSecret: secret, approvals })).rejects.toThrow(
      /run "p1"\): journal entry \d+ \(step-end\) does not match its signature/,
    );
    await executePlan({ plan, tools, store, runId: "p2", stateSecret: secret });
    await edit("UPDATE planloop_runs SET status = 'finished', result = $1 WHERE run_id = 'p2'", JSON.stringify({ status: "completed" }));
    await expect(executePlan({ plan, tools, store, runId: "p2", stateSecret: secret })).rejects.toThrow(/stored result does not match/);
    expect(refunds).toEqual([]);
    await store.close();
  });
});

describe("secret arguments at rest", () => {
  const call = (seen: string[]) =>
    defineTool({
      name: "call",
      description: "calls an API",
      input: z.object({ apiKey: z.string(), q: z.string() }),
      needsApproval: true,
      execute: ({ apiKey: key, q }) => (seen.push(key), `answer to ${q}`),
    });
  const plan = { steps: [{ id: 1, task: "ask", tool: "call", args: { apiKey, q: "x" } }] };
  const approvals = { "step:1": { approved: true } };

  it("are sealed with the secret, or kept out of the store without one; the tool gets them either way", async () => {
    for (const stateSecret of [secret, undefined]) {
      const file = storeFile();
      const seen: string[] = [];
      const store = sqliteStore({ path: file.path });
      const paused = await executePlan({ plan, tools: [call(seen)], store, runId: "p", stateSecret });
      expect(paused.status).toBe("waiting");
      expect(await executePlan({ plan, tools: [call(seen)], store, runId: "p", stateSecret, approvals })).toMatchObject({
        status: "completed",
      });
      expect(seen).toEqual([apiKey]);
      store.close();
      expect(file.bytes()).not.toContain(apiKey);
      expect(file.bytes()).toContain(stateSecret === undefined ? '"$keptOut":"apiKey"' : '"$sealed":');
    }
  });

  it("a model's plan and its text are sealed too; without a secret a continued run asks for the kept-out values by name", async () => {
    const jsonPlan = JSON.stringify(plan);
    const planner = new ScriptedModel([{ purpose: "plan", reply: { type: "final", content: jsonPlan } }]);
    const solver = new ScriptedModel([{ purpose: "solve", reply: { type: "final", content: "done" } }]);
    const sealed = storeFile();
    const seen: string[] = [];
    const store = sqliteStore({ path: sealed.path });
    const options = { task: "ask", tools: [call(seen)], store, runId: "pe", stateSecret: secret };
    const paused = await planAndExecute({ ...options, planner });
    expect(paused.status).toBe("waiting");
    const decided = { [paused.pending![0]!.id]: { approved: true as const } };
    expect(await planAndExecute({ ...options, planner: solver, approvals: decided })).toMatchObject({ status: "completed" });
    expect(seen).toEqual([apiKey]);
    store.close();
    expect(sealed.bytes()).not.toContain(apiKey);

    // The ReAct loop keeps the model's calls; without a secret their keys are kept out.
    const file = storeFile();
    const plain = sqliteStore({ path: file.path });
    const model = () =>
      new ScriptedModel([
        { purpose: "act", reply: { type: "tool_calls", calls: [{ id: "c1", name: "call", arguments: { apiKey, q: "x" } }] } },
        { purpose: "act", reply: { type: "final", content: "done" } },
      ]);
    const loop = { task: "ask", tools: [call(seen)], store: plain, runId: "loop" };
    const waiting = await runAgent({ ...loop, model: model() });
    expect(waiting.status).toBe("waiting");
    expect(file.bytes()).not.toContain(apiKey);
    const approved = { [waiting.pending![0]!.id]: { approved: true } };
    await expect(runAgent({ ...loop, model: model(), approvals: approved })).rejects.toThrow(
      /run "loop" was kept without a stateSecret, so its secret arguments \(apiKey\) were kept out of the store/,
    );
    const finalAnswer = new ScriptedModel([{ purpose: "act", reply: { type: "final", content: "done" } }]);
    const done = await runAgent({ ...loop, model: finalAnswer, approvals: approved, keptSecrets: { apiKey } });
    expect(done).toMatchObject({ status: "completed", output: "done" });
    expect(seen).toEqual([apiKey, apiKey]);
    plain.close();
  });
});

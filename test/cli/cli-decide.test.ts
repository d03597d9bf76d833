// `planloop runs approve|deny|answer` check what they are given with decideRun before anything
// runs: an action that does not fit its item (an answer for an approval, an approval for a
// question) exits 2 naming it, and nothing is kept; a valid wave is taken; the same wave again
// is refused, and each payment was made once.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

const dir = mkdtempSync(join(tmpdir(), "planloop-cli-decide-"));
const tools = join(testRoot, "fixtures", "decide-tools.ts");
const log = join(dir, "payments.log");
const plan = join(dir, "plan.json");
writeFileSync(
  plan,
  JSON.stringify({
    steps: [
      { id: 1, task: "pay 10", tool: "pay", args: { amount: 10 } },
      { id: 2, task: "pay 20", tool: "pay", args: { amount: 20 } },
      { id: 3, task: "ask", tool: "ask_user", args: { question: "Which currency?" } },
    ],
  }),
);
beforeAll(() => {
  writeFileSync(log, "");
  process.env.PLANLOOP_TEST_LOG = log;
});
afterAll(() => void delete process.env.PLANLOOP_TEST_LOG);

const payments = () => readFileSync(log, "utf8").split("\n").filter(Boolean);

async function waitingRun(runId: string) {
  const store = `sqlite:${join(dir, `${runId}.sqlite`)}`;
  expect((await cli("run", plan, "--tools", tools, "--store", store, "--run-id", runId)).code).toBe(3);
  const runs = (...args: string[]) => cli("runs", ...args, "--tools", tools, "--store", store);
  const show = async () => (await cli("runs", "show", runId, "--store", store)).out;
  return { runs, show };
}

describe("planloop runs approve|deny|answer", () => {
  it("refuses an answer for an approval, and an approve for a question, naming the item; nothing is kept", async () => {
    const { runs, show } = await waitingRun("wrong");
    const answered = await runs("answer", "wrong", "step:1", "yes");
    expect(answered.code).toBe(2);
    expect(answered.err).toContain('step:1 waits for approval (approve or deny); "answer" does not fit it');
    const approved = await runs("approve", "wrong", "step:2", "step:3");
    expect(approved.code).toBe(2);
    expect(approved.err).toContain('step:3 waits for an answer; "approve" does not fit it');
    expect(approved.err).not.toContain("step:2 waits");
    const shown = await show();
    expect(shown).not.toContain("decision ");
    for (const line of ["step:1 waits for approval", "step:2 waits for approval", "step:3 waits for an answer"])
      expect(shown).toContain(line);
    expect(payments()).toEqual([]);
  });

  it("takes a valid wave, recording who; the same wave again exits 2, and each payment was made once", async () => {
    const { runs, show } = await waitingRun("valid");
    const approved = await runs("approve", "valid", "step:1", "step:2", "--decided-by", "ana");
    expect(approved.code, approved.err).toBe(3);
    expect(payments()).toEqual(["paid 10 valid/1", "paid 20 valid/2"]);
    const again = await runs("approve", "valid", "step:1", "step:2");
    expect(again.code).toBe(2);
    expect(again.err).toContain('the run does not wait for "step:1"');
    const answered = await runs("answer", "valid", "step:3", "EUR");
    expect(answered).toMatchObject({ code: 0 });
    const last = await runs("answer", "valid", "step:3", "EUR");
    expect(last.code).toBe(2);
    expect(last.err).toContain("the run has finished (completed); it waits for nothing");
    expect(payments()).toEqual(["paid 10 valid/1", "paid 20 valid/2"]);
    expect(await show()).toContain("decision step:1: approved");
    const { sqliteStore } = await import("planloop/sqlite");
    const store = sqliteStore({ path: join(dir, "valid.sqlite") });
    const kept = (await store.getRun("valid"))!.journal.flatMap((entry) => (entry.kind === "human-decision" ? [[entry.id, entry.by]] : []));
    await store.close();
    expect(kept).toEqual([
      ["step:1", "ana"],
      ["step:2", "ana"],
      ["step:3", "planloop runs"],
    ]);
  });
});

describe("the ui's decisions, as the command it runs (outside review of issue 53)", () => {
  it("an answer that starts with '-' is taken as the answer, not read as an option", async () => {
    const { continuing } = await import("../../src/cli/commands/ui-command.js");
    const store = `sqlite:${join(dir, "dash.sqlite")}`;
    const onePlan = join(dir, "ask.json");
    writeFileSync(onePlan, JSON.stringify({ steps: [{ id: 1, task: "ask", tool: "ask_user", args: { question: "Flags?" } }] }));
    expect((await cli("run", onePlan, "--tools", tools, "--store", store, "--run-id", "dash")).code).toBe(3);
    const ran: string[][] = [];
    const io = { out: () => {}, err: () => {}, exitCode: () => {} } as never;
    const rerun = async (argv: string[]) => {
      ran.push(argv);
      expect((await cli(...argv)).code).toBe(0);
    };
    await continuing(rerun as never, io, { store, tools })({
      runId: "dash",
      decision: { pendingId: "step:1", action: "answer", text: "--help" },
    });
    expect(ran[0]!.slice(-2)).toEqual(["--", "--help"]);
    const shown = (await cli("runs", "show", "dash", "--store", store)).out;
    expect(shown).toContain("completed");
    expect(shown).toContain(`decision step:1: answered "--help"`);
  });
});

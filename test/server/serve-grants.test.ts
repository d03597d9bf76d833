// Standing grants applied by planloop serve to runs started from the command line: a grant of
// scope "schedule" approves the pay calls of every run of that schedule (this one and the next),
// never another schedule's, and never a run that only looks like one: which schedule started a
// run is its recorded origin (what serve passes a schedule's launch), not the text of its id.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { addGrant } from "../../src/runs/standing-grants.js";
import { cli } from "../helpers/run-cli.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { until } from "../helpers/call-log.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "ui-tools.ts");
const started: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});

describe("planloop serve applies standing grants", () => {
  it("a schedule's grant approves its runs' calls, this one and the next; another schedule's run still waits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-grants-"));
    const file = join(dir, "runs.sqlite");
    const store = `sqlite:${file}`;
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    process.env.PLANLOOP_TEST_LOG = log;
    const plan = join(dir, "pay.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 5 } }] }));
    // How planloop serve starts a schedule's run: the fire's id, and the schedule kept as its origin.
    const start = (runId: string) => {
      const [name, iso] = runId.split("@") as [string, string];
      const fire = JSON.stringify({ name, fireAt: Date.parse(iso) });
      return cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", runId, "--schedule-fire", fire);
    };
    expect((await start("weekly@2026-12-07T08:00:00.000Z")).code).toBe(3);
    expect((await start("monthly@2026-12-01T08:00:00.000Z")).code).toBe(3);
    // A run named like the schedule's is refused; one under another name is the person's own, not the schedule's.
    const named = (runId: string) => cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", runId);
    expect(await named("weekly@2026-12-21T08:00:00.000Z")).toMatchObject({ code: 2, err: expect.stringMatching(/cannot name a new run/) });
    expect((await named("weekly-lookalike")).code).toBe(3);
    const kept = sqliteStore({ path: file });
    await addGrant(kept, "weekly@2026-12-07T08:00:00.000Z", {
      tool: "pay",
      scope: "schedule",
      expiresInMs: 3_600_000,
      by: "alice",
      at: Date.now(),
    });
    await kept.close();

    const serve = startCli(["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100"], { PLANLOOP_TEST_LOG: log });
    started.push(serve);
    await serve.line(/^run weekly@2026-12-07T08:00:00\.000Z: a standing grant approves step:1; continuing it$/);
    const paid = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
    await until(() => paid().length === 1);
    // The schedule's next run is covered too.
    expect((await start("weekly@2026-12-14T08:00:00.000Z")).code).toBe(3);
    await until(() => paid().length === 2);
    expect(paid().sort()).toEqual(["paid 5 weekly@2026-12-07T08:00:00.000Z/1", "paid 5 weekly@2026-12-14T08:00:00.000Z/1"]);
    expect(await serve.stop("SIGINT")).toBe(0);
    expect((await cli("runs", "show", "monthly@2026-12-01T08:00:00.000Z", "--store", store)).out).toMatch(/waiting/);
    expect((await cli("runs", "show", "weekly-lookalike", "--store", store)).out).toMatch(/waiting/);
    expect((await cli("runs", "list", "--schedule", "weekly", "--store", store)).out).toMatch(
      /^weekly@2026-12-14T08:00:00\.000Z .*\nweekly@2026-12-07T08:00:00\.000Z /,
    );
    // Each decision says whose grant made it.
    const reading = sqliteStore({ path: file });
    const decided = (await reading.getRun("weekly@2026-12-14T08:00:00.000Z"))!.journal.filter((entry) => entry.kind === "human-decision");
    await reading.close();
    expect(decided).toMatchObject([{ id: "step:1", decision: { approved: true }, by: "standing grant of alice" }]);
  });
});

// `planloop serve` in processes of its own: it finishes a run whose own process exited while it
// waited, continues a run whose serve was killed between the wake and the step (re-running
// nothing that finished), and two of them on one store start each scheduled run once.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { lines, logFile, until } from "../helpers/call-log.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const started: CliProcess[] = [];

function serve(store: string, log: string, ...flags: string[]): CliProcess {
  const process = startCli(["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100", ...flags], { PLANLOOP_TEST_LOG: log });
  started.push(process);
  return process;
}

function waitingPlan(dir: string, reportMs: number): string {
  const plan = join(dir, "plan.json");
  writeFileSync(
    plan,
    JSON.stringify({
      steps: [
        { id: 1, task: "pull", tool: "note", args: { text: "pull", ms: 0 } },
        { id: 2, task: "a second", wait: { forMs: 1000 }, depends_on: [1] },
        { id: 3, task: "report", tool: "note", args: { text: "report", ms: reportMs }, depends_on: [2] },
      ],
    }),
  );
  return plan;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});

describe("planloop serve", () => {
  it("finishes a run whose process exited while it waited; Ctrl-C stops it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-serve-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const log = logFile();
    process.env.PLANLOOP_TEST_LOG = log;
    const waiting = await cli("run", waitingPlan(dir, 0), "--tools", toolsModule, "--store", store, "--run-id", "weekly");
    expect(waiting.code).toBe(3);
    expect(waiting.out).toMatch(/step 2 waits until .*: planloop runs wake --store/);

    const server = serve(store, log);
    expect(await server.line(/^planloop serve: /)).toMatch(/wakes waiting runs, starts 0 schedules, .* every 100 ms/);
    await server.line(/^run weekly: its wait is over; continuing it$/);
    // The continued run's own lines, each after its run's id: runs go on side by side.
    await server.line(/^run weekly: output: report$/);
    expect(await server.stop("SIGINT")).toBe(0);
    expect(server.lines).toContain("planloop serve: stopped");
    expect(lines(log)).toEqual(["pull weekly/1", "report weekly/3"]);
    expect((await cli("runs", "show", "weekly", "--store", store)).out).toContain("result: completed");
  });

  it("continues a run whose serve was killed between the wake and the step; the steps that finished do not run again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-serve-kill-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const log = logFile();
    process.env.PLANLOOP_TEST_LOG = log;
    expect((await cli("run", waitingPlan(dir, 60_000), "--tools", toolsModule, "--store", store, "--run-id", "killed")).code).toBe(3);

    const first = serve(store, log);
    await first.line(/^run killed: its wait is over; continuing it$/);
    await until(() => lines(log).includes("report killed/3"));
    expect(await first.stop("SIGKILL")).toBe("SIGKILL");

    // A serve on this host sees the killed one's lease as gone; the note is a read, so the step it cut off runs again.
    process.env.PLANLOOP_TEST_MS = "0";
    const second = serve(store, log, "--orphan-after-ms", "200");
    await second.line(/^run killed: its owner is gone; continuing it$/);
    await second.line(/^run killed: output: report$/);
    delete process.env.PLANLOOP_TEST_MS;
    expect(lines(log)).toEqual(["pull killed/1", "report killed/3", "report killed/3"]);
    const shown = (await cli("runs", "show", "killed", "--store", store)).out;
    expect(shown).toContain("result: completed");
    expect(shown).toContain("step 1: succeeded (started 1x)");
  });

  it("two serve processes on one store start each scheduled run once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-serve-two-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const log = logFile();
    const plan = join(dir, "tick.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "tick", tool: "note", args: { text: "tick", ms: 0 } }] }));
    const added = await cli("schedules", "add", "tick", "--cron", "* * * * * *", "--plan", plan, "--tools", toolsModule, "--store", store);
    expect(added).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^schedule tick: "\* \* \* \* \* \*", next at .*; planloop serve starts it\n$/),
    });

    const servers = [serve(store, log), serve(store, log)];
    await Promise.all(servers.map((server) => server.line(/^planloop serve: .*starts 1 schedules/)));
    await until(() => lines(log).length >= 4);
    await Promise.all(servers.map((server) => server.stop("SIGINT")));

    const keys = lines(log).map((line) => line.split(" ")[1]!);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^tick@\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z\/1$/);
    const runs = (await cli("runs", "list", "--schedule", "tick", "--limit", "100", "--store", store)).out.trim().split("\n");
    // A run the Ctrl-C cut off before its step is listed with no line in the log: every logged run is listed.
    expect(runs.map((line) => line.split("  ")[0])).toEqual(expect.arrayContaining(keys.map((key) => key.slice(0, -"/1".length))));
    for (const line of runs) expect(line).toMatch(/^tick@\S+ {2}executePlan {2}/);
    expect((await cli("runs", "list", "--schedule", "tock", "--store", store)).out).toBe(`no runs in ${store} that match\n`);
    const listed = (await cli("schedules", "list", "--store", store)).out;
    expect(listed).toMatch(/^tick {2}"\* \* \* \* \* \*" {2}run .*tick\.json {2}next .* {2}last tick@.* {2}overlap skip\n$/);
  });
});

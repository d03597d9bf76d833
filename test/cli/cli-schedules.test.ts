// `planloop schedules …`: what a person types to keep schedules in a store, and the errors a mistyped one gets.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listSchedules, runSchedules, saveSchedule } from "planloop";
import { FakeClock } from "planloop/testing";
import { sqliteStore } from "planloop/sqlite";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const modelModule = join(testRoot, "fixtures", "scripted-model.mjs");

describe("planloop schedules", () => {
  it("add, list, pause, resume and remove schedules kept in the store, with the command line each starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-schedules-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const plan = join(dir, "weekly.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 2 } }] }));
    // Nothing kept there yet: a store to read that is not there is named, not made empty.
    expect((await cli("schedules", "list", "--store", store)).err).toContain(`no store at ${join(dir, "runs.sqlite")}`);
    await sqliteStore({ path: join(dir, "runs.sqlite") }).close();
    expect((await cli("schedules", "list", "--store", store)).out).toBe(`no schedules in ${store}: add one with planloop schedules add\n`);

    const weekly = ["--cron", "0 8 * * MON", "--tz", "Europe/Berlin", "--plan", plan, "--tools", toolsModule, "--store", store];
    expect((await cli("schedules", "add", "weekly", ...weekly)).out).toMatch(
      /^schedule weekly: "0 8 \* \* MON" \(Europe\/Berlin\), next at \d{4}-\d\d-\d\dT07:00:00\.000Z; planloop serve starts it\n$/,
    );
    const task = [
      "--cron",
      "0 6 * * *",
      "--task",
      "summarise the tickets",
      "--model",
      modelModule,
      "--overlap",
      "allow",
      "--catch-up",
      "3",
    ];
    expect((await cli("schedules", "add", "daily", ...task, "--store", store)).code).toBe(0);

    const opened = sqliteStore({ path: join(dir, "runs.sqlite") });
    const kept = await listSchedules(opened);
    await opened.close();
    expect(kept).toEqual([
      expect.objectContaining({
        name: "daily",
        overlap: "allow",
        catchUp: 3,
        run: {
          argv: ["ask", "summarise the tickets", "--strategy", "plan-and-execute", "--model", modelModule, "--plan-cache"],
          cwd: process.cwd(),
        },
      }),
      expect.objectContaining({
        name: "weekly",
        tz: "Europe/Berlin",
        run: { argv: ["run", plan, "--tools", toolsModule], cwd: process.cwd() },
      }),
    ]);

    expect((await cli("schedules", "pause", "weekly", "--store", store)).out).toBe("schedule weekly: paused\n");
    expect((await cli("schedules", "list", "--store", store)).out.split("\n")[1]).toMatch(
      /^weekly {2}"0 8 \* \* MON" Europe\/Berlin {2}run .* {2}paused {2}no run yet/,
    );
    expect((await cli("schedules", "resume", "weekly", "--store", store)).out).toContain("resumed");
    expect((await cli("schedules", "remove", "daily", "--store", store)).out).toBe("schedule daily: removed\n");
    const gone = await cli("schedules", "remove", "daily", "--store", store);
    expect(gone).toMatchObject({ code: 2, err: expect.stringContaining('there is no schedule "daily"; the schedules are weekly') });
  });

  it.each([
    [["--task", "x", "--model", "./no-such-model.mjs"], /cannot load the model from \.\/no-such-model\.mjs/],
    [
      ["--task", "x", "--model", "openai:gpt-4.1-mini", "--api-key-env", "PLANLOOP_TEST_NO_SUCH_KEY"],
      /needs an API key in PLANLOOP_TEST_NO_SUCH_KEY/,
    ],
    [["--task", "x", "--model", modelModule, "--tools", "./no-such-tools.mjs"], /cannot load tools from \.\/no-such-tools\.mjs/],
    [["--plan", "wrong-tool.json", "--tools", toolsModule], /--plan wrong-tool\.json: the plan is invalid: .*"mail"/],
  ])("check at add what the runs would load, refusing %j", async (flags, message) => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-schedules-load-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    writeFileSync("wrong-tool.json", JSON.stringify({ steps: [{ id: 1, task: "mail it", tool: "mail", args: {} }] }));
    try {
      const added = await cli("schedules", "add", "bad", "--cron", "0 8 * * *", ...flags, "--store", store);
      expect(added.err).toMatch(message);
      expect(added.code).toBe(2);
    } finally {
      rmSync("wrong-tool.json");
    }
  });

  it("list a schedule's last run and how it stands: one that could not start says why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-schedules-failed-"));
    const path = join(dir, "runs.sqlite");
    const store = sqliteStore({ path });
    const clock = new FakeClock(Date.parse("2026-12-07T00:30:00Z"));
    await saveSchedule(store, { name: "digest", cron: "0 * * * *", run: null }, clock);
    await clock.advance(3_600_000);
    await runSchedules({ store, clock, launch: () => Promise.reject(new Error("no key in OPENAI_API_KEY")) });
    await store.close();
    const listed = await cli("schedules", "list", "--store", `sqlite:${path}`);
    expect(listed.err).toBe("");
    expect(listed.out).toContain(
      "last digest@2026-12-07T01:00:00.000Z (failed: schedule digest could not start its run: no key in OPENAI_API_KEY)",
    );
    const runs = await cli("runs", "list", "--store", `sqlite:${path}`);
    expect(runs.out).toMatch(/digest@2026-12-07T01:00:00\.000Z.*failed/);
  });

  it.each([
    [["--cron", "0 8 * *", "--task", "x", "--model", "m.mjs"], /cron "0 8 \* \*" cannot be read/],
    [["--cron", "0 8 * * *", "--tz", "Berlin/Nowhere", "--task", "x", "--model", "m.mjs"], /"Berlin\/Nowhere" is not a time zone/],
    [["--cron", "0 8 * * *"], /give a schedule --plan <plan\.json> or --task <text>, one of them/],
    [["--cron", "0 8 * * *", "--plan", "missing.json", "--tools", "t.mjs"], /--plan missing\.json: there is no such file/],
    [["--cron", "0 8 * * *", "--task", "x"], /a task's schedule needs --model/],
    [
      ["--cron", "0 8 * * *", "--task", "x", "--model", "m.mjs", "--overlap", "queue"],
      /overlap is skip, allow or cancel-previous, not "queue"/,
    ],
  ])("refuse %j, saying why, and keep nothing", async (flags, message) => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-schedules-bad-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const added = await cli("schedules", "add", "bad", ...flags, "--store", store);
    expect(added.code).toBe(2);
    expect(added.err).toMatch(message);
    // Refused before the store is opened: no store is made for it.
    expect((await cli("schedules", "list", "--store", store)).err).toContain("no store at");
  });
});

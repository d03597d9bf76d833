// `planloop run` of a plan with a waitFor step exits while it waits, holding nothing; `planloop
// runs signal` keeps the event and `planloop runs wake` continues the run, in other processes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

const dir = mkdtempSync(join(tmpdir(), "planloop-cli-waits-"));
const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");

describe("planloop runs signal and wake", () => {
  it("a run waiting for an event exits; the event sent and a wake pass finish it, and nothing that finished runs again", async () => {
    const plan = join(dir, "export.json");
    writeFileSync(
      plan,
      JSON.stringify({
        steps: [
          { id: 1, task: "rows", tool: "double", args: { value: 21 } },
          { id: 2, task: "export landed", waitFor: { event: "export-ready", match: { day: "mon" } } },
          { id: 3, task: "report", tool: "double", args: { value: "$2.rows" }, depends_on: [1, 2] },
        ],
      }),
    );
    const store = `sqlite:${join(dir, "waits.sqlite")}`;
    const waiting = await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", "weekly");
    expect(waiting.code).toBe(3);
    expect(waiting.out).toContain(
      `step 2 waits for event "export-ready" with {"day":"mon"}: planloop runs signal export-ready --data '<json>' --store ${store}`,
    );
    expect((await cli("runs", "wake", "--tools", toolsModule, "--store", store)).out).toContain(`no run in ${store} is due to wake`);

    const bad = await cli("runs", "signal", "export-ready", "--data", "{rows", "--store", store);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain("--data must be JSON");
    const sent = await cli("runs", "signal", "export-ready", "--data", '{"day":"mon","rows":50}', "--id", "x-1", "--store", store);
    expect(sent).toMatchObject({ code: 0, out: expect.stringContaining("event export-ready sent (id x-1") });
    expect((await cli("runs", "signal", "export-ready", "--data", "{}", "--id", "x-1", "--store", store)).out).toContain("was sent before");

    const woken = await cli("runs", "wake", "--tools", toolsModule, "--store", store);
    expect(woken).toMatchObject({ code: 0, out: expect.stringContaining("run weekly: its wait is over; continuing it") });
    expect(woken.out).toContain("output: 100");
    const shown = (await cli("runs", "show", "weekly", "--store", store)).out;
    expect(shown).toContain("result: completed");
    expect(shown.match(/step 1: succeeded/g)).toHaveLength(1);
    expect((await cli("runs", "wake", "--tools", toolsModule, "--store", store)).out).toContain("is due to wake");
  });

  it("an event is keyed by name, id and run: one delivery id sent to two runs reaches both, and another name's id 42 is no duplicate", async () => {
    const plan = join(dir, "keyed.json");
    writeFileSync(
      plan,
      JSON.stringify({
        steps: [
          { id: 1, task: "export landed", waitFor: { event: "export-ready" } },
          { id: 2, task: "report", tool: "double", args: { value: "$1.rows" }, depends_on: [1] },
        ],
      }),
    );
    const store = `sqlite:${join(dir, "keyed.sqlite")}`;
    for (const runId of ["north", "south"])
      expect((await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", runId)).code).toBe(3);
    const signal = (event: string, ...flags: string[]) =>
      cli("runs", "signal", event, "--data", '{"rows":21}', "--id", "42", ...flags, "--store", store);
    expect((await signal("invoice-paid")).out).toContain("event invoice-paid sent (id 42");
    expect((await signal("export-ready", "--run", "north")).out).toContain("event export-ready sent (id 42");
    expect((await signal("export-ready", "--run", "south")).out).toContain("event export-ready sent (id 42");
    expect((await signal("export-ready", "--run", "south")).out).toContain("was sent before");
    const woken = await cli("runs", "wake", "--tools", toolsModule, "--store", store);
    expect(woken.out).toContain("run north: its wait is over");
    expect(woken.out).toContain("run south: its wait is over");
    for (const runId of ["north", "south"]) expect((await cli("runs", "show", runId, "--store", store)).out).toContain("result: completed");
  });
});

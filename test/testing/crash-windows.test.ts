// crashTest's random kills (issue 52): each scenario killed at seeded random moments (a few ms
// after a tool returned, or at a time within the run) and continued until it ends: no call that
// had finished ran again, and no side-effecting call ran again without being asked whether it
// took effect. A fan-out on a store that keeps ends back until a later commit (as planloop did
// before) shows the check finds a step that finished while a sibling ran and ran again.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crashTest, type CrashReport } from "planloop/testing";
import { testRoot } from "../helpers/paths.js";

const fixture = (name: string) => join(testRoot, "fixtures", `${name}.ts`);
const nodeArgs = ["--import", "tsx"];

/** Random kills only (the kill points at commits and calls are crash-helper.test.ts's): one after a return, then a time. */
const randomlyKilled = (name: string, kills: { randomKills: number; seed: number }) =>
  crashTest({ module: fixture(name), nodeArgs, killPoints: 0, ...kills });

function expectKilledAndClean(report: CrashReport, kills: number) {
  expect(report.problems).toEqual([]);
  expect(report.runs).toHaveLength(kills);
  expect(report.runs[0]!.killedAfterReturn).toBeDefined();
  if (kills > 1) expect(report.runs[1]!.killedAtMs).toBeDefined();
  for (const run of report.runs) expect(run.status).toBe("completed");
}

// Each kill costs two to four child processes of about a second: few kills, chosen by seed.
describe.concurrent("crashTest with random kills", () => {
  it("a fan-out: steps that finished while a sibling ran are not run again", async () => {
    // Seed 3: 14 ms after the second call returned, with two quicker steps done and the slow one running.
    const report = await randomlyKilled("crash-fan-out", { randomKills: 1, seed: 3 });
    expectKilledAndClean(report, 1);
    expect(report.runs[0]!.killedAfterReturn).toEqual({ call: 2, ms: 14 });
  });

  it("a chain: a step runs again only if the kill cut it short, a wire only when asked", async () => {
    expectKilledAndClean(await randomlyKilled("crash-chain", { randomKills: 2, seed: 1 }), 2);
  });

  it("a plan with an approval: the approved send cut short is asked about, not approved again", async () => {
    // Seed 14: both kills in the process that sends: 11 ms after the send returned, then at a time.
    const report = await randomlyKilled("crash-approval", { randomKills: 2, seed: 14 });
    expectKilledAndClean(report, 2);
    expect(report.runs[0]!.killedInProcess).toBe(2);
  });

  it("a ReAct loop: a call that returned while another of its round ran is not run again", async () => {
    // Seed 1: 17 ms after the quick lookup returned, with the wire and the slow lookup running.
    expectKilledAndClean(await randomlyKilled("crash-react", { randomKills: 1, seed: 1 }), 1);
  });

  it("finds a step that finished while a sibling ran and ran again: the store kept its end only with a later commit", async () => {
    // Seed 5: 13 ms after a quick step returned, while the slow one still ran.
    const report = await randomlyKilled("crash-late-ends", { randomKills: 1, seed: 5 });
    expect(report.runs.map((run) => run.killedAfterReturn)).toEqual([{ call: 4, ms: 13 }]);
    expect(report.problems).toContainEqual(
      expect.stringMatching(/returned in process 1, which lived on, and ran again in process \d: its end was not kept$/),
    );
  });
});

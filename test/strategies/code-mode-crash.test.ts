// Code mode killed with SIGKILL (crashTest): after every commit, inside every call (the ones
// after the approval too), and at random moments,
// then continued by id in new processes until it ends. No call that had finished runs again,
// and the side-effecting send runs again only when a person was asked whether it took effect.
// A kept call's end is read from the store (crashTest reads code mode's call ends), so a call
// that ended and ran again is caught even when its process died right after.
import { join } from "node:path";
import { expect, it } from "vitest";
import { crashTest } from "planloop/testing";
import { testRoot } from "../helpers/paths.js";

it("code mode survives SIGKILL anywhere: no finished call runs again, the send is asked about", async () => {
  const report = await crashTest({
    module: join(testRoot, "fixtures", "crash-code-mode.ts"),
    nodeArgs: ["--import", "tsx"],
    killPoints: "every",
    randomKills: 2,
    seed: 7,
  });
  expect(report.problems).toEqual([]);
  expect(report.commitPoints).toBeGreaterThan(3);
  expect(report.runs.length).toBeGreaterThanOrEqual(5);
  for (const run of report.runs) expect(run.status).toBe("completed");
  // Kills landed after the approval was given too (the run's second process): the approved send
  // and the lookups before it still ran once each, and the store's kept ends were checked.
  expect(report.runs.some((run) => run.killedInProcess >= 2)).toBe(true);
  for (const run of report.runs)
    if (run.killedInProcess >= 2)
      expect(
        run.calls
          .filter((call) => call.tool === "lookup")
          .slice(0, 2)
          .map((call) => call.processes),
      ).toEqual([[1], [1]]);
}, 600_000);

// Code mode killed with SIGKILL (crashTest): at commits, inside calls, and at random moments,
// then continued by id in new processes until it ends. No call that had finished runs again,
// and the side-effecting send runs again only when a person was asked whether it took effect.
import { join } from "node:path";
import { expect, it } from "vitest";
import { crashTest } from "planloop/testing";
import { testRoot } from "../helpers/paths.js";

it("code mode survives SIGKILL anywhere: no finished call runs again, the send is asked about", async () => {
  const report = await crashTest({
    module: join(testRoot, "fixtures", "crash-code-mode.ts"),
    nodeArgs: ["--import", "tsx"],
    killPoints: 4,
    randomKills: 2,
    seed: 7,
  });
  expect(report.problems).toEqual([]);
  expect(report.commitPoints).toBeGreaterThan(3);
  expect(report.runs.length).toBeGreaterThanOrEqual(5);
  for (const run of report.runs) expect(run.status).toBe("completed");
});

// A command given decisions for a run that finished between its check and its continuation
// (another face decided it meanwhile) says nothing was decided, and fails: it once exited 0
// printing "completed" while the refund it denied ran (outside review of issue 53).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { continuationLine } from "../../src/cli/continue-run.js";
import type { CliIo } from "../../src/cli/cli-io.js";

const io: CliIo = {
  stdout: new PassThrough() as unknown as NodeJS.WriteStream,
  stderr: new PassThrough() as unknown as NodeJS.WriteStream,
  out: () => {},
  err: () => {},
  exitCode: () => {},
};

describe("continuing a run that finished meanwhile", () => {
  it("refuses decisions it can no longer take, and shows a plain resume as before", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-finished-")), "runs.sqlite");
    const store = sqliteStore({ path });
    await executePlan({ plan: { steps: [{ id: 1, task: "wait a moment", wait: { forMs: 0 } }] }, tools: [], store, runId: "done" });
    await executePlan({ plan: { steps: [{ id: 1, task: "wait a moment", wait: { forMs: 0 } }] }, tools: [], store, runId: "done" });
    expect((await store.getRun("done"))?.status).toBe("finished");
    await store.close();
    const flags = { store: `sqlite:${path}` };
    await expect(continuationLine(io, { runId: "done", flags, decisions: ["--deny", "step:1"] })).rejects.toThrow(
      /finished \(completed\) before these decisions were taken: nothing was decided/,
    );
    expect(await continuationLine(io, { runId: "done", flags, decisions: [] })).toBeUndefined();
  });
});

// Two servers over one store asked to start the same new run id at the same moment: exactly
// one answers created (it claims the id in the store), and the run's tool runs once.
import { describe, expect, it } from "vitest";
import { memoryStore } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunHost } from "../../src/runs/run-host.js";
import { refundTool } from "../helpers/refund-tool.js";

describe("RunHost.start", () => {
  for (const [name, open] of [
    ["memory", () => memoryStore()],
    ["SQLite", () => sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-host-")), "runs.sqlite") })],
  ] as const) {
    it(`claims a new run id once across two servers (${name})`, async () => {
      const store = open();
      const { refund, refunds } = refundTool();
      const hosts = [new RunHost({ store, tools: [refund] }), new RunHost({ store, tools: [refund] })];
      const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A7" } }] };
      const answers = await Promise.all(hosts.map((host) => host.start({ plan, runId: "same" })));
      expect(answers.map((answer) => answer.created).sort()).toEqual([false, true]);
      await Promise.all(hosts.map((host) => host.close()));
      // The run the winner started waits for its approval; approved, the refund is made once.
      const winner = hosts[answers.findIndex((answer) => answer.created)]!;
      await (
        await winner.decide("same", { decisions: { pendingId: "step:1", action: "approve" }, by: "test" })
      ).done;
      expect((await store.getRun("same"))?.status).toBe("finished");
      expect(refunds).toEqual(["A7 same/1"]);
      await store.close();
    });
  }
});

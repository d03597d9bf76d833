// A run a run host starts on SQLite is its host's from the commit that creates it: the lease is
// taken in that commit, so the run waiting for its place among the host's runs cannot be taken
// by another process meanwhile, and opening it creates and reads nothing again.
import { describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "../../src/core/tools/define-tool.js";
import { RunBusyError } from "../../src/core/errors.js";
import type { CheckpointStore } from "../../src/journal/checkpoint-store.js";
import { RunLease } from "../../src/journal/run-lease.js";
import { RunHost } from "../../src/runs/run-host.js";

/** The store, logging each call by name and run id (`name:runId`), with whether it came inside a batch. */
function loggedStore(store: CheckpointStore): { store: CheckpointStore; calls: string[] } {
  const calls: string[] = [];
  let inBatch = 0;
  const logged = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const first = args[0];
        const runId = typeof first === "string" ? first : (first as { runId?: string } | undefined)?.runId;
        calls.push(`${inBatch > 0 ? "batched " : ""}${String(key)}:${runId ?? ""}`);
        inBatch += key === "batch" ? 1 : 0;
        try {
          return (value as (...given: unknown[]) => unknown).apply(target, args);
        } finally {
          inBatch -= key === "batch" ? 1 : 0;
        }
      };
    },
  });
  return { store: logged, calls };
}

describe("RunHost.start on SQLite", () => {
  it("takes the run's lease in the commit that creates it, and opens the run without reading it back", async () => {
    const { store, calls } = loggedStore(sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-host-lease-")), "runs.sqlite") }));
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const hold = defineTool({
      name: "hold",
      description: "waits until told",
      input: z.object({}),
      execute: () => held.then(() => "let go"),
    });
    const echo = defineTool({ name: "echo", description: "echo", input: z.object({ text: z.string() }), execute: ({ text }) => text });
    // One run at a time: the second run waits for the first's place, created but not yet running.
    const host = new RunHost({ store, tools: [hold, echo], concurrency: 1 });
    await host.start({ plan: { steps: [{ id: 1, task: "hold", tool: "hold", args: {} }] }, runId: "first" });
    const second = await host.start({ plan: { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] }, runId: "second" });
    expect(second).toEqual({ runId: "second", created: true });
    expect(calls.filter((call) => call.endsWith(":second"))).toEqual([
      "batched createRun:second",
      "batched setValue:planloop:serve:run:second",
      "batched acquireLease:second",
    ]);
    // Waiting for its turn, the run is its host's already: another process asking for it is refused.
    await expect(RunLease.take(store, "second", { lease: { onBusy: "fail" } })).rejects.toBeInstanceOf(RunBusyError);
    const refusedAt = calls.length;
    letGo();
    await host.close();
    const opened = calls.slice(refusedAt).filter((call) => call.endsWith(":second"));
    // Its first write is its plan and step start, under the lease it was created with: no second create, no read back.
    expect(opened[0]).toBe("append:second");
    expect(opened.filter((call) => /^(createRun|getRun|getRunFrom|acquireLease):/.test(call))).toEqual([]);
    expect((await store.getRun("second"))?.result).toMatchObject({ status: "completed", output: "hi" });
    await store.close();
  });
});

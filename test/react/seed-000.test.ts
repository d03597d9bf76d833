// Seed 000's reference example, unchanged in meaning, run against the package's public entry.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runAgent } from "planloop";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

describe("seed 000", () => {
  it("completes after one tool round and returns the seed's shapes", async () => {
    let calls = 0;
    const model = async () =>
      ++calls === 1
        ? { type: "tool_calls" as const, calls: [{ id: "t1", name: "clock", arguments: {} }] }
        : { type: "final" as const, content: "done" };
    const result = await runAgent({
      model,
      toolExecutor: { execute: async () => ({ ok: true, output: "12:00" }) },
    });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("done");
    expect(result.messages[1]?.role).toBe("tool");
    expect(result.messages[1]).toMatchObject({ toolCallId: "t1", name: "clock", content: { ok: true, output: "12:00" } });
  });

  it("stops an endless tool loop at maxSteps", async () => {
    const endless = await runAgent({
      model: async () => ({ type: "tool_calls" as const, calls: [{ id: Math.random(), name: "x" }] }),
      toolExecutor: { execute: async () => ({ ok: true }) },
      maxSteps: 2,
    });
    expect(endless.status).toBe("max_steps_exceeded");
    expect(endless.steps).toBe(2);
  });

  it("rejects invalid options with a TypeError and a response with no action", async () => {
    await expect(runAgent({ model: "gpt" as never, toolExecutor: { execute: async () => 1 } })).rejects.toThrow(TypeError);
    await expect(runAgent({ model: async () => ({}) as never, toolExecutor: { execute: async () => 1 } })).rejects.toThrow();
  });

  const shared = sharedPath("checks", "seed-000.mts");
  it.skipIf(skipWithout(shared))("passes the shared seed check script (needs ../shared/checks)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", shared], { cwd: process.cwd() });
    expect(stdout).toContain("seed 000: 1 passed, 0 failed");
  });
});

import { describe, expect, it } from "vitest";
import { runProgram } from "./run-program.js";
import { CpuMeter, readSandboxLimits } from "./sandbox-limits.js";

const noTools = { tools: [], call: async () => ({ value: null }) };

describe("the sandbox's limits", () => {
  it("stops a loop that never awaits once its time slice is spent", async () => {
    const outcome = await runProgram({ source: "for (;;) {}", ...noTools, limits: { sliceMs: 50 } });
    expect(outcome).toMatchObject({ kind: "failed", error: { kind: "slice" } });
  });

  it("stops a loop that awaits forever at its CPU limit, and the host's event loop keeps turning", async () => {
    // Counted, not timed: a sandbox that held the loop for its two seconds would let it turn once
    // or twice; the time slice gives it a turn at least every slice (the machine may be busy, so
    // no gap is measured).
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const outcome = await runProgram({
      source: "let n = 0; for (;;) { n += 1; if (n % 100 === 0) await null; }",
      ...noTools,
      limits: { cpuMs: 2_000, sliceMs: 100 },
    });
    ticking = false;
    expect(outcome).toMatchObject({ kind: "failed", error: { kind: "cpu" } });
    expect(outcome.cpuMs).toBeGreaterThanOrEqual(2_000);
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it("stops a huge allocation at the memory limit, also when the program catches and tries again", async () => {
    const limits = { memoryBytes: 8 * 1024 * 1024, sliceMs: 5_000 };
    const buffer = await runProgram({ source: "return new ArrayBuffer(1e9).byteLength;", ...noTools, limits });
    expect(buffer).toMatchObject({ kind: "failed", error: { kind: "memory" } });
    const growing = await runProgram({ source: "const rows = []; for (;;) rows.push({ a: [1, 2, 3], b: 'row' });", ...noTools, limits });
    expect(growing).toMatchObject({ kind: "failed", error: { kind: "memory" } });
    const stubborn = await runProgram({
      source:
        "let kept = []; for (let i = 0; i < 50; i++) { try { for (;;) kept.push('x'.repeat(1000) + i); } catch { kept.length = kept.length / 2; } } return kept.length;",
      ...noTools,
      limits,
    });
    // Caught, the failure is the program's to handle: it never held more than the limit.
    expect(["returned", "failed"]).toContain(stubborn.kind);
  });

  it("stops deep recursion inside the guest, before the host's stack", async () => {
    const outcome = await runProgram({ source: "function down(n) { return down(n + 1) + 1; } return down(0);", ...noTools });
    expect(outcome).toMatchObject({ kind: "failed", error: { kind: "memory", message: expect.stringContaining("stack overflow") } });
    // The runtime is whole afterwards: the next program runs.
    expect(await runProgram({ source: "return 2 + 2;", ...noTools })).toMatchObject({ kind: "returned", value: 4 });
  });

  it("stops at once when the signal aborts in the middle of a computation", async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    const aborted = await runProgram({
      source: "for (;;) { await null; }",
      ...noTools,
      signal: controller.signal,
      limits: { cpuMs: 20_000 },
    });
    expect(aborted.kind).toBe("stopped");
  });

  it("counts only the guest's time, slice by slice (a meter on a fake clock)", () => {
    let now = 0;
    const meter = new CpuMeter({ cpuMs: 100, sliceMs: 30 }, [() => now], undefined);
    meter.enter();
    now = 500; // setting up: not counted
    expect(meter.interrupted()).toBe(false);
    meter.leave();
    meter.arm();
    meter.enter();
    now = 520;
    expect(meter.interrupted()).toBe(false);
    meter.leave();
    expect(meter.spentMs).toBe(20);
    now = 1_000; // the host's time: awaiting a tool
    meter.startSlice();
    meter.enter();
    now = 1_031;
    expect(meter.interrupted()).toBe(true);
    expect(meter.reason).toBe("slice");
    expect(() => readSandboxLimits({ cpuMs: 0 })).toThrow(/cpuMs must be a positive number/);
    // Two clocks: a span lasts the least either says (the wall ran on while the process was set aside).
    let wall = 0;
    let cpu = 0;
    const both = new CpuMeter({ cpuMs: 100, sliceMs: 30 }, [() => wall, () => cpu], undefined);
    both.arm();
    both.enter();
    wall = 500;
    cpu = 10;
    expect(both.interrupted()).toBe(false);
    cpu = 40;
    expect(both.interrupted()).toBe(true);
    expect(both.reason).toBe("slice");
  });
});

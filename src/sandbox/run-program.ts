import { performance } from "node:perf_hooks";
import type { QuickJSHandle, QuickJSSyncVariant, QuickJSWASMModule } from "quickjs-emscripten-core";
import { GuestBridge, type GuestResult } from "./guest-bridge.js";
import type { HostCall, HostReply, ProgramError, ProgramOutcome } from "./program-outcome.js";
import { CpuMeter, readSandboxLimits, type SandboxLimits } from "./sandbox-limits.js";

export interface RunProgramOptions {
  /** The body of an async function: it awaits `tools.<name>(args)` and `return`s its result. */
  source: string;
  /** The names the program may call as `tools.<name>(args)`; nothing else reaches the host. */
  tools: readonly string[];
  /** Answers one tool call. Never called for a name outside `tools`. */
  call(call: HostCall): Promise<HostReply>;
  limits?: Partial<SandboxLimits> | undefined;
  /** What the program's `Date` says, in ms since 1970; default 0 (the program cannot read the host's clock). */
  now?: number | undefined;
  /** Seeds the program's `Math.random`; default 1. */
  seed?: number | undefined;
  /** Stops the program (at its next instruction, or while it awaits). */
  signal?: AbortSignal | undefined;
  /** Measure computing time for the limits, in ms (a span lasts the least they say); default wall time and the process's CPU time. */
  cpuClocks?: ReadonlyArray<() => number> | undefined;
}

/** The process's CPU time in ms (all its threads: see `CpuMeter` for why wall time is read too). */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** How the program ended, before its logs and time are added. */
type Ending =
  | { kind: "returned"; value: unknown }
  | { kind: "failed"; error: ProgramError }
  | { kind: "suspended" }
  | { kind: "stopped"; reason: string };

let loading: Promise<QuickJSWASMModule> | undefined;

/** The QuickJS WebAssembly module, loaded on first use: a program that never runs code mode pays nothing for it. */
function quickJs(): Promise<QuickJSWASMModule> {
  loading ??= Promise.all([import("quickjs-emscripten-core"), import("@jitl/quickjs-wasmfile-release-sync")]).then(([core, variant]) =>
    // The package's types are read as CommonJS; loaded as ESM, its default export is the variant.
    core.newQuickJSWASMModuleFromVariant(variant.default as unknown as QuickJSSyncVariant),
  );
  return loading;
}

/**
 * Runs an untrusted program in a QuickJS/WebAssembly sandbox of its own: its only way out is
 * `tools.<name>(args)`, answered by `call`; it gets no `process`, `require`, `import()`,
 * timers, network or host object. Its `Date` stands still at `now` and its `Math.random` is
 * seeded, so the same answers make the same program go the same way. It is stopped past its
 * CPU time, memory, stack or output limits, and never holds the host's event loop for longer
 * than `sliceMs`. Never throws for anything the program does: every ending is an outcome.
 *
 * @example
 * const outcome = await runProgram({
 *   source: "const [a, b] = await Promise.all([tools.add({ x: 1, y: 2 }), tools.add({ x: 3, y: 4 })]); return a + b;",
 *   tools: ["add"],
 *   call: async ({ args }) => ({ value: (args as { x: number; y: number }).x + (args as { x: number; y: number }).y }),
 * });
 */
export async function runProgram(options: RunProgramOptions): Promise<ProgramOutcome> {
  const limits = readSandboxLimits(options.limits);
  const module = await quickJs();
  const meter = new CpuMeter(limits, options.cpuClocks ?? [() => performance.now(), processCpuMs], options.signal);
  let wake: (() => void) | undefined;
  const known = new Set(options.tools);
  const bridge = new GuestBridge(module, {
    limits,
    meter,
    tools: options.tools,
    now: options.now ?? 0,
    seed: options.seed ?? 1,
    call: (call) =>
      known.has(call.name) ? options.call(call) : Promise.resolve({ error: { message: `there is no tool "${call.name}"` } }),
    wake: () => wake?.(),
  });
  const ended = (fields: Ending): ProgramOutcome => ({
    ...fields,
    logs: bridge.logsOverflowed ? [...bridge.logs, `… logs past ${limits.outputChars} characters were dropped`] : bridge.logs,
    cpuMs: Math.round(meter.spentMs),
  });
  try {
    const started = bridge.start(options.source);
    if (!started.ok) return ended(failedStart(started, meter, limits));
    const waitForHost = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          options.signal?.removeEventListener("abort", done);
          wake = undefined;
          resolve();
        };
        wake = done;
        options.signal?.addEventListener("abort", done, { once: true });
      });
    const ending = await drive(bridge, { promise: started.value, meter, limits, signal: options.signal, waitForHost });
    await bridge.settleHost(options.signal);
    return ended(ending);
  } finally {
    wake = undefined;
    bridge.dispose();
  }
}

/**
 * The program's life after its first stretch: pass in the host's answers, run the guest's
 * jobs a slice at a time (the host gets a turn between slices), and wait for the host when
 * the guest waits for it. Ends when the program's promise settles, the host stops it, or
 * nothing can move any more.
 */
async function drive(
  bridge: GuestBridge,
  run: {
    promise: QuickJSHandle;
    meter: CpuMeter;
    limits: SandboxLimits;
    signal: AbortSignal | undefined;
    waitForHost: () => Promise<void>;
  },
): Promise<Ending> {
  const { meter, limits } = run;
  for (;;) {
    if (run.signal?.aborted) return { kind: "stopped", reason: "the run stopped while the program ran" };
    const stopped = bridge.deliverAnswers();
    if (stopped) return { kind: "stopped", reason: stopped.stop };
    while (bridge.hasJob && !meter.sliceSpent()) {
      const ran = bridge.runJob();
      if (!ran.ok) return failure(ran, meter, limits);
    }
    const settled = bridge.settled(run.promise);
    if (settled !== "pending") return finished(settled, bridge, limits, meter);
    if (bridge.hasJob) {
      // The slice is spent: the host's own work goes first, then the guest continues.
      await new Promise<void>((resolve) => setImmediate(resolve));
      meter.startSlice();
      continue;
    }
    if (bridge.busy > 0) {
      const next = run.waitForHost();
      // An answer may have come in while the guest ran: look again before sleeping.
      if (bridge.busy > 0 && !bridge.hasAnswers) await next;
      meter.startSlice();
      continue;
    }
    if (bridge.hasAnswers) continue;
    if (bridge.parked > 0) return { kind: "suspended" };
    return { kind: "failed", error: { kind: "stalled", message: "the program awaits a promise that nothing will ever settle" } };
  }
}

function finished(settled: GuestResult<string | number>, bridge: GuestBridge, limits: SandboxLimits, meter: CpuMeter): Ending {
  if (!settled.ok) return failure(settled, meter, limits);
  if (typeof settled.value === "number") {
    return {
      kind: "failed",
      error: { kind: "output", message: `the result is ${settled.value} characters of JSON; the limit is ${limits.outputChars}` },
    };
  }
  if (bridge.logsOverflowed)
    return { kind: "failed", error: { kind: "output", message: `the program logged more than ${limits.outputChars} characters` } };
  return { kind: "returned", value: JSON.parse(settled.value) as unknown };
}

function failedStart(started: Extract<GuestResult<unknown>, { ok: false }>, meter: CpuMeter, limits: SandboxLimits): Ending {
  if (!started.interrupted && started.message.startsWith("SyntaxError"))
    return { kind: "failed", error: { kind: "syntax", message: started.message } };
  return failure(started, meter, limits);
}

/** A failure as the program's author reads it: what limit it hit, or what it threw. */
function failure(failed: Extract<GuestResult<unknown>, { ok: false }>, meter: CpuMeter, limits: SandboxLimits): Ending {
  if (failed.interrupted || meter.reason !== undefined) {
    switch (meter.reason) {
      case "aborted":
        return { kind: "stopped", reason: "the run stopped while the program ran" };
      case "slice":
        return {
          kind: "failed",
          error: {
            kind: "slice",
            message: `the program held the event loop for more than ${limits.sliceMs} ms without awaiting (its time slice); await between parts of long work`,
          },
        };
      default:
        return { kind: "failed", error: { kind: "cpu", message: `the program computed for more than ${limits.cpuMs} ms in all` } };
    }
  }
  if (/^(InternalError|RangeError): (out of memory|stack overflow|Maximum call stack)/.test(failed.message))
    return { kind: "failed", error: { kind: "memory", message: failed.message } };
  return { kind: "failed", error: { kind: "thrown", message: failed.message } };
}

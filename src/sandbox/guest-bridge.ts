import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import { guestPrelude } from "./guest-prelude.js";
import type { HostCall, HostReply } from "./program-outcome.js";
import type { CpuMeter, SandboxLimits } from "./sandbox-limits.js";

/** A tool call the guest made and the host has not answered yet. */
interface OpenCall {
  deferred: QuickJSDeferredPromise;
  reply: HostReply | undefined;
}

/** What the guest's helpers gave back: a value, or the guest's error (described). */
export type GuestResult<T> = { ok: true; value: T } | { ok: false; message: string; interrupted: boolean };

/**
 * One QuickJS runtime and context with the prelude in it, and every crossing between host and
 * guest: only strings and numbers cross (JSON in both directions), so no host object, function
 * or prototype is ever reachable from the program. Every call into the guest goes through
 * `enter`, so the meter counts it and the interrupt handler can stop it. `dispose` frees all.
 */
export class GuestBridge {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly handles: QuickJSHandle[] = [];
  private readonly helpers: { compile: QuickJSHandle; result: QuickJSHandle; describe: QuickJSHandle; parse: QuickJSHandle };
  private readonly open = new Set<OpenCall>();
  /** Calls answered by the host and not yet passed to the guest, in the order they were answered. */
  private readonly answered: OpenCall[] = [];
  /** The host's answers still being made. */
  private readonly answering = new Set<Promise<void>>();
  /** Calls the host parked (they wait for a person). */
  parked = 0;
  readonly logs: string[] = [];
  logChars = 0;
  logsOverflowed = false;

  constructor(
    module: QuickJSWASMModule,
    private readonly setup: {
      limits: SandboxLimits;
      meter: CpuMeter;
      tools: readonly string[];
      now: number;
      seed: number;
      call: (call: HostCall) => Promise<HostReply>;
      /** Told when a host call settles, so the driver can wake. */
      wake: () => void;
    },
  ) {
    this.runtime = module.newRuntime();
    this.runtime.setMemoryLimit(setup.limits.memoryBytes);
    this.runtime.setMaxStackSize(setup.limits.stackBytes);
    this.runtime.setInterruptHandler(() => setup.meter.interrupted());
    this.context = this.runtime.newContext();
    try {
      this.helpers = this.loadPrelude();
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }

  private loadPrelude(): GuestBridge["helpers"] {
    const { context, setup } = this;
    const hostCall = this.keep(context.newFunction("hostCall", (name, args) => this.hostCall(name, args)));
    const hostLog = this.keep(context.newFunction("hostLog", (line) => void this.hostLog(line)));
    const settings = JSON.stringify({ names: setup.tools, now: setup.now, seed: setup.seed, maxChars: setup.limits.outputChars });
    const made = this.enter(() => context.evalCode(guestPrelude, "prelude.js"));
    const prelude = this.keep(context.unwrapResult(made));
    const settingsText = this.keep(context.newString(settings));
    const helpers = this.keep(
      context.unwrapResult(this.enter(() => context.callFunction(prelude, context.undefined, hostCall, hostLog, settingsText))),
    );
    const json = this.keep(context.getProp(context.global, "JSON"));
    return {
      compile: this.keep(context.getProp(helpers, "compile")),
      result: this.keep(context.getProp(helpers, "result")),
      describe: this.keep(context.getProp(helpers, "describe")),
      // Taken before the program runs: whatever it does to JSON later, this is the original.
      parse: this.keep(context.getProp(json, "parse")),
    };
  }

  /** Runs `work` inside the guest, counted by the meter. */
  private enter<T>(work: () => T): T {
    this.setup.meter.enter();
    try {
      return work();
    } finally {
      this.setup.meter.leave();
    }
  }

  private hostLog(line: QuickJSHandle): void {
    const text = this.context.getString(line);
    if (this.logsOverflowed) return;
    if (this.logChars + text.length > this.setup.limits.outputChars) {
      this.logsOverflowed = true;
      return;
    }
    this.logChars += text.length;
    this.logs.push(text);
  }

  private hostCall(nameHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
    const name = this.context.getString(nameHandle);
    const args: unknown = JSON.parse(this.context.getString(argsHandle));
    const deferred = this.context.newPromise();
    const open: OpenCall = { deferred, reply: undefined };
    this.open.add(open);
    const settle = (reply: HostReply) => {
      if (!this.open.has(open)) return;
      open.reply = reply;
      this.answered.push(open);
      this.setup.wake();
    };
    // Started after the guest's stretch, not inside it: the host's work (guards, events, listeners) is not the program's time.
    const answering = Promise.resolve()
      .then(() => this.setup.call({ name, args }))
      .then(settle, (error: unknown) => settle({ error: { message: `the host failed: ${String(error)}` } }));
    this.answering.add(answering);
    void answering.finally(() => this.answering.delete(answering));
    // Handed to the guest, which keeps its own reference; this handle is freed by the caller.
    return deferred.handle;
  }

  /** Whether the host answered calls the guest has not been given yet. */
  get hasAnswers(): boolean {
    return this.answered.length > 0;
  }

  /** Calls the host is still working on (not answered, not parked). */
  get busy(): number {
    return this.open.size - this.answered.length - this.parked;
  }

  /**
   * Passes the host's answers into the guest (resolving or rejecting the program's promises);
   * a `stop` answer is returned instead, and nothing after it is passed.
   */
  deliverAnswers(): { stop: string } | undefined {
    while (this.answered.length > 0) {
      const open = this.answered.shift()!;
      const reply = open.reply!;
      if ("stop" in reply) return { stop: reply.stop };
      if ("park" in reply) {
        this.parked += 1;
        continue;
      }
      this.open.delete(open);
      this.enter(() => this.settle(open.deferred, reply));
      open.deferred.dispose();
    }
    return undefined;
  }

  private settle(
    deferred: QuickJSDeferredPromise,
    reply: { value: unknown } | { error: { message: string; kind?: string | undefined } },
  ): void {
    const { context } = this;
    if ("error" in reply) {
      const error = context.newError({ name: "ToolError", message: reply.error.message });
      if (reply.error.kind !== undefined) context.newString(reply.error.kind).consume((kind) => context.setProp(error, "kind", kind));
      deferred.reject(error);
      error.dispose();
      return;
    }
    const text = context.newString(JSON.stringify(reply.value ?? null));
    const parsed = context.callFunction(this.helpers.parse, context.undefined, text);
    text.dispose();
    if (parsed.error) {
      deferred.reject(parsed.error);
      parsed.error.dispose();
      return;
    }
    deferred.resolve(parsed.value);
    parsed.value.dispose();
  }

  /** Compiles the program as the body of an async function and calls it: its promise, or the syntax error. */
  start(source: string): GuestResult<QuickJSHandle> {
    const { context } = this;
    const text = this.keep(context.newString(source));
    this.setup.meter.arm();
    const compiled = this.enter(() => context.callFunction(this.helpers.compile, context.undefined, text));
    if (compiled.error) return this.failure(compiled.error);
    const main = this.keep(compiled.value);
    const called = this.enter(() => context.callFunction(main, context.undefined));
    if (called.error) return this.failure(called.error);
    return { ok: true, value: this.keep(called.value) };
  }

  /** Runs one pending job (a step of the program after an await); false when there was none. */
  runJob(): GuestResult<boolean> {
    if (!this.runtime.hasPendingJob()) return { ok: true, value: false };
    const ran = this.enter(() => this.runtime.executePendingJobs(1));
    if (ran.error) return this.failure(ran.error);
    return { ok: true, value: true };
  }

  get hasJob(): boolean {
    return this.runtime.hasPendingJob();
  }

  /** The program's promise: still pending, or its result's JSON text (or length, over the limit), or what it threw. */
  settled(promise: QuickJSHandle): "pending" | GuestResult<string | number> {
    const state = this.context.getPromiseState(promise);
    if (state.type === "pending") return "pending";
    if (state.type === "rejected") return this.failure(state.error);
    const text = state.value.consume((value) =>
      this.enter(() => this.context.callFunction(this.helpers.result, this.context.undefined, value)),
    );
    if (text.error) return this.failure(text.error);
    const read = text.value.consume((handle) =>
      this.context.typeof(handle) === "number" ? this.context.getNumber(handle) : this.context.getString(handle),
    );
    return { ok: true, value: read };
  }

  /** What the guest threw, described inside the guest (its getters run there, under the limits). */
  private failure(error: QuickJSHandle): { ok: false; message: string; interrupted: boolean } {
    const interrupted = this.setup.meter.reason !== undefined;
    if (interrupted) {
      error.dispose();
      return { ok: false, message: "interrupted", interrupted };
    }
    const described = this.enter(() => this.context.callFunction(this.helpers.describe, this.context.undefined, error));
    error.dispose();
    if (described.error) {
      described.error.dispose();
      return {
        ok: false,
        message: "the program threw a value that cannot be described",
        interrupted: this.setup.meter.reason !== undefined,
      };
    }
    const message = described.value.consume((handle) =>
      this.context.typeof(handle) === "string" ? this.context.getString(handle) : "the program failed",
    );
    return { ok: false, message, interrupted: false };
  }

  /**
   * Waits until the host has answered every call the program made, even one it no longer
   * waits for (it returned without awaiting it, or was stopped): each call ends, and is kept,
   * before the run goes on. Not past `signal`: a stopped run's calls are the host's to stop.
   */
  async settleHost(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return;
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    signal?.addEventListener("abort", stop, { once: true });
    try {
      while (this.answering.size > 0 && !signal?.aborted) await Promise.race([Promise.all(this.answering), stopped]);
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  }

  /** Frees every handle, the context and the runtime; the host's calls still running are ignored when they answer. */
  dispose(): void {
    for (const open of this.open) open.deferred.dispose();
    this.open.clear();
    for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose();
    this.context.dispose();
    this.runtime.dispose();
  }
}

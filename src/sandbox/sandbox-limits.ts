import { InvalidOptionsError } from "../core/errors.js";

/** What a program may use. Every limit is checked by the sandbox, not asked of the program. */
export interface SandboxLimits {
  /** CPU time the program may compute, summed over all its stretches (time awaiting tools does not count). Default 5,000. */
  cpuMs: number;
  /**
   * The most the program may hold the host's event loop. The host takes its turn after half of
   * it, between the program's steps (from one `await` to the next), so a step of up to half the
   * slice always runs; a longer one may be stopped. Default 100.
   */
  sliceMs: number;
  /** The guest's heap. Default 64 MiB. */
  memoryBytes: number;
  /** The guest's stack: deep recursion fails here, before it can reach the host's. Default 256 KiB. */
  stackBytes: number;
  /** The most characters of the result's JSON, of one tool call's arguments, and of the logs together. Default 100,000. */
  outputChars: number;
}

export const defaultSandboxLimits: Readonly<SandboxLimits> = {
  cpuMs: 5_000,
  sliceMs: 100,
  memoryBytes: 64 * 1024 * 1024,
  // 512 KiB let a deep recursion overflow the host's own stack inside WebAssembly; 256 KiB stops it in the guest.
  stackBytes: 256 * 1024,
  outputChars: 100_000,
};

/** The limits with the defaults filled in; a limit that is not a positive number is a misuse. */
export function readSandboxLimits(given: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...defaultSandboxLimits, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value))
      throw new InvalidOptionsError(`sandbox limit ${name} must be a positive number`);
  }
  return limits;
}

/** Why the interrupt handler stopped the guest. */
export type Interruption = "cpu" | "slice" | "aborted";

/** A moment on every clock a meter reads. */
type Moment = number[];

/**
 * Counts the guest's computing time. `enter` before every call into the guest and `leave`
 * after it; `interrupted` is what the runtime's interrupt handler asks, many times a
 * stretch. The host's time (awaiting tools, other work) is not counted. Given several clocks
 * (wall time and the process's CPU time), a span lasts the least any of them says: a process
 * the machine set aside did not compute (wall time alone would blame the program), and the
 * process's other threads (V8 compiling, collecting) did not hold the event loop (CPU time
 * alone would).
 */
export class CpuMeter {
  private usedMs = 0;
  private enteredAt: Moment | undefined = undefined;
  private sliceStartedAt: Moment;
  /** What stopped the guest, once something has. */
  reason: Interruption | undefined = undefined;
  /** Off while the sandbox sets itself up: only the program's own time counts. */
  private armed = false;

  constructor(
    private readonly limits: Pick<SandboxLimits, "cpuMs" | "sliceMs">,
    private readonly clocks: ReadonlyArray<() => number>,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.sliceStartedAt = this.now();
  }

  private now(): Moment {
    return this.clocks.map((clock) => clock());
  }

  private since(start: Moment): number {
    const now = this.now();
    return Math.min(...now.map((time, index) => time - start[index]!));
  }

  /** The program starts: from here on its time is counted, from a fresh slice. */
  arm(): void {
    this.armed = true;
    this.usedMs = 0;
    this.startSlice();
  }

  enter(): void {
    this.enteredAt = this.now();
  }

  leave(): void {
    if (this.enteredAt === undefined) return;
    this.usedMs += this.since(this.enteredAt);
    this.enteredAt = undefined;
  }

  /** A new slice begins after the host had its turn. */
  startSlice(): void {
    this.sliceStartedAt = this.now();
  }

  /**
   * Whether the host should have its turn before the guest goes on: after half the slice, so
   * that a step of the program that starts just before then still has the other half (the
   * slice is a bound on holding the event loop, not a deadline for the step that meets it).
   */
  sliceSpent(): boolean {
    return this.since(this.sliceStartedAt) >= this.limits.sliceMs / 2;
  }

  get spentMs(): number {
    return this.usedMs + (this.enteredAt === undefined ? 0 : this.since(this.enteredAt));
  }

  /** The interrupt handler's question: stop the guest now? */
  interrupted(): boolean {
    if (this.reason !== undefined) return true;
    if (this.signal?.aborted) this.reason = "aborted";
    else if (!this.armed) return false;
    else if (this.since(this.sliceStartedAt) > this.limits.sliceMs) this.reason = "slice";
    else if (this.spentMs > this.limits.cpuMs) this.reason = "cpu";
    return this.reason !== undefined;
  }
}

// CPU-bound work that grows with a run (checking an answer against 2,000 steps' outputs) must
// not hold the owner's event loop: the lease is renewed by a timer, and a run whose owner
// misses its renewals may be taken over. Such work is written once, as a generator that
// yields between pieces; a pure caller runs it at once, the owner of a run in turns.

/** Work in pieces: a generator that yields between pieces and returns its result. */
export type Stepwise<Result> = Generator<void, Result, void>;

/** Runs stepwise work to its end, without letting go of the event loop. */
export function atOnce<Result>(work: Stepwise<Result>): Result {
  for (;;) {
    const next = work.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs stepwise work, letting the event loop turn (timers, I/O) each time it has held it for
 * `sliceMs` (default 10).
 *
 * @example
 * const report = await inTurns(checkClaimsStepwise(answer, evidence));
 */
export async function inTurns<Result>(work: Stepwise<Result>, options: { sliceMs?: number } = {}): Promise<Result> {
  const sliceMs = options.sliceMs ?? 10;
  let since = performance.now();
  for (;;) {
    const next = work.next();
    if (next.done) return next.value;
    if (performance.now() - since < sliceMs) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  }
}

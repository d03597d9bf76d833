/**
 * Settles with `promise`, or rejects with the signal's reason as soon as the signal aborts,
 * whichever comes first. Work that ignores its signal cannot hold the loop hostage.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** A signal that aborts when any of `signals` aborts (undefined entries are skipped). */
export function anySignal(signals: ReadonlyArray<AbortSignal | undefined>): AbortSignal {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length === 1) return present[0]!;
  return AbortSignal.any(present);
}

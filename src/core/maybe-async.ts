/** A value now, or a promise of it: hot paths stay synchronous when the work was. */
export type MaybePromise<T> = T | PromiseLike<T>;

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * Applies `next` to a value that may still be pending: at once when it is not, so a chain of
 * synchronous steps allocates no promises; otherwise after it settles.
 */
export function andThen<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
  onError?: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  if (isPromiseLike(value)) return Promise.resolve(value).then(next, onError);
  return next(value as T);
}

/**
 * A continuation-style start (its result now, or undefined and `settle(result)` later) as a
 * value now or a promise, for callers that want one: the promise is made only when needed.
 */
export function settledLater<T>(start: (settle: (value: T) => void) => T | undefined): MaybePromise<T> {
  let settleLater: ((value: T) => void) | undefined;
  let early: { value: T } | undefined;
  const now = start((value) => (settleLater ? settleLater(value) : (early = { value })));
  if (now !== undefined) return now;
  if (early !== undefined) return early.value;
  return new Promise<T>((resolve) => (settleLater = resolve));
}

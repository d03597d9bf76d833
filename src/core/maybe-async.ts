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

/**
 * A value known now, or its promise: what a store in this process answers at once, and a shared store (Redis)
 * after its round trip. Awaiting one works either way; code on the hot path uses `whenKnown` instead, so a value
 * known now goes on now, without a promise made and a turn of the microtask queue taken for it.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `f` of the value: at once when it is known, else once its promise resolves. A rejection goes to `fail` when
 * given, else passes as it is. (A stage's answer is one: `Answer`, `mocks/context.ts`.)
 */
export function whenKnown<T, U>(
  value: MaybePromise<T>,
  f: (value: T) => MaybePromise<U>,
  fail?: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  return value instanceof Promise ? value.then(f, fail) : f(value);
}

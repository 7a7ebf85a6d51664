/**
 * A dictionary keyed by data from outside (header names, query names, tokens): an object without a prototype, so
 * `constructor`, `__proto__` or `toString` are ordinary missing keys, never Object.prototype's members.
 * The brand lets the source check (safety/dictionary-lookups) tell it from a plain object.
 */
export type SafeDict<T> = Record<string, T> & { readonly __nullPrototype?: true };

export function safeDict<T>(entries?: Iterable<readonly [string, T]>): SafeDict<T> {
  const dict = Object.create(null) as SafeDict<T>;
  if (entries) for (const [key, value] of entries) dict[key] = value;
  return dict;
}

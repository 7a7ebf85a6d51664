/**
 * The value, or a failure naming what was missing: in place of a non-null assertion, which lets an absent value
 * through to fail later with a TypeError far from its cause.
 */
export function defined<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, got ${String(value)}`);
  return value;
}

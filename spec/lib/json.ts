// The JSON value types every reader of the contract shares.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/**
 * A string's length as JSON Schema's `minLength`/`maxLength` count it: in characters (Unicode code points), so
 * an emoji outside the Basic Multilingual Plane counts once, not as its two UTF-16 units.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation#section-6.3.1
 */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

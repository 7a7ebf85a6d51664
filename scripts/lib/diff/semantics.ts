// What a schema accepts, where that is decidable, instead of which keywords it is written with: numeric bounds in
// every OpenAPI 3.0 and 3.1 spelling, formats whose value sets are known, media types with parameters that change
// nothing. Each answer is a plain value the comparison decides on; "unknown" is left to a warning that says why.
// @see https://json-schema.org/draft/2020-12/json-schema-validation#section-6.2 (numeric bounds)
// @see https://spec.openapis.org/oas/v3.0.3#schema-object (3.0: exclusiveMinimum is a boolean beside minimum)
// @see https://spec.openapis.org/registry/format/ (formats)

import type { JsonObject } from '../../../spec/lib/json';

/** One end of the range of numbers a schema accepts. */
export type Bound = { value: number; exclusive: boolean };
export type End = 'lower' | 'upper';

const KEYS: Record<End, { inclusive: string; exclusive: string }> = {
  lower: { inclusive: 'minimum', exclusive: 'exclusiveMinimum' },
  upper: { inclusive: 'maximum', exclusive: 'exclusiveMaximum' },
};
export const NUMERIC_BOUND_KEYS = ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum'] as const;

/** On integers every bound is an inclusive whole number: `> 0` is `≥ 1`, `≤ 9.5` is `≤ 9`. */
function onIntegers(bound: Bound, end: End): Bound {
  if (end === 'lower')
    return { value: bound.exclusive ? Math.floor(bound.value) + 1 : Math.ceil(bound.value), exclusive: false };
  return { value: bound.exclusive ? Math.ceil(bound.value) - 1 : Math.floor(bound.value), exclusive: false };
}

/** Is `a` a tighter end than `b` (admits fewer numbers)? */
export function tighter(a: Bound, b: Bound, end: End): boolean {
  if (a.value !== b.value) return end === 'lower' ? a.value > b.value : a.value < b.value;
  return a.exclusive && !b.exclusive;
}

/**
 * The effective lower or upper end of a schema: `minimum` (with 3.0's boolean `exclusiveMinimum`), 3.1's numeric
 * `exclusiveMinimum`, the tighter when both are stated; whole numbers on an integer schema. Undefined: unbounded.
 */
export function boundOf(schema: JsonObject, end: End, integer: boolean): Bound | undefined {
  const { inclusive, exclusive } = KEYS[end];
  const found: Bound[] = [];
  if (typeof schema[inclusive] === 'number')
    found.push({ value: schema[inclusive] as number, exclusive: schema[exclusive] === true });
  if (typeof schema[exclusive] === 'number') found.push({ value: schema[exclusive] as number, exclusive: true });
  if (found.length === 0) return undefined;
  const ends = integer ? found.map((b) => onIntegers(b, end)) : found;
  return ends.reduce((a, b) => (tighter(b, a, end) ? b : a));
}

export function sameBound(a: Bound | undefined, b: Bound | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.value === b.value && a.exclusive === b.exclusive;
}

export function showBound(bound: Bound | undefined, end: End): string {
  if (!bound) return 'none';
  return `${end === 'lower' ? (bound.exclusive ? '>' : '≥') : bound.exclusive ? '<' : '≤'} ${bound.value}`;
}

/**
 * Formats whose value sets are known to be pairwise disjoint: no string is both a date-time and a date, a uuid and
 * an email address, an IPv4 and an IPv6 address (RFC 3339, RFC 4122, RFC 5321, RFC 2673/4291 grammars).
 */
const DISJOINT_STRING_FORMATS = new Set(['date-time', 'date', 'time', 'duration', 'uuid', 'email', 'ipv4', 'ipv6']);
/** Known inclusions: the first's values are all values of the second. */
const SUBSET_FORMATS: Array<[string, string]> = [
  ['int32', 'int64'],
  ['float', 'double'],
  ['email', 'idn-email'],
  ['hostname', 'idn-hostname'],
  ['uri', 'iri'],
  ['uri', 'uri-reference'],
  ['iri', 'iri-reference'],
  ['uri-reference', 'iri-reference'],
];

export type FormatRelation = 'same' | 'narrower' | 'wider' | 'disjoint' | 'unknown';

/** How the values of format `head` relate to those of `base`: same set, fewer, more, none in common, or unknown. */
export function formatRelation(base: string, head: string): FormatRelation {
  if (base === head) return 'same';
  if (DISJOINT_STRING_FORMATS.has(base) && DISJOINT_STRING_FORMATS.has(head)) return 'disjoint';
  if (SUBSET_FORMATS.some(([a, b]) => a === head && b === base)) return 'narrower';
  if (SUBSET_FORMATS.some(([a, b]) => a === base && b === head)) return 'wider';
  return 'unknown';
}

/** Types JSON text is: their `charset` parameter has no effect (RFC 8259 §11: JSON is UTF-8). */
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * A media type as a key that equal media types share: type and subtype and parameter names lower-cased,
 * parameters sorted, quotes removed, and a `charset` on JSON dropped. `application/json; charset=utf-8` and
 * `application/json` are one media type.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.3.1
 */
export function mediaTypeKey(mediaType: string): string {
  const [essence, ...parameters] = mediaType.split(';');
  const type = essence.trim().toLowerCase();
  const kept = parameters
    .map((p) => {
      const at = p.indexOf('=');
      const name = (at === -1 ? p : p.slice(0, at)).trim().toLowerCase();
      const value =
        at === -1
          ? ''
          : p
              .slice(at + 1)
              .trim()
              .replace(/^"(.*)"$/, '$1');
      return { name, value: name === 'charset' ? value.toLowerCase() : value };
    })
    .filter((p) => p.name !== '' && !(p.name === 'charset' && JSON_MEDIA.test(type)))
    .map((p) => `${p.name}=${p.value}`)
    .sort();
  return [type, ...kept].join(';');
}

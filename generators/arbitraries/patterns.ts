/**
 * Patterns the contract uses, recognised so that matching strings are generated directly instead of by regex search,
 * and so that pattern violations are meaningful (a malformed uuid, a name containing '<').
 */
import fc from 'fast-check';

/** The contract's uuid rule: version 1-8 with variant 8/9/a/b, plus the nil and the max uuid. */
export const UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
/** A fixed, valid version 4 uuid used where one deterministic uuid is needed. */
export const SAMPLE_UUID = '3f1b6c2e-8d4a-4f5b-9c7d-2e1f0a9b8c7d';

/** Strings that break the uuid rule in one recognisable way each. */
export const MALFORMED_UUIDS: { value: string; description: string }[] = [
  { value: 'not-a-uuid', description: 'not a uuid at all' },
  { value: '3f1b6c2e-8d4a-0f5b-9c7d-2e1f0a9b8c7d', description: 'uuid with version 0' },
  { value: '3f1b6c2e-8d4a-4f5b-cc7d-2e1f0a9b8c7d', description: 'uuid with variant c' },
  { value: '3f1b6c2e-8d4a-4f5b-9c7d-2e1f0a9b8c7', description: 'uuid one hex digit short' },
  { value: '3f1b6c2e8d4a4f5b9c7d2e1f0a9b8c7d', description: 'uuid without hyphens' },
  { value: '3f1b6c2e-8d4a-4f5b-9c7d-2e1f0a9b8c7g', description: 'uuid with a non-hex digit' },
];

export type KnownPattern =
  | { kind: 'uuid' }
  /** `^[^...]*$`: any string without the listed characters. */
  | { kind: 'excluded-chars'; chars: string[] }
  | { kind: 'regex'; pattern: string };

const uuidPatternVariants = new Set([UUID_PATTERN, UUID_PATTERN.replace('(?:', '(')]);

export function classifyPattern(pattern: string): KnownPattern {
  if (uuidPatternVariants.has(pattern)) return { kind: 'uuid' };
  const negated = /^\^\[\^((?:\\.|[^\]\\])+)\]\*\$$/.exec(pattern);
  if (negated) {
    const body = negated[1];
    // Only literal characters (optionally escaped); ranges fall back to regex-driven generation.
    const chars: string[] = [];
    let ok = true;
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\') {
        const next = body[++i];
        if (/[dDwWsSbBnrtuxcpP0-9]/.test(next)) ok = false;
        chars.push(next);
      } else if (body[i] === '-' && i > 0 && i < body.length - 1) {
        ok = false;
      } else chars.push(body[i]);
    }
    if (ok) return { kind: 'excluded-chars', chars };
  }
  return { kind: 'regex', pattern };
}

/** Real uuids of versions 1-8 (fast-check emits variant 8-b), sometimes upper-cased as the rule allows. */
export function uuidArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc.uuid().map(
        (u) => u.toUpperCase(),
        (u) => {
          if (typeof u !== 'string' || u !== u.toUpperCase()) throw new Error('not an upper-case uuid');
          return u.toLowerCase();
        },
      ),
    },
  );
}

function codePointChar(min: number, max: number): fc.Arbitrary<string> {
  return fc.integer({ min, max }).map(
    (cp) => String.fromCodePoint(cp),
    (c) => {
      if (typeof c !== 'string') throw new Error('not a character');
      const cp = c.codePointAt(0);
      if (cp === undefined || cp < min || cp > max || String.fromCodePoint(cp) !== c) throw new Error('out of range');
      return cp;
    },
  );
}

export type CharSet = 'unicode' | 'header';

/**
 * One code point per unit, so fast-check's string lengths are JSON Schema lengths. Mostly printable ASCII, with
 * BMP letters and astral symbols (which are two UTF-16 units but one code point) mixed in.
 */
export function charArbitrary(charset: CharSet, excluded: string[] = []): fc.Arbitrary<string> {
  const base =
    charset === 'header'
      ? codePointChar(0x21, 0x7e)
      : fc.oneof(
          { weight: 12, arbitrary: codePointChar(0x20, 0x7e) },
          { weight: 2, arbitrary: codePointChar(0xa0, 0x2fff) },
          { weight: 1, arbitrary: codePointChar(0x1f300, 0x1f64f) },
        );
  return excluded.length === 0 ? base : base.filter((c) => !excluded.includes(c));
}

/** A character that is safe filler for deterministic strings under the given exclusions. */
export function fillerChar(excluded: string[] = []): string {
  return ['a', 'b', 'x', '0', '_'].find((c) => !excluded.includes(c)) ?? 'a';
}

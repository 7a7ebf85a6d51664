import fc from 'fast-check';
import { invalidCases, invalidValue, UUID_PATTERN } from './index';
import { withoutKeyword, normalize } from './schema';
import { ajvValid } from './test-support';
import { SCHEMAS, loginProviders, uuid } from './test-schemas';
import type { JsonSchema } from './schema';

const WITH_CASES = SCHEMAS.filter(([, s]) => invalidCases(s).length > 0);

describe('invalidCases', () => {
  test.each(WITH_CASES)('should list only values ajv rejects for %s', (_name, schema) => {
    for (const c of invalidCases(schema)) {
      if (ajvValid(schema, c.value)) throw new Error(`ajv accepts ${c.description}: ${JSON.stringify(c.value)}`);
    }
  });

  test.each(WITH_CASES)('should break a root value for one reason only: %s', (_name, schema) => {
    const s = normalize(schema);
    for (const c of invalidCases(schema).filter((x) => x.path === '' && !('oneOf' in s) && !('anyOf' in s))) {
      // the value becomes valid once the one keyword it breaks is gone
      expect({ case: c.description, valid: ajvValid(withoutKeyword(s, c.breaks), c.value) }).toEqual({
        case: c.description,
        valid: true,
      });
    }
  });

  it('should have a case for every schema of the table that constrains anything', () => {
    const without = SCHEMAS.filter(([, s]) => invalidCases(s).length === 0).map(([n]) => n);
    expect(without).toEqual(['any value']);
  });

  const has = (schema: JsonSchema, path: string, breaks: string, value?: unknown) =>
    invalidCases(schema).some(
      (c) =>
        c.path === path &&
        c.breaks === breaks &&
        (value === undefined || JSON.stringify(c.value) === JSON.stringify(value)),
    );

  test.each<[string, { given: JsonSchema; want: [string, string, unknown?][] }]>([
    [
      'limit',
      {
        given: { type: 'integer', minimum: 1, maximum: 1000 },
        want: [
          ['', 'minimum', 0],
          ['', 'maximum', 1001],
          ['', 'type', 1.5],
          ['', 'type', 'abc'],
        ],
      },
    ],
    [
      'offset',
      {
        given: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
        want: [
          ['', 'minimum', -1],
          ['', 'maximum', 9007199254740992],
        ],
      },
    ],
    ['exclusive minimum', { given: { type: 'integer', exclusiveMinimum: 0 }, want: [['', 'exclusiveMinimum', 0]] }],
    [
      'name',
      {
        given: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^<>]*$' },
        want: [
          ['', 'minLength', ''],
          ['', 'maxLength'],
          ['', 'pattern', 's<m'],
          ['', 'pattern', 's>m'],
        ],
      },
    ],
    [
      'uuid',
      {
        given: uuid,
        want: [
          ['', 'pattern', 'not-a-uuid'],
          ['', 'pattern', '3f1b6c2e-8d4a-0f5b-9c7d-2e1f0a9b8c7d'],
          ['', 'type', 123],
        ],
      },
    ],
    [
      'closed enum',
      {
        given: { type: 'string', enum: ['ai', 'js'] },
        want: [
          ['', 'enum', 'not-a-listed-value'],
          ['', 'enum', 'AI'],
        ],
      },
    ],
    [
      'required property',
      {
        given: { type: 'object', required: ['query'], properties: { query: { type: 'string', maxLength: 3 } } },
        want: [
          ['query', 'required', {}],
          ['query', 'maxLength', { query: 'samp' }],
        ],
      },
    ],
    [
      'closed object',
      {
        given: { type: 'object', additionalProperties: false, properties: {} },
        want: [['unexpectedProperty', 'additionalProperties', { unexpectedProperty: 'x' }]],
      },
    ],
    [
      'array item',
      { given: { type: 'array', items: { enum: loginProviders } }, want: [['[0]', 'enum', ['not-a-listed-value']]] },
    ],
    [
      'array bounds',
      {
        given: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: { type: 'integer' } },
        want: [
          ['', 'minItems', []],
          ['', 'maxItems'],
          ['', 'uniqueItems'],
        ],
      },
    ],
    ['const', { given: { const: 'tool' }, want: [['', 'const', 'toolx']] }],
  ])('should include the expected cases for %s', (_name, { given, want }) => {
    for (const [path, breaks, value] of want)
      expect([path, breaks, value, has(given, path, breaks, value)]).toEqual([path, breaks, value, true]);
  });

  test.each<[string, { given: JsonSchema; want: (c: { value: unknown; breaks: string }) => boolean }]>([
    [
      'a nullable uuid never claims null is a wrong type',
      {
        given: { type: ['string', 'null'], pattern: UUID_PATTERN },
        want: (c) => !(c.breaks === 'type' && c.value === null),
      },
    ],
    [
      'an open string never claims an enum',
      { given: { type: 'string', maxLength: 4 }, want: (c) => c.breaks !== 'enum' },
    ],
    [
      'a number accepts integers, so no wrong type is an integer',
      { given: { type: 'number' }, want: (c) => !(c.breaks === 'type' && typeof c.value === 'number') },
    ],
    [
      'an enum with a type claims enum, not type, for a string',
      { given: { type: 'string', enum: ['a'] }, want: (c) => !(c.breaks === 'type' && typeof c.value === 'string') },
    ],
  ])('should avoid ambiguous cases: %s', (_name, { given, want }) => {
    const cases = invalidCases(given);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(want(c)).toBe(true);
  });

  it('should break the 10000-character query limit with a 10001-character string', () => {
    const tooLong = invalidCases({ type: 'string', minLength: 1, maxLength: 10000 }).find(
      (c) => c.breaks === 'maxLength',
    );
    expect([...(tooLong?.value as string)]).toHaveLength(10001);
  });

  it('should count the length of a too-long string in code points', () => {
    const schema = { type: 'string', maxLength: 3 };
    fc.assert(
      fc.property(invalidValue(schema), (c) => c.breaks !== 'maxLength' || [...(c.value as string)].length > 3),
      { numRuns: 200 },
    );
  });

  it('should prefix paths with options.path', () => {
    const cases = invalidCases(
      { type: 'object', required: ['n'], properties: { n: { type: 'integer', maximum: 1 } } },
      { path: 'body' },
    );
    expect(cases.map((c) => `${c.path}:${c.breaks}`)).toEqual(
      expect.arrayContaining(['body.n:required', 'body.n:maximum', 'body:type']),
    );
  });
});

describe('invalidValue', () => {
  test.each(WITH_CASES)('should generate only values ajv rejects for %s', (_name, schema) => {
    fc.assert(
      fc.property(invalidValue(schema), (c) => {
        if (ajvValid(schema, c.value)) throw new Error(`ajv accepts ${c.description}`);
      }),
      { numRuns: 200 },
    );
  });

  it('should vary lengths and numbers beyond the deterministic cases', () => {
    const lengths = new Set(
      fc
        .sample(invalidValue({ type: 'string', maxLength: 10 }), { numRuns: 200, seed: 4 })
        .filter((c) => c.breaks === 'maxLength')
        .map((c) => [...(c.value as string)].length),
    );
    expect(lengths.size).toBeGreaterThan(3);
  });

  it('should refuse a schema that accepts everything', () => {
    expect(() => invalidValue({})).toThrow(/every value/);
  });
});

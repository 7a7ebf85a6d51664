import fc from 'fast-check';
import { boundaryValues, validValue, canonicalValue, invalidCases, refResolver, MAX_UUID, NIL_UUID } from './index';
import { ajvErrors, ajvValid } from './test-support';
import { SCHEMAS, uuid } from './test-schemas';
import type { JsonSchema } from './schema';

const RUNS = 200;

describe('validValue', () => {
  test.each(SCHEMAS)('should generate only values ajv accepts for %s', (_name, schema) => {
    fc.assert(
      fc.property(validValue(schema), (value) => {
        if (!ajvValid(schema, value)) throw new Error(`rejected ${JSON.stringify(value)}: ${ajvErrors(schema, value)}`);
      }),
      { numRuns: RUNS },
    );
  });

  test.each(SCHEMAS)('should produce a canonical value ajv accepts for %s', (_name, schema) => {
    expect(ajvValid(schema, canonicalValue(schema))).toBe(true);
  });

  test.each([
    ['includeOptional all', 'all', (v: Record<string, unknown>) => 'a' in v && 'b' in v],
    ['includeOptional none', 'none', (v: Record<string, unknown>) => Object.keys(v).join() === 'r'],
  ] as const)('should honour %s', (_name, includeOptional, check) => {
    const schema = {
      type: 'object',
      required: ['r'],
      properties: { r: { type: 'boolean' }, a: { type: 'string' }, b: { type: 'integer' } },
    };
    fc.assert(
      fc.property(validValue(schema, { includeOptional }), (v) => check(v as Record<string, unknown>)),
      { numRuns: 50 },
    );
  });

  it('should stop at maxDepth on a cyclic (dereferenced) schema', () => {
    // The generator gets the cyclic object a dereferencer produces; ajv gets the same schema written with $ref.
    const node: Record<string, unknown> = {
      type: 'object',
      required: ['slug'],
      properties: { slug: { type: 'string' } },
    };
    (node.properties as Record<string, unknown>).nodes = { type: 'array', items: node };
    const withRef = {
      $ref: '#/$defs/node',
      $defs: {
        node: {
          type: 'object',
          required: ['slug'],
          properties: { slug: { type: 'string' }, nodes: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
    };
    const depth = (v: unknown): number =>
      Array.isArray((v as { nodes?: unknown[] }).nodes)
        ? 1 + Math.max(0, ...(v as { nodes: unknown[] }).nodes.map(depth))
        : 0;
    fc.assert(
      fc.property(validValue(node, { maxDepth: 3 }), (v) => ajvValid(withRef, v) && depth(v) <= 3),
      { numRuns: 100 },
    );
  });

  it('should follow recursive local references through refResolver', () => {
    const root = {
      $ref: '#/$defs/node',
      $defs: {
        node: {
          type: 'object',
          required: ['slug'],
          properties: {
            slug: { type: 'string', minLength: 1 },
            nodes: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
    };
    const resolve = refResolver(root);
    fc.assert(
      fc.property(validValue(root, { resolve, maxDepth: 4 }), (v) => ajvValid(root, v)),
      { numRuns: 100 },
    );
    const cases = invalidCases(root, { resolve });
    expect(cases.map((c) => `${c.path}:${c.breaks}`)).toEqual(
      expect.arrayContaining(['slug:required', 'slug:minLength', 'nodes[0].slug:required']),
    );
    for (const c of cases) expect(ajvValid(root, c.value)).toBe(false);
  });

  it('should generate real uuids of versions 1-8 with variant 8-b, and the nil and max uuid', () => {
    const seen = fc.sample(validValue(uuid), { numRuns: 300, seed: 1 }) as string[];
    expect(seen).toContain(NIL_UUID);
    expect(seen).toContain(MAX_UUID);
    const real = seen.filter((u) => u !== NIL_UUID && u !== MAX_UUID);
    expect(real.length).toBeGreaterThan(100);
    for (const u of real)
      expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i);
  });

  it('should count string lengths in code points', () => {
    const schema = { type: 'string', minLength: 3, maxLength: 3 };
    const values = fc.sample(validValue(schema), { numRuns: 500, seed: 3 }) as string[];
    expect(values.some((v) => v.length > 3)).toBe(true); // astral characters: two UTF-16 units, one code point
    for (const v of values) expect([...v]).toHaveLength(3);
  });

  it('should reach the 10000-character boundary of the query string without building huge values otherwise', () => {
    const schema = { type: 'string', minLength: 1, maxLength: 10000 };
    const lengths = (fc.sample(validValue(schema), { numRuns: 100, seed: 5 }) as string[]).map((v) => [...v].length);
    expect(lengths).toContain(10000);
    expect(lengths).toContain(1);
    expect(lengths.filter((n) => n > 100 && n !== 10000)).toEqual([]);
  });

  it('should try every boundary within the first runs', () => {
    const schema = { type: 'integer', minimum: 1, maximum: 1000 };
    const first = fc.sample(validValue(schema), { numRuns: 40, seed: 11 });
    for (const b of [1, 2, 999, 1000]) expect(first).toContain(b);
  });

  it('should use valid examples as seeds and skip invalid ones', () => {
    const schema = { type: 'string', minLength: 3, examples: ['hello', 'x'] };
    const values = fc.sample(validValue(schema), { numRuns: 100, seed: 2 });
    expect(values).toContain('hello');
    expect(values).not.toContain('x');
  });

  it('should refuse a schema that still holds a $ref, and follow it with a resolver', () => {
    const schema = { $ref: '#/components/schemas/Uuid' };
    expect(() => validValue(schema)).toThrow(/dereference/i);
    const resolved = fc.sample(validValue(schema, { resolve: () => uuid }), 20);
    for (const v of resolved) expect(ajvValid(uuid, v)).toBe(true);
  });
});

describe('boundaryValues', () => {
  const long = (n: number) => 'sample'.padEnd(n, 'a').slice(0, n);
  test.each<[string, { given: JsonSchema; want: unknown[] }]>([
    ['integer 1..1000', { given: { type: 'integer', minimum: 1, maximum: 1000 }, want: [1, 2, 999, 1000] }],
    [
      'integer with exclusive minimum',
      { given: { type: 'integer', exclusiveMinimum: 0, maximum: 1000 }, want: [1, 2, 999, 1000] },
    ],
    [
      'offset',
      {
        given: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
        want: [0, 1, 9007199254740990, 9007199254740991],
      },
    ],
    ['integer 1..2', { given: { type: 'integer', minimum: 1, maximum: 2 }, want: [1, 2] }],
    ['multiple of 5', { given: { type: 'integer', multipleOf: 5, minimum: 1, maximum: 99 }, want: [5, 10, 90, 95] }],
    ['number 0..1', { given: { type: 'number', minimum: 0, maximum: 1 }, want: [0, 1] }],
    [
      'string 1..255',
      {
        given: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^<>]*$' },
        want: ['a', long(255)].map((s, i) => (i === 0 ? 'a' : 'a'.repeat(255))),
      },
    ],
    ['uuid', { given: uuid, want: [NIL_UUID, MAX_UUID] }],
    ['enum', { given: { enum: ['a', 'b'] }, want: [] }],
    [
      'array 1..2 of enum, unique',
      {
        given: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: { enum: ['a', 'b', 'c'] } },
        want: [['a'], ['a', 'b']],
      },
    ],
    [
      'object with a bounded property',
      {
        given: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0, maximum: 9 } } },
        want: [{ n: 0 }, { n: 1 }, { n: 8 }, { n: 9 }],
      },
    ],
  ])('should list the boundaries of %s', (_name, { given, want }) => {
    expect(boundaryValues(given)).toEqual(want);
  });

  it('should list a 10000-character string for the query limit', () => {
    const [max] = boundaryValues({ type: 'string', maxLength: 10000 }) as string[];
    expect([...max]).toHaveLength(10000);
  });

  test.each(SCHEMAS)('should list only values ajv accepts for %s', (_name, schema) => {
    for (const v of boundaryValues(schema)) expect(ajvValid(schema, v)).toBe(true);
  });
});

describe('shrinking', () => {
  const counterexample = <T>(arb: fc.Arbitrary<T>, predicate: (v: T) => boolean): T => {
    const out = fc.check(fc.property(arb, predicate), { numRuns: 500, seed: 42 });
    if (!out.failed || !out.counterexample) throw new Error('the property did not fail');
    return out.counterexample[0];
  };

  test.each<[string, { given: [JsonSchema, (v: never) => boolean]; want: unknown }]>([
    [
      'an integer to the smallest failing one',
      { given: [{ type: 'integer', minimum: 1, maximum: 1000 }, (v: number) => v < 500], want: 500 },
    ],
    [
      'a huge integer to the smallest failing one',
      { given: [{ type: 'integer', minimum: 0, maximum: 9007199254740991 }, (v: number) => v < 10], want: 10 },
    ],
    [
      'a name to a short string',
      {
        given: [{ type: 'string', minLength: 1, maxLength: 255, pattern: '^[^<>]*$' }, (v: string) => !v.includes('b')],
        want: 'short',
      },
    ],
    [
      'a 10000-character query to the shortest failing length',
      { given: [{ type: 'string', maxLength: 10000 }, (v: string) => [...v].length < 10], want: 10 },
    ],
    [
      'an object to its smallest failing shape',
      {
        given: [
          {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer', minimum: 0, maximum: 100 }, s: { type: 'string' } },
          },
          (v: { n: number }) => v.n < 7,
        ],
        want: { n: 7 },
      },
    ],
    [
      'an array to the fewest items',
      {
        given: [{ type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 } }, (v: number[]) => v.length < 3],
        want: [0, 0, 0],
      },
    ],
  ])('should shrink %s', (_name, { given: [schema, predicate], want }) => {
    const found = counterexample(validValue(schema), predicate as (v: unknown) => boolean);
    // fast-check drops leading characters first, so a string shrinks to a few characters rather than exactly one
    if (want === 'short') expect([...(found as string)].length).toBeLessThanOrEqual(3);
    else if (typeof want === 'number' && typeof found === 'string') expect([...found]).toHaveLength(want);
    else expect(found).toEqual(want);
  });
});

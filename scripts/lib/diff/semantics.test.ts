// Equivalent forms of one schema report nothing, in both directions and on both sides of an exchange; the pieces
// that decide it (ranges, formats, media types) each have their table. (issue 36, item 2)

import type { Json } from '../../../spec/lib/json';
import { diffCase, type FixtureCase } from './fixture-cases';
import { boundOf, formatRelation, mediaTypeKey, showBound } from './semantics';

const NOW = new Date('2026-11-21T00:00:00Z');

// [form, place in the template, one spelling, an equivalent spelling]
const EQUIVALENT: Array<[string, FixtureCase['at'], Json, Json]> = [
  [
    'minimum 1 is exclusiveMinimum 0 on integers',
    'request-property',
    { type: 'integer', minimum: 1 },
    { type: 'integer', exclusiveMinimum: 0 },
  ],
  [
    'maximum 9 is exclusiveMaximum 10 on integers',
    'response-property',
    { type: 'integer', maximum: 9 },
    { type: 'integer', exclusiveMaximum: 10 },
  ],
  [
    '3.0 boolean exclusiveMinimum is 3.1 numeric',
    'request-property',
    { type: 'number', minimum: 0, exclusiveMinimum: true },
    { type: 'number', exclusiveMinimum: 0 },
  ],
  [
    '3.0 boolean exclusiveMaximum on integers',
    'response-property',
    { type: 'integer', maximum: 10, exclusiveMaximum: true },
    { type: 'integer', maximum: 9 },
  ],
  [
    'a fractional bound on integers',
    'request-property',
    { type: 'integer', minimum: 0.5 },
    { type: 'integer', minimum: 1 },
  ],
  [
    'both spellings stated: the tighter holds',
    'request-property',
    { type: 'integer', minimum: 1, exclusiveMinimum: 4 },
    { type: 'integer', minimum: 5 },
  ],
  [
    'a nullable integer keeps its range',
    'request-property',
    { type: ['integer', 'null'], minimum: 1 },
    { type: ['integer', 'null'], exclusiveMinimum: 0 },
  ],
  ['const is a one-value enum', 'request-property', { type: 'string', const: 'a' }, { type: 'string', enum: ['a'] }],
  [
    'a one-value enum is const on output',
    'response-property',
    { type: 'string', enum: ['a'] },
    { type: 'string', const: 'a' },
  ],
  [
    'allOf of one schema is the schema',
    'response-property',
    { type: 'string', maxLength: 5 },
    { allOf: [{ type: 'string', maxLength: 5 }] },
  ],
  [
    'allOf parts flattened, bounds combined',
    'request-body',
    { type: 'object', required: ['a'], properties: { a: { type: 'string', minLength: 2, maxLength: 5 } } },
    {
      allOf: [
        { type: 'object', properties: { a: { type: 'string', minLength: 1, maxLength: 5 } } },
        { required: ['a'], properties: { a: { minLength: 2, maxLength: 9 } } },
      ],
    },
  ],
  [
    'charset on JSON',
    'request-content',
    { 'application/json': { schema: { type: 'object' } } },
    { 'application/json; charset=UTF-8': { schema: { type: 'object' } } },
  ],
  [
    'media type case and quoted parameters',
    'response-content',
    { 'application/vnd.thing+json; version=2': { schema: { type: 'object' } } },
    { 'Application/Vnd.Thing+JSON;Version="2"': { schema: { type: 'object' } } },
  ],
  [
    'explode on a primitive query value',
    'parameter',
    { name: 'q', in: 'query', schema: { type: 'string' } },
    { name: 'q', in: 'query', explode: false, schema: { type: 'string' } },
  ],
  [
    'the default style written out',
    'parameter',
    { name: 'q', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
    { name: 'q', in: 'query', style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } },
  ],
];

describe('equivalent forms', () => {
  it.each(EQUIVALENT)('should report nothing for %s, either way', (_form, at, one, other) => {
    for (const [base, head] of [
      [one, other],
      [other, one],
    ])
      expect(diffCase({ id: 'equivalent', at, base, head, want: 'none' }, NOW)).toEqual([]);
  });
});

// The same harness sees a real difference at each place (so an empty answer above is not a blind spot).
const DIFFERENT: Array<[string, FixtureCase['at'], Json, Json]> = [
  [
    'a range moved by one',
    'request-property',
    { type: 'integer', minimum: 1 },
    { type: 'integer', exclusiveMinimum: 1 },
  ],
  [
    'an exclusive end on numbers',
    'response-property',
    { type: 'number', maximum: 9 },
    { type: 'number', exclusiveMaximum: 9 },
  ],
  ['another fixed value', 'request-property', { type: 'string', const: 'a' }, { type: 'string', enum: ['b'] }],
  [
    'another media type',
    'request-content',
    { 'application/json': { schema: { type: 'object' } } },
    { 'application/xml': { schema: { type: 'object' } } },
  ],
  [
    'a charset on text',
    'response-content',
    { 'text/plain': { schema: { type: 'string' } } },
    { 'text/plain; charset=latin1': { schema: { type: 'string' } } },
  ],
  [
    'explode on an array',
    'parameter',
    { name: 'q', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
    { name: 'q', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
  ],
];

describe('forms that differ', () => {
  it.each(DIFFERENT)('should report %s', (_form, at, base, head) => {
    expect(diffCase({ id: 'different', at, base, head, want: 'none' }, NOW)).not.toEqual([]);
  });
});

describe('numeric ranges in every spelling', () => {
  it.each([
    [{ minimum: 1 }, 'lower', false, '≥ 1'],
    [{ exclusiveMinimum: 0 }, 'lower', false, '> 0'],
    [{ exclusiveMinimum: 0 }, 'lower', true, '≥ 1'],
    [{ minimum: 0, exclusiveMinimum: true }, 'lower', false, '> 0'],
    [{ minimum: 0, exclusiveMinimum: false }, 'lower', false, '≥ 0'],
    [{ maximum: 10, exclusiveMaximum: 8 }, 'upper', false, '< 8'],
    [{ maximum: 9.5 }, 'upper', true, '≤ 9'],
    [{}, 'upper', true, 'none'],
  ] as const)('should read %j as the %s end (integers: %s) %s', (schema, end, integer, want) => {
    expect(showBound(boundOf(schema, end, integer), end)).toBe(want);
  });
});

describe('formats and media types', () => {
  it.each([
    ['date-time', 'date', 'disjoint'],
    ['uuid', 'email', 'disjoint'],
    ['int64', 'int32', 'narrower'],
    ['int32', 'int64', 'wider'],
    ['uri', 'iri', 'wider'],
    ['date', 'date', 'same'],
    ['hostname', 'ipv4', 'unknown'],
    ['my-format', 'date', 'unknown'],
  ])('should relate format %s to %s as %s', (base, head, want) => {
    expect(formatRelation(base, head)).toBe(want);
  });

  it.each([
    ['application/json; charset=utf-8', 'application/json'],
    ['application/problem+json;charset="UTF-8"', 'application/problem+json'],
    ['text/plain; charset=UTF-8', 'text/plain;charset=utf-8'],
    ['multipart/form-data; boundary=x', 'multipart/form-data;boundary=x'],
  ])('should key %s as %s', (given, want) => {
    expect(mediaTypeKey(given)).toBe(want);
  });

  it('should keep a charset that changes the bytes of text', () => {
    expect(mediaTypeKey('text/plain; charset=latin1')).not.toBe(mediaTypeKey('text/plain'));
  });
});

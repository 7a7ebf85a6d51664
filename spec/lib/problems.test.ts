import { createSchemaSet } from './schemas';
import { schemaProblems, type SchemaProblem } from './problems';
import { loadContract } from './contract';
import type { JsonObject } from './json';

/** Problems a person can act on: every one once, at its JSON pointer, the rule in words (not ajv's, not a regex). */
const uuid = { $ref: '#/components/schemas/Uuid' };
const document: JsonObject = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Uuid: loadContract().resolve('#/components/schemas/Uuid') as JsonObject,
      Thing: {
        type: 'object',
        required: ['name', 'owner'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 3, pattern: '^[^<>]*$' },
          owner: uuid,
          parent: { anyOf: [uuid, { type: 'null' }] },
          tags: { type: 'array', maxItems: 1, items: { enum: ['a', 'b'] } },
          'a/b': { type: 'integer', maximum: 10 },
          count: { type: ['integer', 'null'], minimum: 1 },
          owner2: { anyOf: [{ type: 'object', required: ['id'], properties: { id: uuid } }, { type: 'null' }] },
          action: {
            anyOf: [
              { type: 'object', required: ['kind'], properties: { kind: { const: 'tool' }, n: { type: 'string' } } },
              { type: 'object', properties: { kind: { type: 'string', not: { const: 'tool' } } } },
            ],
          },
        },
        allOf: [{ required: ['name'] }],
      },
    },
  },
};
const problemsOf = (value: unknown): SchemaProblem[] => {
  const validate = createSchemaSet(document, { allErrors: true }).at('#/components/schemas/Thing');
  return validate(value) ? [] : schemaProblems(validate.errors ?? []);
};

describe('schemaProblems', () => {
  it.each([
    ['a missing field, required twice (allOf), listed once', { owner: 'x' }, '/name', 'is required'],
    ['a string too long', { name: 'abcd' }, '/name', 'must have at most 3 characters'],
    ['an empty string', { name: '' }, '/name', 'must have at least 1 character'],
    ['a short pattern, printed', { name: '<b>' }, '/name', 'must match ^[^<>]*$'],
    [
      'the UUID rule, named',
      { owner: 'x' },
      '/owner',
      'must be a UUID (versions 1–8, variant 8, 9, a or b; or the nil or max UUID)',
    ],
    [
      'a nullable uuid, one problem for its two forms',
      { parent: 'x' },
      '/parent',
      'must be a UUID (versions 1–8, variant 8, 9, a or b; or the nil or max UUID) or null',
    ],
    ['an array too long', { tags: ['a', 'b'] }, '/tags', 'must have at most 1 item'],
    ['an unknown value', { tags: ['c'] }, '/tags/0', 'must be one of: "a", "b"'],
    ['a key with a slash (RFC 6901 escape)', { 'a/b': 11 }, '/a~1b', 'must be at most 10'],
    ['a type with null', { count: 'x' }, '/count', 'must be an integer or null'],
    ['not an object', 3, '', 'must be an object'],
    ['a nullable object, by what is wrong inside it', { owner2: {} }, '/owner2/id', 'is required'],
    ['a nullable object given a string', { owner2: 'x' }, '/owner2', 'must be an object or null'],
    [
      'an open union, by the shown variant its kind selects',
      { action: { kind: 'tool', n: 3 } },
      '/action/n',
      'must be a string',
    ],
  ])('should name %s', (_name, value, pointer, message) => {
    expect(problemsOf(value)).toContainEqual({ pointer, message });
  });

  it('should say nothing of the variants an open union refused by their discriminator', () => {
    expect(
      problemsOf({ owner: '00000000-0000-0000-0000-000000000000', name: 'a', action: { kind: 'tool', n: 3 } }),
    ).toEqual([{ pointer: '/action/n', message: 'must be a string' }]);
  });

  it('should list every problem of a value, each once', () => {
    const problems = problemsOf({ name: 'abcd<', parent: 'x', tags: ['c', 'd'] });
    expect(problems).toEqual([
      { pointer: '/owner', message: 'is required' },
      { pointer: '/name', message: 'must have at most 3 characters' },
      { pointer: '/name', message: 'must match ^[^<>]*$' },
      { pointer: '/parent', message: expect.stringMatching(/^must be a UUID .* or null$/) },
      { pointer: '/tags', message: 'must have at most 1 item' },
      { pointer: '/tags/0', message: 'must be one of: "a", "b"' },
      { pointer: '/tags/1', message: 'must be one of: "a", "b"' },
    ]);
    expect(new Set(problems.map((p) => `${p.pointer} ${p.message}`)).size).toBe(problems.length);
    expect(JSON.stringify(problems)).not.toContain('[0-9a-fA-F]');
  });
});

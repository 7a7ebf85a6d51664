import { createSchemaSet } from './schemas';

const document = {
  components: {
    schemas: {
      Name: { type: 'string', minLength: 1, maxLength: 3 },
      Id: { type: 'string', format: 'uuid' },
      Link: { type: 'string', format: 'uri-reference' },
      Limit: { type: 'integer', maximum: 10 },
    },
  },
};

describe('schemas by pointer', () => {
  const schemas = createSchemaSet(document);
  it.each([
    ['#/components/schemas/Name', 'abc', true],
    // maxLength counts code points: three emoji are three characters, six UTF-16 units.
    ['#/components/schemas/Name', '😀😀😀', true],
    ['#/components/schemas/Name', '😀😀😀😀', false],
    ['#/components/schemas/Name', '', false],
    ['#/components/schemas/Id', '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b', true],
    ['#/components/schemas/Id', '00000000-0000-0000-0000-000000000000', true],
    ['#/components/schemas/Id', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', true],
    // Version 0 and variant c are UUIDs to generic validators, not to the contract.
    ['#/components/schemas/Id', '3f2b8c1e-9d4a-0b7e-8c2d-1a5f6e7d8c9b', false],
    ['#/components/schemas/Id', '3f2b8c1e-9d4a-4b7e-cc2d-1a5f6e7d8c9b', false],
    ['#/components/schemas/Link', '/v1/orchestration/runs/1', true],
    ['#/components/schemas/Link', 'http://127.0.0.1:4010/v1/x', true],
    ['#/components/schemas/Link', 'not a uri', false],
  ])('should judge %s against %j as %s', (pointer, value, valid) => {
    expect(schemas.errorsAt(pointer, value).length === 0).toBe(valid);
  });

  it('should coerce strings only when asked (query and path values)', () => {
    expect(createSchemaSet(document, { coerce: true }).errorsAt('#/components/schemas/Limit', '5')).toEqual([]);
    expect(schemas.errorsAt('#/components/schemas/Limit', '5')).not.toEqual([]);
  });
});

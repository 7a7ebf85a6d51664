import { listOperations, retirementHeaders } from './load';

describe('listOperations', () => {
  it('should resolve parameter refs and merge path-level parameters', () => {
    const document = {
      paths: {
        '/things/{uuid}': {
          parameters: [{ $ref: '#/components/parameters/Uuid' }],
          get: { operationId: 'getThing', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], responses: {} },
        },
      },
      components: { parameters: { Uuid: { name: 'uuid', in: 'path', required: true, schema: { type: 'string' } } } },
    };
    const [op] = listOperations(document);
    expect(op).toMatchObject({ operationId: 'getThing', method: 'GET', pathTemplate: '/things/{uuid}' });
    expect(op.parameters.map((p) => [p.in, p.name, p.required, p.pointer])).toEqual([
      ['path', 'uuid', true, '#/components/parameters/Uuid/schema'],
      ['query', 'limit', false, '#/paths/~1things~1{uuid}/get/parameters/0/schema'],
    ]);
  });

  it('should turn x-deprecation and x-sunset into RFC 9745 and RFC 8594 header values', () => {
    expect(retirementHeaders('2027-01-01', '2027-07-02')).toEqual({ deprecation: '@1798761600', sunset: 'Fri, 02 Jul 2027 00:00:00 GMT' });
    expect(retirementHeaders('2027-01-01', undefined)).toEqual({ deprecation: '@1798761600', sunset: undefined });
    expect(retirementHeaders(undefined, '2027-07-02')).toBeUndefined();
  });
});

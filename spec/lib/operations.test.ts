import { contractFromDocument } from './contract';
import { findHeader, findParameter, retirementHeaderValues } from './operations';

const contract = contractFromDocument({
  openapi: '3.1.0',
  security: [{ bearerAuth: [] }],
  paths: {
    '/things/{uuid}': {
      parameters: [
        { $ref: '#/components/parameters/Uuid' },
        { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
      ],
      get: {
        operationId: 'getThing',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'x-trace', in: 'header', required: true, schema: { type: 'string', maxLength: 8 } },
        ],
        responses: {
          '200': { description: 'ok', headers: { 'RateLimit-Limit': { required: true, schema: { type: 'string' } } } },
        },
      },
      delete: {
        operationId: 'deleteThing',
        security: [],
        deprecated: true,
        'x-deprecation': '2027-01-01',
        'x-sunset': '2027-07-02',
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: { parameters: { Uuid: { name: 'uuid', in: 'path', required: true, schema: { type: 'string' } } } },
});

describe('operation model', () => {
  const get = contract.operation('getThing')!;
  const remove = contract.operation('deleteThing')!;

  it('should merge path-level parameters with the operation’s, header names compared case-insensitively', () => {
    expect(get.parameters.map((p) => [p.in, p.name, p.required, p.schemaPointer])).toEqual([
      ['path', 'uuid', true, '#/components/parameters/Uuid/schema'],
      ['header', 'x-trace', true, '#/paths/~1things~1{uuid}/get/parameters/1/schema'],
      ['query', 'limit', false, '#/paths/~1things~1{uuid}/get/parameters/0/schema'],
    ]);
    expect(findParameter(get, 'header', 'X-TRACE')?.schema).toEqual({ type: 'string', maxLength: 8 });
    expect(findParameter(get, 'query', 'LIMIT')).toBeUndefined();
  });

  it('should take the document’s security unless the operation has its own list', () => {
    expect(get.security).toEqual([{ bearerAuth: [] }]);
    expect(remove.security).toEqual([]);
  });

  it('should read retirement dates and give the RFC 9745 and RFC 8594 header values', () => {
    expect(get.retirement).toBeUndefined();
    expect(retirementHeaderValues(remove.retirement)).toEqual({
      deprecation: '@1798761600',
      sunset: 'Fri, 02 Jul 2027 00:00:00 GMT',
    });
    expect(retirementHeaderValues({ sunset: new Date('2027-07-02') })).toBeUndefined();
  });

  it('should find response headers whatever their case', () => {
    expect(findHeader(get.responses['200'].headers, 'ratelimit-limit')?.[1].required).toBe(true);
  });
});

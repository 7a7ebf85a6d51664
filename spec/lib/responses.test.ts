import { contractFromDocument } from './contract';
import { responseFor } from './responses';

const json = (schema: object) => ({ description: 'x', content: { 'application/json': { schema } } });
const contract = contractFromDocument({
  openapi: '3.1.0',
  paths: {
    '/exact': {
      get: {
        operationId: 'exact',
        responses: { '200': json({ type: 'object' }), '404': json({ $ref: '#/components/schemas/Error' }) },
      },
    },
    '/range': {
      get: {
        operationId: 'range',
        responses: { '200': json({ type: 'object' }), '4XX': json({ $ref: '#/components/schemas/Error' }) },
      },
    },
    '/fallback': {
      get: {
        operationId: 'fallback',
        responses: { '200': json({ type: 'object' }), default: json({ $ref: '#/components/schemas/Error' }) },
      },
    },
  },
  components: {
    schemas: {
      Error: { type: 'object', required: ['errorMessage'], properties: { errorMessage: { type: 'string' } } },
    },
  },
});

describe('responseFor', () => {
  it.each([
    ['exact', 200, '200', 'exact'],
    ['exact', 404, '404', 'exact'],
    ['exact', 400, undefined, undefined],
    ['range', 404, '4XX', 'range'],
    ['range', 499, '4XX', 'range'],
    ['range', 500, undefined, undefined],
    ['fallback', 200, '200', 'exact'],
    ['fallback', 404, 'default', 'default'],
    ['fallback', 503, 'default', 'default'],
  ])('should describe %s → %i by %s', (operationId, status, key, match) => {
    const found = responseFor(contract.operation(operationId)!, status);
    expect(found && [found.response.key, found.match]).toEqual(key === undefined ? undefined : [key, match]);
  });
});

describe('validateResponse', () => {
  const headers = { 'content-type': 'application/json' };
  it.each([
    ['a 404 declared by 4XX', '/range', 404, { errorMessage: 'no' }, []],
    ['a 404 declared by 4XX with the wrong body', '/range', 404, {}, ['invalid-body']],
    ['a 500 outside 4XX', '/range', 500, { errorMessage: 'no' }, ['undeclared-status']],
    ['a 503 declared by default', '/fallback', 503, { errorMessage: 'no' }, []],
    ['a 400 not declared at all', '/exact', 400, { errorMessage: 'no' }, ['undeclared-status']],
    ['an unknown path answering 404 in the error shape', '/nowhere', 404, { errorMessage: 'no' }, []],
    ['an unknown path answering 200', '/nowhere', 200, {}, ['unknown-route']],
  ])('should judge %s', (_name, path, status, body, kinds) => {
    expect(contract.validateResponse({ method: 'GET', path, status, headers, body }).map((v) => v.kind)).toEqual(kinds);
  });

  it('should call a body that is not JSON by its Content-Type or its text', () => {
    expect(
      contract.validateResponse({
        method: 'GET',
        path: '/exact',
        status: 200,
        headers: { 'Content-Type': 'text/html' },
        body: undefined,
      })[0],
    ).toMatchObject({
      kind: 'not-json',
      received: 'text/html',
    });
    expect(
      contract.validateResponse({
        method: 'GET',
        path: '/exact',
        status: 200,
        headers,
        body: undefined,
        text: '<html>',
      })[0],
    ).toMatchObject({
      kind: 'not-json',
      received: '"<html>"',
    });
  });
});

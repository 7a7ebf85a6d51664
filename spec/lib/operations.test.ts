import { contractFromDocument, loadContract } from './contract';
import { DEFAULT_SPEC_PATH, dereferenceFile } from './load';
import { asObject, type JsonObject } from './json';
import {
  findHeader,
  findParameter,
  followRef,
  listOperations,
  type Operation,
  retirementHeaderValues,
  securityInForce,
} from './operations';

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

/** A one-operation document around the given path item and operation fields (`GET /things/{uuid}`). */
function documentWith(given: { pathItem?: object; operation?: object; document?: object }): JsonObject {
  return {
    openapi: '3.1.0',
    ...given.document,
    paths: { '/things/{uuid}': { ...given.pathItem, get: { responses: {}, ...given.operation } } },
    components: {
      parameters: {
        Uuid: { name: 'uuid', in: 'path', required: true, schema: { type: 'string' } },
        Loop: { $ref: '#/components/parameters/Loop' },
      },
    },
  } as JsonObject;
}

const uuid = { name: 'uuid', in: 'path', required: true };
const limit = { name: 'limit', in: 'query' };

// [case, { given, want: the merged parameters as `in name required` }]
const PARAMETER_CASES: [string, { given: Parameters<typeof documentWith>[0]; want: string[] }][] = [
  ['no parameters anywhere', { given: {}, want: [] }],
  ['path item only', { given: { pathItem: { parameters: [uuid] } }, want: ['path uuid true'] }],
  ['operation only', { given: { operation: { parameters: [limit] } }, want: ['query limit false'] }],
  [
    'an operation parameter overrides the path item’s of the same name and location, in its place',
    {
      given: {
        pathItem: { parameters: [uuid, { name: 'limit', in: 'query', required: true }] },
        operation: { parameters: [{ name: 'cursor', in: 'query' }, limit] },
      },
      want: ['path uuid true', 'query limit false', 'query cursor false'],
    },
  ],
  [
    'the same name in another location is another parameter',
    {
      given: { pathItem: { parameters: [uuid] }, operation: { parameters: [{ name: 'uuid', in: 'query' }] } },
      want: ['path uuid true', 'query uuid false'],
    },
  ],
  [
    'header names are compared ignoring case',
    {
      given: {
        pathItem: { parameters: [{ name: 'X-Trace', in: 'header', required: true }] },
        operation: { parameters: [{ name: 'x-trace', in: 'header' }] },
      },
      want: ['header x-trace false'],
    },
  ],
  [
    'query names are not',
    {
      given: { pathItem: { parameters: [{ name: 'Limit', in: 'query' }] }, operation: { parameters: [limit] } },
      want: ['query Limit false', 'query limit false'],
    },
  ],
  [
    'a duplicate on one level: the last wins',
    { given: { operation: { parameters: [limit, { ...limit, required: true }] } }, want: ['query limit true'] },
  ],
  [
    'lists that are not arrays count as empty',
    { given: { pathItem: { parameters: 'uuid' }, operation: { parameters: { uuid } } }, want: [] },
  ],
  ['null lists', { given: { pathItem: { parameters: null }, operation: { parameters: null } }, want: [] }],
  [
    'entries that are not Parameter Objects are left out',
    {
      given: {
        operation: { parameters: [null, 5, 'limit', [], {}, { name: 1, in: 'query' }, { name: 'a' }, limit] },
      },
      want: ['query limit false'],
    },
  ],
  [
    'a $ref is followed to its Parameter Object',
    { given: { pathItem: { parameters: [{ $ref: '#/components/parameters/Uuid' }] } }, want: ['path uuid true'] },
  ],
  [
    '$refs that cannot be followed are left out, never thrown',
    {
      given: {
        pathItem: {
          parameters: [
            { $ref: '#/components/parameters/Missing' },
            { $ref: 'other.yaml#/components/parameters/Uuid' },
            { $ref: 'https://example.com/p.yaml' },
            { $ref: '#components' },
            { $ref: '#/components/parameters/Loop' },
          ],
        },
        operation: { parameters: [limit] },
      },
      want: ['query limit false'],
    },
  ],
];

describe('the operation model on documents as they come', () => {
  it.each(PARAMETER_CASES)('should merge parameters: %s', (_case, { given, want }) => {
    const [operation] = listOperations(documentWith(given));
    expect(operation.parameters.map((p) => `${p.in} ${p.name} ${p.required}`)).toEqual(want);
  });

  // [case, { document's security, operation's security, want }]
  const SECURITY_CASES: [string, { document?: unknown; operation?: unknown; want: unknown[] }][] = [
    ['none stated', { want: [] }],
    ['the document’s when the operation states none', { document: [{ bearerAuth: [] }], want: [{ bearerAuth: [] }] }],
    [
      'the operation’s own list overrides the document’s',
      { document: [{ bearerAuth: [] }], operation: [{ oauth2: ['read'] }, {}], want: [{ oauth2: ['read'] }, {}] },
    ],
    ['an empty list means none', { document: [{ bearerAuth: [] }], operation: [], want: [] }],
    ['null is not stated', { document: [{ bearerAuth: [] }], operation: null, want: [{ bearerAuth: [] }] }],
    [
      'a stated value that is not a list leaves none',
      { document: [{ bearerAuth: [] }], operation: 'bearerAuth', want: [] },
    ],
    ['a document value that is not a list is none', { document: { bearerAuth: [] }, want: [] }],
    [
      'entries that are not requirement objects are left out',
      { operation: [null, 'bearerAuth', ['x'], { bearerAuth: [] }], want: [{ bearerAuth: [] }] },
    ],
  ];

  it.each(SECURITY_CASES)('should put security in force: %s', (_case, { document, operation, want }) => {
    const given = documentWith({
      document: document === undefined ? {} : { security: document },
      operation: operation === undefined ? {} : { security: operation },
    });
    expect(listOperations(given)[0].security).toEqual(want);
    expect(
      securityInForce(given.security, asObject(asObject(asObject(given.paths)['/things/{uuid}']).get).security),
    ).toEqual(want);
  });

  it.each([
    ['no paths', {}],
    ['paths not an object', { paths: ['/things'] }],
    ['a path item that is not an object', { paths: { '/a': 'get' } }],
    ['a method that is not an object', { paths: { '/a': { get: true, post: null } } }],
    ['a path item $ref to nothing', { paths: { '/a': { $ref: '#/components/pathItems/A' } } }],
    ['a path item $ref in a circle', { paths: { '/a': { $ref: '#/paths/~1a' } } }],
  ])('should list no operation, without throwing, for %s', (_case, document) => {
    expect(listOperations(document as JsonObject)).toEqual([]);
  });

  it('should read odd operation fields without throwing, keeping the nodes as written', () => {
    const pathItem = {
      post: {
        operationId: 7,
        tags: 'x',
        requestBody: { $ref: '#/nowhere' },
        responses: { '200': { $ref: 'http://example.com/r' }, '400': 'bad', '500': { headers: [1], content: 3 } },
      },
    };
    const [operation] = listOperations({ paths: { '/a': pathItem } } as JsonObject);
    expect(operation).toMatchObject({ operationId: 'POST /a', tags: [], parameters: [], security: [] });
    expect(operation.requestBody).toMatchObject({ contentTypes: [], required: false });
    expect(Object.keys(operation.responses)).toEqual(['200', '400', '500']);
    expect(operation.pathItem).toBe(pathItem);
    expect(operation.node).toBe(pathItem.post);
  });

  it('should merge the contract the same way bundled (the mock, the suite) and dereferenced (lint, docs, diff)', () => {
    const contract = loadContract();
    const view = (operations: Operation[]) =>
      operations.map((op) => ({
        op: `${op.method} ${op.path}`,
        parameters: op.parameters.map((p) => `${p.in} ${p.name} ${p.required}`),
        security: op.security,
      }));
    expect(view(listOperations(dereferenceFile(DEFAULT_SPEC_PATH)))).toEqual(view(contract.operations));
    expect(contract.operations.some((op) => op.parameters.length > 0 && op.security.length > 0)).toBe(true);
  });

  it.each([
    ['a concrete node', { a: 1 }, { value: { a: 1 }, pointer: '#/x' }],
    ['a $ref to a node', { $ref: '#/components/parameters/Uuid' }, { pointer: '#/components/parameters/Uuid' }],
    ['a $ref to nothing', { $ref: '#/nope' }, { value: {}, unresolved: '$ref "#/nope" points at nothing' }],
    [
      'a $ref outside the document',
      { $ref: 'a.yaml' },
      { value: {}, unresolved: expect.stringMatching(/not a pointer/) },
    ],
    [
      'a $ref chain in a circle',
      { $ref: '#/components/parameters/Loop' },
      { value: {}, unresolved: expect.stringMatching(/does not end/) },
    ],
  ])('should follow $refs, never throwing: %s', (_case, node, want) => {
    expect(followRef(documentWith({}), node, '#/x')).toMatchObject(want);
  });
});

import fc from 'fast-check';
import {
  boundaryRequests,
  canonicalRequest,
  invalidRequests,
  requestTarget,
  validRequest,
  UUID_PATTERN,
} from './index';
import { requestProblems } from './test-support';

const reasons = { type: 'string', enum: ['unsubscribed', 'bounced', 'complained', 'manual'] };
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 255 },
};

const OPERATIONS: [string, { operation: object; pathItemParams?: object[]; template: string }][] = [
  [
    'list suppressions',
    {
      template: '/mailboxManagement/suppressions',
      operation: {
        parameters: [
          { name: 'reasons', in: 'query', style: 'form', explode: true, schema: { type: 'array', items: reasons } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 9007199254740991 } },
        ],
      },
    },
  ],
  [
    'get workflow (path parameter on the path item)',
    {
      template: '/orchestration/workflows/{uuid}',
      operation: {},
      pathItemParams: [{ name: 'uuid', in: 'path', required: true, schema: { type: 'string', pattern: UUID_PATTERN } }],
    },
  ],
  [
    'execute query',
    {
      template: '/orchestration/query',
      operation: {
        parameters: [idempotencyKey],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['query'],
                properties: { query: { type: 'string', minLength: 1, maxLength: 10000 } },
              },
            },
          },
        },
      },
    },
  ],
  [
    'list recipes',
    {
      template: '/expression/recipes/list',
      operation: {
        parameters: [
          { name: 'uiTypes', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['ai', 'js'] } } },
          {
            name: 'tab',
            in: 'query',
            required: true,
            schema: { type: 'string', enum: ['all', 'user', 'workspace', 'favorites'] },
          },
          { name: 'name', in: 'query', schema: { type: 'string' } },
          { name: 'isPublic', in: 'query', schema: { type: 'boolean' } },
        ],
      },
    },
  ],
];

describe('validRequest', () => {
  test.each(OPERATIONS)('should generate requests ajv accepts for %s', (_name, { operation, pathItemParams = [] }) => {
    fc.assert(
      fc.property(validRequest(operation, pathItemParams, { omitHeaders: [] }), (request) => {
        const problems = requestProblems(operation, pathItemParams, request);
        if (problems.length > 0) throw new Error(problems.join('\n'));
      }),
      { numRuns: 200 },
    );
  });

  it('should serialise an array query parameter as repeated keys and numbers as text', () => {
    const [, { operation }] = OPERATIONS[0];
    const requests = fc.sample(validRequest(operation), { numRuns: 200, seed: 9 });
    expect(requests.some((r) => Array.isArray(r.query.reasons) && r.query.reasons.length > 1)).toBe(true);
    expect(requests.map((r) => r.query.offset)).toContain('9007199254740991');
    for (const r of requests)
      for (const v of Object.values(r.query)) expect(typeof v === 'string' || Array.isArray(v)).toBe(true);
  });

  it('should shrink a failing request to a minimal one', () => {
    const [, { operation }] = OPERATIONS[0];
    const out = fc.check(
      fc.property(validRequest(operation), (r) => Number(r.query.limit ?? 0) <= 500),
      { numRuns: 300, seed: 8 },
    );
    expect(out.counterexample?.[0]).toEqual({ pathParams: {}, query: { limit: '501' }, headers: {} });
  });

  it('should keep header values to visible ASCII and leave out omitted headers', () => {
    const [, { operation }] = OPERATIONS[2];
    const withKey = fc.sample(validRequest(operation, [], { includeOptional: 'all', omitHeaders: [] }), {
      numRuns: 100,
      seed: 1,
    });
    for (const r of withKey) expect(r.headers['Idempotency-Key']).toMatch(/^[\x21-\x7e]{1,255}$/);
    const byDefault = fc.sample(validRequest(operation, [], { includeOptional: 'all' }), 20);
    for (const r of byDefault) expect(r.headers).toEqual({});
  });
});

describe('invalidRequests', () => {
  test.each(OPERATIONS)('should list only requests ajv rejects for %s', (_name, { operation, pathItemParams = [] }) => {
    expect(requestProblems(operation, pathItemParams, canonicalRequest(operation, pathItemParams))).toEqual([]);
    const cases = invalidRequests(operation, pathItemParams);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      if (requestProblems(operation, pathItemParams, c.request).length === 0)
        throw new Error(`ajv accepts ${c.description}`);
    }
  });

  const wire = (name: string, location: string) => {
    const [, { operation, pathItemParams = [] }] = OPERATIONS.find(([n]) => n === name)!;
    return invalidRequests(operation, pathItemParams)
      .filter((c) => c.location === location)
      .map((c) => {
        const slot: Record<string, unknown> =
          location === 'path'
            ? c.request.pathParams
            : location === 'query'
              ? c.request.query
              : location === 'header'
                ? c.request.headers
                : { body: c.request.body };
        return `${c.path}:${c.breaks}:${JSON.stringify(slot[c.path.replace(/\[.*$/, '')] ?? (location === 'body' ? c.request.body : null))}`;
      });
  };

  test.each<[string, { given: [string, string]; want: string[] }]>([
    [
      'limit and reasons on the wire',
      {
        given: ['list suppressions', 'query'],
        want: [
          'limit:type:"abc"',
          'limit:type:"1.5"',
          'limit:minimum:"0"',
          'limit:maximum:"1001"',
          'offset:maximum:"9007199254740992"',
          'reasons[0]:enum:["not-a-listed-value"]',
        ],
      },
    ],
    [
      'a malformed uuid in the path',
      {
        given: ['get workflow (path parameter on the path item)', 'path'],
        want: ['uuid:pattern:"not-a-uuid"', 'uuid:pattern:"3f1b6c2e-8d4a-0f5b-9c7d-2e1f0a9b8c7d"'],
      },
    ],
    [
      'a too long idempotency key',
      {
        given: ['execute query', 'header'],
        want: [`Idempotency-Key:maxLength:${JSON.stringify('sample'.padEnd(256, 'a'))}`],
      },
    ],
    [
      'a missing required query parameter and a non-boolean',
      {
        given: ['list recipes', 'query'],
        want: ['tab:required:null', 'isPublic:type:"maybe"', 'tab:enum:"not-a-listed-value"'],
      },
    ],
  ])('should include %s', (_name, { given: [name, location], want }) => {
    expect(wire(name, location)).toEqual(expect.arrayContaining(want));
  });

  it('should not claim wrong types that the wire cannot carry', () => {
    const cases = wire('list suppressions', 'query');
    expect(cases.filter((c) => c.startsWith('reasons:type'))).toEqual([]); // 'text' reads back as ['text']: an enum case
    const recipes = wire('list recipes', 'query');
    expect(recipes.filter((c) => c.startsWith('name:'))).toEqual([]); // every text is a valid string
  });

  it('should break the body in one spot and report body paths', () => {
    const [, { operation }] = OPERATIONS[2];
    const body = invalidRequests(operation)
      .filter((c) => c.location === 'body')
      .map((c) => `${c.path}:${c.breaks}`);
    expect(body).toEqual(
      expect.arrayContaining([
        'query:required',
        'query:maxLength',
        'query:minLength',
        'query:type',
        ':type',
        ':required',
      ]),
    );
  });
});

describe('boundaryRequests', () => {
  test.each(OPERATIONS)('should list only requests ajv accepts for %s', (_name, { operation, pathItemParams = [] }) => {
    for (const b of boundaryRequests(operation, pathItemParams, { omitHeaders: [] })) {
      expect({
        at: `${b.location}:${b.path}`,
        problems: requestProblems(operation, pathItemParams, b.request),
      }).toEqual({ at: `${b.location}:${b.path}`, problems: [] });
    }
  });

  it('should put each parameter and body spot at its edges', () => {
    const at = (name: string) => {
      const [, { operation, pathItemParams = [] }] = OPERATIONS.find(([n]) => n === name)!;
      return boundaryRequests(operation, pathItemParams).map(
        (b) => `${b.location}:${b.path}=${JSON.stringify(b.value).slice(0, 12)}:${JSON.stringify(b.value).length}`,
      );
    };
    expect(at('list suppressions')).toEqual([
      'query:limit=1:1',
      'query:limit=2:1',
      'query:limit=999:3',
      'query:limit=1000:4',
      'query:offset=0:1',
      'query:offset=1:1',
      'query:offset=900719925474:16',
      'query:offset=900719925474:16',
    ]);
    expect(at('execute query')).toEqual([
      'body:={"query":"a":13',
      `body:={"query":"aa:${JSON.stringify({ query: 'a'.repeat(10000) }).length}`,
    ]);
  });
});

describe('requestTarget', () => {
  it('should fill path parameters and repeat exploded query keys', () => {
    const request = {
      pathParams: { uuid: 'a b/c' },
      query: { reasons: ['bounced', 'manual'], limit: '5' },
      headers: {},
    };
    expect(requestTarget('/things/{uuid}', request)).toBe('/things/a%20b%2Fc?reasons=bounced&reasons=manual&limit=5');
  });
});

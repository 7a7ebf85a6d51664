/**
 * The contract states these rules of the API description; each row checks that spec/openapi.yaml carries one.
 * Table-driven so that a missing rule names itself.
 */
import Ajv2020 from 'ajv/dist/2020';
import { followRef, loadContract, RATE_LIMIT_HEADER_NAMES } from './lib';

type Json = Record<string, any>;
const contract = loadContract();
const spec = contract.document as Json;

function deref<T = Json>(node: any): T {
  return followRef(contract.document, node, '#').value as T;
}

const operations = contract.operations.map((op) => ({
  path: op.path,
  method: op.method.toLowerCase(),
  operation: contract.at(op.pointer) as Json,
  id: op.operationId,
}));
const byId = (id: string) => operations.find((o) => o.id === id)!;
const param = (id: string, name: string) =>
  (byId(id).operation.parameters as any[]).map((p) => deref(p)).find((p) => p.name === name) as Json;
const schema = (name: string) => spec.components.schemas[name] as Json;
const responses = operations.flatMap((o) =>
  Object.entries(o.operation.responses as Json).map(([status, response]) => ({
    ...o,
    status,
    response: deref(response),
  })),
);
const rateLimitHeaders = RATE_LIMIT_HEADER_NAMES;

describe('the contract (spec/openapi.yaml)', () => {
  it('should be OpenAPI 3.1 with the draft 2020-12 dialect and a server whose path is /v1 (the local mock by default)', () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(spec.servers[0].url).toBe('{scheme}://{host}/v1');
    expect(contract.basePath).toBe('/v1');
    expect(spec.servers[0].variables.host.default).toBe('127.0.0.1:4010');
  });

  it.each([
    ['listSuppressions', 'get', '/mailboxManagement/suppressions'],
    ['createMcpServer', 'post', '/ai/mcpServers'],
    ['downloadRuns', 'post', '/orchestration/runs/download'],
    ['updateCurrentWorkspace', 'put', '/workspaceManagement/workspaces/current'],
    ['executeQuery', 'post', '/orchestration/query'],
    ['getWorkflow', 'get', '/orchestration/workflows/{uuid}'],
    ['getModel', 'get', '/storage/models/{uuid}'],
    ['cancelDomain', 'delete', '/domainManagement/domains/{uuid}'],
    ['listAllocations', 'get', '/revenueOrganization/allocations/list'],
    ['removeEnvironmentVariable', 'delete', '/workspaceManagement/env-vars/{uuid}'],
    ['listRecipes', 'get', '/expression/recipes/list'],
  ])('should declare %s as %s %s with an area tag', (id, method, path) => {
    const operation = byId(id);
    expect(operation).toMatchObject({ method, path });
    expect(operation.operation.tags.length).toBeGreaterThan(0);
    expect(operation.operation.tags).not.toContain('provisional');
  });

  it.each(['createRun', 'getRun', 'cancelRun', 'createBatch', 'getBatch'])(
    'should mark the provisional operation %s with the provisional tag and an x-assumption',
    (id) => {
      const { operation } = byId(id);
      expect(operation.tags).toContain('provisional');
      expect(operation['x-provisional']).toBe(true);
      expect(typeof operation['x-assumption']).toBe('string');
    },
  );

  it('should require a credential on every operation (bearer or OAuth 2.0 authorization code)', () => {
    expect(spec.security).toEqual([{ bearerAuth: [] }, { oauth2: [] }]);
    for (const { operation } of operations) expect(operation.security).toEqual(spec.security);
    const oauth = spec.components.securitySchemes.oauth2;
    expect(Object.keys(oauth.flows.authorizationCode.scopes).sort()).toEqual([
      'email',
      'offline_access',
      'openid',
      'profile',
    ]);
    expect(oauth.description).toMatch(/S256/);
    expect(oauth.description).toMatch(/audience/);
  });

  it.each(responses.map((r) => [`${r.id} ${r.status}`, r] as const))(
    'should declare all eight rate-limit headers as required on %s',
    (_name, { response }) => {
      for (const name of rateLimitHeaders) expect(deref(response.headers?.[name])?.required).toBe(true);
    },
  );

  it.each(responses.filter((r) => Number(r.status) >= 400).map((r) => [`${r.id} ${r.status}`, r] as const))(
    'should answer %s with the shared error schema',
    (_name, { response }) => {
      expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    },
  );

  it('should put Retry-After on every 429 and Location on every 202', () => {
    for (const r of responses.filter((x) => x.status === '429'))
      expect(deref(r.response.headers['Retry-After']).required).toBe(true);
    const accepted = responses.filter((x) => x.status === '202');
    expect(accepted.map((r) => r.id).sort()).toEqual(['cancelRun', 'createBatch', 'createRun']);
    for (const r of accepted) expect(deref(r.response.headers.Location).required).toBe(true);
  });

  it('should define Deprecation and Sunset headers for retiring operations, while none is deprecated', () => {
    expect(spec.components.headers.Deprecation).toBeDefined();
    expect(spec.components.headers.Sunset).toBeDefined();
    expect(operations.filter((o) => o.operation.deprecated)).toEqual([]);
  });

  it.each(operations.map((o) => [o.id, o] as const))(
    'should list the error statuses the description names on %s',
    (_id, o) => {
      const statuses = Object.keys(o.operation.responses).filter((s) => Number(s) >= 400);
      const expected = ['400', '401', '404', '429', '500'];
      if (['post', 'put', 'patch'].includes(o.method)) expected.push('409', '422');
      expect(statuses).toEqual(expect.arrayContaining(expected));
    },
  );

  it.each(operations.filter((o) => ['post', 'put', 'patch'].includes(o.method)).map((o) => [o.id] as const))(
    'should accept an Idempotency-Key of at most 255 characters on %s',
    (id) => {
      expect(param(id, 'Idempotency-Key')).toMatchObject({
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 255 },
      });
    },
  );

  it('should state the suppressions list parameters exactly', () => {
    expect(deref(param('listSuppressions', 'reasons').schema.items).enum).toEqual([
      'unsubscribed',
      'bounced',
      'complained',
      'manual',
    ]);
    expect(param('listSuppressions', 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(param('listSuppressions', 'offset').schema).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 9007199254740991,
    });
    expect(schema('ListSuppressionsResponse').additionalProperties).toBe(false);
    expect(schema('ListSuppressionsResponse').properties.count.minimum).toBe(0);
  });

  it('should close the Suppression and require all its fields, with nullable mailbox and message uuids', () => {
    const suppression = schema('Suppression');
    expect(suppression.additionalProperties).toBe(false);
    expect(suppression.required.sort()).toEqual(Object.keys(suppression.properties).sort());
    expect(suppression.properties.mailboxUuid.anyOf).toContainEqual({ type: 'null' });
    expect(suppression.properties.messageUuid.anyOf).toContainEqual({ type: 'null' });
  });

  it('should state the input limits of MCP servers, workspaces and queries', () => {
    expect(schema('CreateMcpServerRequest').properties.name).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(schema('CreateMcpServerRequest').properties.description).toMatchObject({ minLength: 1, maxLength: 1000 });
    expect(schema('UpdateWorkspaceRequest').properties.name).toMatchObject({
      minLength: 1,
      maxLength: 255,
      pattern: '^[^<>]*$',
    });
    expect(schema('QueryRequest').properties.query.maxLength).toBe(10000);
  });

  it.each([
    ['logoBase64', /null removes the logo/],
    ['browserExtensionMasterAgentUuid', /null clears/],
    ['browserExtensionAvailableAgentUuids', /null clears/],
    ['defaultRoleUuid', /null means the role `viewer`/],
    ['allowedLoginProviders', /null allows all/],
  ])('should make the workspace field %s nullable with its stated meaning', (field, meaning) => {
    const property = schema('UpdateWorkspaceRequest').properties[field];
    const acceptsNull =
      (Array.isArray(property.type) && property.type.includes('null')) ||
      property.anyOf?.some((s: Json) => s.type === 'null');
    expect(acceptsNull).toBe(true);
    expect(property.description).toMatch(meaning);
  });

  it('should keep one-value enumerations open (examples, not enum) and the stated sets closed', () => {
    expect(schema('Domain').properties.status).toEqual(expect.objectContaining({ examples: ['pending'] }));
    expect(schema('Domain').properties.status.enum).toBeUndefined();
    expect(schema('RunStatus').enum).toEqual([
      'idle',
      'pending',
      'running',
      'success',
      'error',
      'cancelling',
      'cancelled',
      'skipped',
    ]);
    expect(schema('TerminalRunStatus').enum).toEqual(['success', 'error', 'cancelled', 'skipped']);
    expect(schema('LoginProvider').enum).toHaveLength(5);
  });

  it('should keep the error shape open with errorMessage and reason', () => {
    expect(schema('Error')).toMatchObject({ required: ['errorMessage'], additionalProperties: true });
    expect(schema('Error').properties.reason.type).toBe('string');
  });

  it.each(['Action', 'McpResource', 'Capability'])(
    'should model %s as an open union with the known variant as one branch',
    (name) => {
      expect(schema(name).anyOf).toHaveLength(2);
    },
  );

  describe('the contract UUID rule', () => {
    const validate = new Ajv2020({ strict: false }).compile(schema('Uuid'));
    it.each([
      ['a version 4, variant a uuid', '3f2b8c1e-9d4a-4b7e-ac2d-1a5f6e7d8c9b', true],
      ['a version 1 uuid', 'c232ab00-9414-11ec-b3c8-9f6bdeced846', true],
      ['a version 8, variant b uuid', '3f2b8c1e-9d4a-8b7e-bc2d-1a5f6e7d8c9b', true],
      ['the nil uuid', '00000000-0000-0000-0000-000000000000', true],
      ['the max uuid', 'ffffffff-ffff-ffff-ffff-ffffffffffff', true],
      ['version 0', '3f2b8c1e-9d4a-0b7e-8c2d-1a5f6e7d8c9b', false],
      ['version 9', '3f2b8c1e-9d4a-9b7e-8c2d-1a5f6e7d8c9b', false],
      ['variant c', '3f2b8c1e-9d4a-4b7e-cc2d-1a5f6e7d8c9b', false],
      ['a urn', 'urn:uuid:3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b', false],
      ['no dashes', '3f2b8c1e9d4a4b7e8c2d1a5f6e7d8c9b', false],
    ])('should judge %s', (_name, value, valid) => {
      expect(validate(value)).toBe(valid);
    });
  });

  it('should list every cross-cutting rule in x-rules with unique ids', () => {
    const ids = (spec['x-rules'] as { id: string; text: string }[]).map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'idempotency-replay',
        'idempotency-key-reuse-422',
        'idempotency-concurrent-409',
        'idempotency-key-expiry',
        'idempotency-key-length',
        'idempotency-no-multipart',
        'ratelimit-headers-every-response',
        'ratelimit-429-retry-after',
        'error-shape',
        'auth-required-401',
        'async-202-location',
        'async-poll-terminal',
        'async-no-repeat-create',
        'deprecation-sunset',
        'unknown-fields-ignored',
        'workspace-scoping',
      ]),
    );
  });

  it('should explain every parameter whose name the description does not show', () => {
    for (const id of ['listAllocations', 'listRecipes']) expect(byId(id).operation['x-assumption']).toMatch(/names/);
  });
});

import { startCheckedMock } from './testing/client';

/**
 * Hostile input against a running mock (x-rules auth-required-401, error-shape, ratelimit-headers-every-response):
 * no crash, no 5xx, every answer in the error shape with the rate-limit headers, nothing half-applied.
 */
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'prototype'];

describe('the mock under hostile input', () => {
  let m: Awaited<ReturnType<typeof startCheckedMock>>;
  beforeAll(async () => {
    m = await startCheckedMock();
  });
  afterAll(() => m.close());

  it.each(PROTOTYPE_KEYS)('should answer 401 to "Authorization: Bearer %s" on stateful and Prism-served operations', async (token) => {
    for (const [method, path, body] of [
      ['GET', '/mailboxManagement/suppressions', undefined],
      ['POST', '/orchestration/query', { query: 'SELECT 1' }],
      ['PUT', '/workspaceManagement/workspaces/current', { name: 'x' }],
      ['GET', '/orchestration/workflows/3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b', undefined],
    ] as const) {
      const res = await m.call(method, path, { token, body });
      expect([method, path, res.status, res.body.reason]).toEqual([method, path, 401, 'unauthorized']);
      expect(res.headers['ratelimit-limit']).toMatch(/^\d+$/);
    }
  });

  it.each(PROTOTYPE_KEYS)('should not fail on %s as a query name, header name, JSON key or Idempotency-Key', async (key) => {
    const list = await m.call('GET', '/mailboxManagement/suppressions', { query: `${key}=1&${key}[]=2&limit=2`, headers: { [key === '__proto__' ? 'x-proto' : key]: '1' } });
    expect(list.status).toBe(200);
    const put = await m.call('PUT', '/workspaceManagement/workspaces/current', { rawBody: `{"${key}": {"a": 1}, "metadata": {"${key}": [1]}}`, headers: { 'idempotency-key': key, 'content-type': 'application/json' } });
    expect(put.status).toBe(200);
    const replay = await m.call('PUT', '/workspaceManagement/workspaces/current', { rawBody: `{"${key}": {"a": 1}, "metadata": {"${key}": [1]}}`, headers: { 'idempotency-key': key, 'content-type': 'application/json' } });
    expect(replay.status).toBe(200);
    const query = await m.call('POST', '/orchestration/query', { body: { query: 'SELECT 1 AS one', [key]: 1 } });
    expect(query.status).toBe(200);
    const mcp = await m.call('POST', '/ai/mcpServers', { rawBody: `{"name": "n", "description": "d", "${key}": 1}`, headers: { 'content-type': 'application/json' } });
    expect(mcp.status).toBeLessThan(300);
  });

  it('should hand prototype-named query parameters to Prism without failing', async () => {
    const res = await m.call('GET', '/mailboxManagement/suppressions', { query: '__proto__=1&constructor=2&toString=3', headers: { prefer: 'code=200' } });
    expect(res.status).toBe(200);
  });
});

import { RATE_LIMIT_HEADER_NAMES } from '../spec/lib';
import { startCheckedMock } from './testing/client';
import { sendRaw } from './testing/raw-http';

/**
 * Hostile input against a running mock (x-rules auth-required-401, error-shape, ratelimit-headers-every-response):
 * no crash, no 5xx, every answer in the error shape with the rate-limit headers, nothing half-applied.
 */
const PROTOTYPE_KEYS = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  'prototype',
];

describe('the mock under hostile input', () => {
  let m: Awaited<ReturnType<typeof startCheckedMock>>;
  beforeAll(async () => {
    m = await startCheckedMock();
  });
  afterAll(() => m.close());

  it.each(PROTOTYPE_KEYS)(
    'should answer 401 to "Authorization: Bearer %s" on stateful and Prism-served operations',
    async (token) => {
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
    },
  );

  it.each(PROTOTYPE_KEYS)(
    'should not fail on %s as a query name, header name, JSON key or Idempotency-Key',
    async (key) => {
      const list = await m.call('GET', '/mailboxManagement/suppressions', {
        query: `${key}=1&${key}[]=2&limit=2`,
        headers: { [key === '__proto__' ? 'x-proto' : key]: '1' },
      });
      expect(list.status).toBe(200);
      const put = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        rawBody: `{"${key}": {"a": 1}, "metadata": {"${key}": [1]}}`,
        headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      });
      expect(put.status).toBe(200);
      const replay = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        rawBody: `{"${key}": {"a": 1}, "metadata": {"${key}": [1]}}`,
        headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      });
      expect(replay.status).toBe(200);
      const query = await m.call('POST', '/orchestration/query', { body: { query: 'SELECT 1 AS one', [key]: 1 } });
      expect(query.status).toBe(200);
      const mcp = await m.call('POST', '/ai/mcpServers', {
        rawBody: `{"name": "n", "description": "d", "${key}": 1}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(mcp.status).toBeLessThan(300);
    },
  );

  it('should hand prototype-named query parameters to Prism without failing', async () => {
    const res = await m.call('GET', '/mailboxManagement/suppressions', {
      query: '__proto__=1&constructor=2&toString=3',
      headers: { prefer: 'code=200' },
    });
    expect(res.status).toBe(200);
  });
});

describe('input bounds that protect the process (answered 4xx in the error shape, in the caller bucket)', () => {
  let m: Awaited<ReturnType<typeof startCheckedMock>>;
  beforeAll(async () => {
    m = await startCheckedMock({ bodyTimeoutMs: 300 });
  });
  afterAll(() => m.close());
  const host = () => new URL(m.mock.url).host;

  it('should answer 413 at once to a declared 10 GB body, counted in the workspace bucket', async () => {
    const before = await m.call('GET', '/mailboxManagement/suppressions');
    const answer = await sendRaw(
      m.mock.url,
      `POST /v1/orchestration/query HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer mock-token-a\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n{"query":`,
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ reason: 'payload_too_large', errorMessage: expect.any(String) });
    expect(answer.elapsedMs).toBeLessThan(2000);
    expect(Number(answer.headers['ratelimit-remaining'])).toBe(Number(before.headers['ratelimit-remaining']) - 1);
  });

  it('should count an Idempotency-Key sent as UTF-8 in characters: 255 emoji pass (and replay), 256 do not', async () => {
    const post = (key: string) =>
      sendRaw(
        m.mock.url,
        Buffer.from(
          `POST /v1/ai/mcpServers HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer mock-token-a\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"name":"em"}`,
          'utf8',
        ),
      );
    const emoji = '\u{1F600}';
    const first = await post(emoji.repeat(255));
    expect(first.status).toBe(201);
    const replay = await post(emoji.repeat(255));
    expect([replay.status, replay.body.mcpServer.uuid]).toEqual([201, first.body.mcpServer.uuid]);
    const over = await post(emoji.repeat(256));
    expect([over.status, over.body.reason]).toEqual([400, 'invalid_idempotency_key']);
    expect(over.body.errorMessage).toContain('got 256');
  });

  it('should answer 400 body_timeout to a body that stalls, and close the connection', async () => {
    const answer = await sendRaw(
      m.mock.url,
      `PUT /v1/workspaceManagement/workspaces/current HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer mock-token-a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    expect([answer.status, answer.body.reason, answer.headers.connection]).toEqual([400, 'body_timeout', 'close']);
    expect(answer.headers['ratelimit-limit']).toMatch(/^\d+$/);
  });

  it('should refuse 6000-deep JSON in an open field, apply nothing, and free its Idempotency-Key', async () => {
    const deep = `{"name":"deep","metadata":{"mainGoal":["x"],"open":${'['.repeat(6000)}${']'.repeat(6000)}}}`;
    const headers = { 'idempotency-key': 'deep-1', 'content-type': 'application/json' };
    const refused = await m.call('PUT', '/workspaceManagement/workspaces/current', { rawBody: deep, headers });
    expect([refused.status, refused.body.reason]).toEqual([400, 'json_too_deep']);
    const retry = await m.call('PUT', '/workspaceManagement/workspaces/current', {
      body: { name: 'shallow' },
      headers,
    });
    expect(retry.status).toBe(200);
    expect(retry.body.workspace.name).toBe('shallow');
    const later = await m.call('PUT', '/workspaceManagement/workspaces/current', {
      body: { allowedEmailDomains: ['example.com'] },
    });
    expect(later.status).toBe(200);
  });

  it('should refuse 150 000 record ids at once, and 1001 by the contract bound, creating no run', async () => {
    const count = async () =>
      (await m.call('POST', '/orchestration/query', { body: { query: 'SELECT count(*) AS n FROM runs' } })).body.rows[0]
        .n;
    const runsBefore = await count();
    const started = Date.now();
    const huge = await m.call('POST', '/orchestration/batches', {
      rawBody: `{"recordIds":[${'"",'.repeat(149_999)}""]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect([huge.status, huge.body.reason]).toEqual([400, 'json_array_too_long']);
    expect(Date.now() - started).toBeLessThan(1000);
    const over = await m.call('POST', '/orchestration/batches', {
      body: { recordIds: Array.from({ length: 1001 }, (_, i) => `r${i}`) },
    });
    expect([over.status, over.body.reason]).toEqual([400, 'invalid_request']);
    expect(await count()).toBe(runsBefore);
  });

  it('should create the largest batch allowed and answer its status and queries quickly', async () => {
    const created = await m.call('POST', '/orchestration/batches', {
      body: { recordIds: Array.from({ length: 1000 }, (_, i) => `r${i}`) },
    });
    expect(created.status).toBe(202);
    const started = Date.now();
    const batch = await m.call('GET', `/orchestration/batches/${created.body.batch.uuid}`);
    expect(batch.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    const rows = await m.call('POST', '/orchestration/query', {
      body: { query: `SELECT count(*) AS n FROM runs WHERE batchUuid = '${created.body.batch.uuid}'` },
    });
    expect(rows.body.rows).toEqual([{ n: 1000 }]);
  });
});

describe('every answer carries the error shape and the rate-limit headers, Node-level refusals included', () => {
  let m: Awaited<ReturnType<typeof startCheckedMock>>;
  beforeAll(async () => {
    m = await startCheckedMock({ publicUrl: 'https://mock.example.test:8443' });
  });
  afterAll(() => m.close());
  const host = () => new URL(m.mock.url).host;
  const expectShaped = (
    // `any`: the body is whatever a refusal sent; the assertions below read it by its paths
    answer: { status: number; headers: Record<string, string>; body: any },
    status: number,
    reason: string,
  ) => {
    expect([answer.status, answer.body?.reason, typeof answer.body?.errorMessage]).toEqual([status, reason, 'string']);
    for (const name of RATE_LIMIT_HEADER_NAMES.map((header) => header.toLowerCase())) {
      expect([name, answer.headers[name]]).toEqual([name, expect.any(String)]);
    }
  };

  it.each([
    [
      'an unknown method',
      () => `FOO /v1/mailboxManagement/suppressions HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
      400,
      'unknown_method',
    ],
    [
      'bad bytes in the request line',
      () => `GET /v1/\u0001 HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
      400,
      'malformed_http',
    ],
    [
      'headers too large',
      () =>
        `GET /v1/mailboxManagement/suppressions HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'an Expect it cannot meet',
      () => `POST /v1/orchestration/query HTTP/1.1\r\nHost: ${host()}\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}`,
      417,
      'expectation_failed',
    ],
    [
      'HTTP/1.1 without Host',
      () => 'GET /v1/mailboxManagement/suppressions HTTP/1.1\r\nAuthorization: Bearer mock-token-a\r\n\r\n',
      400,
      'missing_host',
    ],
  ])('should answer %s in the error shape with the rate-limit headers', async (_name, request, status, reason) => {
    expectShaped(await sendRaw(m.mock.url, request()), status, reason);
  });

  it('should answer HEAD like GET, without a body', async () => {
    const answer = await fetch(`${m.mock.url}/mailboxManagement/suppressions`, {
      method: 'HEAD',
      headers: { authorization: 'Bearer mock-token-a' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    expect(await answer.text()).toBe('');
  });

  it('should refuse a repeated limit whatever the order', async () => {
    for (const query of ['limit=5&limit=2000', 'limit=2000&limit=5', 'limit=5&limit=5']) {
      const res = await m.call('GET', '/mailboxManagement/suppressions', { query });
      expect([query, res.status, res.body.reason]).toEqual([query, 400, 'invalid_request']);
    }
  });

  it('should build Location and download URLs from the public address, never from Host', async () => {
    const created = await fetch(`${m.mock.url}/orchestration/runs`, {
      method: 'POST',
      headers: { authorization: 'Bearer mock-token-a', 'content-type': 'application/json', host: 'evil.example' },
      body: '{}',
    });
    expect(created.headers.get('location')).toMatch(/^https:\/\/mock\.example\.test:8443\/v1\/orchestration\/runs\//);
    const exported = await m.call('POST', '/orchestration/runs/download', {
      body: {},
      headers: { host: 'evil.example' },
    });
    expect(exported.body.url).toMatch(/^https:\/\/mock\.example\.test:8443\/downloads\//);
  });

  it('should serve a download only with the owning workspace credential, in the error shape otherwise', async () => {
    const exported = await m.call('POST', '/orchestration/runs/download', { body: {} });
    const local = `${m.mock.origin}${new URL(exported.body.url).pathname}`;
    const read = async (token?: string) => {
      const res = await fetch(local, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      return { status: res.status, headers, body: await res.json() };
    };
    expectShaped(await read(), 401, 'unauthorized');
    expectShaped(await read('mock-token-b'), 404, 'not_found');
    const own = await read('mock-token-a');
    expect(own.status).toBe(200);
    expect(Array.isArray(own.body.runs)).toBe(true);
    expect(own.headers['ratelimit-limit']).toMatch(/^\d+$/);
  });
});

describe('the bucket an uncounted or refused answer reports (preflight, 413)', () => {
  it('should report the workspace bucket with a valid credential, else the address bucket', async () => {
    const m = await startCheckedMock({ rateLimit: 100, rateWindowSeconds: 3600 });
    try {
      const host = new URL(m.mock.url).host;
      const remaining = (answer: { headers: Record<string, string> }) => Number(answer.headers['ratelimit-remaining']);
      const preflight = async (authorization?: string) => {
        const res = await fetch(`${m.mock.url}/ai/mcpServers`, {
          method: 'OPTIONS',
          headers: {
            origin: 'http://localhost:3000',
            'access-control-request-method': 'POST',
            ...(authorization ? { authorization } : {}),
          },
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => (headers[name] = value));
        expect(res.status).toBe(204);
        expect(headers.ratelimit).toBe(`"workspace";r=${headers['ratelimit-remaining']};t=3600`);
        return { headers };
      };
      // The workspace bucket of token a: 1 used; the address bucket: 3 used.
      expect(remaining(await m.call('GET', '/mailboxManagement/suppressions'))).toBe(99);
      for (let i = 0; i < 3; i++) await m.call('GET', '/mailboxManagement/suppressions', { token: null });

      // Preflights are never counted: the same figure twice.
      expect([remaining(await preflight()), remaining(await preflight())]).toEqual([97, 97]);
      expect(remaining(await preflight('Bearer mock-token-a'))).toBe(99);
      expect(remaining(await preflight('Bearer mock-token-a'))).toBe(99);
      expect(remaining(await preflight('Bearer mock-token-b'))).toBe(100);
      expect(remaining(await preflight('Bearer not-a-token'))).toBe(97);

      // A 413 is counted in the bucket of its credential; without one the 401 comes first, in the address bucket.
      const tooLarge = (authorization: string) =>
        sendRaw(
          m.mock.url,
          `POST /v1/orchestration/query HTTP/1.1\r\nHost: ${host}\r\n${authorization}Content-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n{`,
        );
      const withCredential = await tooLarge('Authorization: Bearer mock-token-a\r\n');
      expect([withCredential.status, remaining(withCredential)]).toEqual([413, 98]);
      const without = await tooLarge('');
      expect([without.status, remaining(without)]).toEqual([401, 96]);
    } finally {
      await m.close();
    }
  });
});

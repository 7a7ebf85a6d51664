/**
 * HTTP tests against a running mock; every response is checked against the spec by the client
 * (mocks/testing/client.ts), so any undeclared status, missing header or invalid body fails the test.
 */
import { WORKSPACE_A, WORKSPACE_B } from './config';
import { startCheckedMock } from './testing/client';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

describe('mock over HTTP', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 0);
  let m: Checked;
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, rateLimit: 100_000 });
  });
  afterAll(() => m.close());

  describe('auth (x-rules auth-required-401)', () => {
    it.each([
      ['missing', undefined],
      ['wrong scheme', 'Basic bW9jazptb2Nr'],
      ['malformed', 'Bearer'],
      ['unknown token', 'Bearer not-a-token'],
    ])(
      'should answer 401 in the error shape with rate-limit headers for a %s credential',
      async (_name, authorization) => {
        const res = await m.call('GET', '/mailboxManagement/suppressions', {
          token: null,
          headers: authorization ? { authorization } : {},
        });
        expect(res.status).toBe(401);
        expect(res.body.reason).toBe('unauthorized');
        expect(res.headers['ratelimit-limit']).toBe('100000');
      },
    );

    it('should scope every read to the workspace of the token (x-rules workspace-scoping)', async () => {
      const a = await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-a' });
      const b = await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-b' });
      expect(a.body.suppressions.every((s: { workspaceUuid: string }) => s.workspaceUuid === WORKSPACE_A)).toBe(true);
      expect(b.body.suppressions.every((s: { workspaceUuid: string }) => s.workspaceUuid === WORKSPACE_B)).toBe(true);
      const domainOfA = [...(await m.mock.store.snapshot(WORKSPACE_A)).domains.keys()][0];
      expect((await m.call('DELETE', `/domainManagement/domains/${domainOfA}`, { token: 'mock-token-b' })).status).toBe(
        404,
      );
    });
  });

  describe('lists', () => {
    it('should filter suppressions by reason, page them, and count every match', async () => {
      const all = await m.call('GET', '/mailboxManagement/suppressions', { query: 'limit=1000' });
      const bounced = all.body.suppressions.filter((s: { reason: string }) => s.reason === 'bounced');
      const res = await m.call('GET', '/mailboxManagement/suppressions', { query: 'reasons=bounced&limit=2&offset=1' });
      expect(res.body.count).toBe(bounced.length);
      expect(res.body.suppressions).toEqual(bounced.slice(1, 3));
      const two = await m.call('GET', '/mailboxManagement/suppressions', {
        query: 'reasons=bounced&reasons=manual&limit=1000',
      });
      expect(two.body.count).toBe(
        all.body.suppressions.filter((s: { reason: string }) => ['bounced', 'manual'].includes(s.reason)).length,
      );
    });

    it('should filter allocations and recipes', async () => {
      const all = await m.call('GET', '/revenueOrganization/allocations/list', { query: 'limit=100' });
      const member = all.body.allocations[0].memberUuid;
      const byMember = await m.call('GET', '/revenueOrganization/allocations/list', {
        query: `memberUuids=${member}&limit=100`,
      });
      expect(byMember.body.allocations.length).toBeGreaterThan(0);
      expect(byMember.body.allocations.every((a: { memberUuid: string }) => a.memberUuid === member)).toBe(true);
      const favorites = await m.call('GET', '/expression/recipes/list', { query: 'tab=favorites&limit=100' });
      expect(favorites.body.recipes.every((r: { isFavorite: boolean }) => r.isFavorite)).toBe(true);
      const paged = await m.call('GET', '/expression/recipes/list', { query: 'limit=2&offset=1' });
      expect(paged.body.recipes).toHaveLength(2);
      // The spec states no bounds for these: none is invented.
      expect((await m.call('GET', '/expression/recipes/list', { query: 'limit=-5' })).body.recipes).toEqual([]);
      expect(
        (await m.call('GET', '/revenueOrganization/allocations/list', { query: 'offset=-3&limit=1' })).body.allocations,
      ).toHaveLength(1);
    });
  });

  describe('state', () => {
    it('should cancel a domain keeping its credits, and agree on a later call', async () => {
      const [uuid, domain] = [...(await m.mock.store.snapshot(WORKSPACE_A)).domains.entries()][1];
      const credits = domain.priceCredits;
      const first = await m.call('DELETE', `/domainManagement/domains/${uuid}`);
      expect(first.body.domain).toMatchObject({ status: 'cancelled', priceCredits: credits });
      const again = await m.call('DELETE', `/domainManagement/domains/${uuid}`);
      expect(again.body.domain).toMatchObject({ status: 'cancelled', priceCredits: credits });
    });

    it('should remove an environment variable once, then answer 404', async () => {
      const uuid = [...(await m.mock.store.snapshot(WORKSPACE_A)).envVars.keys()][0];
      expect((await m.call('DELETE', `/workspaceManagement/env-vars/${uuid}`)).body).toEqual({});
      expect((await m.call('DELETE', `/workspaceManagement/env-vars/${uuid}`)).status).toBe(404);
    });

    it('should persist PUT of the current workspace with the stated meaning of each null', async () => {
      const res = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        body: {
          name: 'Renamed',
          logoBase64: null,
          browserExtensionMasterAgentUuid: null,
          defaultRoleUuid: null,
          allowedLoginProviders: null,
          syncs: [{ cron: '*/5 * * * *' }],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.workspace).toMatchObject({
        name: 'Renamed',
        logoUrl: null,
        browserExtensionMasterAgentUuid: null,
        defaultRoleUuid: null,
        allowedLoginProviders: null,
      });
      expect(res.body.workspace.syncs[0].cron).toBe('*/5 * * * *');
      const next = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        body: { allowedLoginProviders: ['email'] },
      });
      expect(next.body.workspace).toMatchObject({ name: 'Renamed', allowedLoginProviders: ['email'] });
      expect((await m.mock.store.snapshot(WORKSPACE_A)).workspace.name).toBe('Renamed');
    });

    it('should keep created MCP servers', async () => {
      const before = (await m.mock.store.snapshot(WORKSPACE_A)).mcpServers.size;
      const res = await m.call('POST', '/ai/mcpServers', {
        body: { name: 'Mine', description: 'Tools', capabilities: [{ slug: 'sandbox' }] },
      });
      expect(res.status).toBe(201);
      expect(res.body.mcpServer.capabilities[0].config.scope).toBe('chat');
      expect((await m.mock.store.snapshot(WORKSPACE_A)).mcpServers.get(res.body.mcpServer.uuid)).toBeDefined();
      expect((await m.mock.store.snapshot(WORKSPACE_A)).mcpServers.size).toBe(before + 1);
    });

    it('should answer the runs download with a URL the mock serves, filters applied', async () => {
      const res = await m.call('POST', '/orchestration/runs/download', { body: { statuses: ['error'] } });
      expect(res.body.url).toMatch(new RegExp(`^${m.mock.origin}/downloads/`));
      const download = await (await fetch(res.body.url, { headers: { authorization: 'Bearer mock-token-a' } })).json();
      expect(download.runs.length).toBeGreaterThan(0);
      expect(
        download.runs.every(
          (r: { status: string; workspaceUuid: string }) => r.status === 'error' && r.workspaceUuid === WORKSPACE_A,
        ),
      ).toBe(true);
    });

    it('should run a read-only SQL query scoped to the workspace', async () => {
      const res = await m.call('POST', '/orchestration/query', {
        body: { query: 'SELECT DISTINCT workspaceUuid FROM runs' },
      });
      expect(res.status).toBe(200);
      expect(res.body.rows).toEqual([{ workspaceUuid: WORKSPACE_A }]);
    });
  });

  describe('async runs (x-rules async-202-location, async-poll-terminal)', () => {
    it('should answer 202 with Location, move through non-terminal statuses, then stay terminal', async () => {
      const created = await m.call('POST', '/orchestration/runs', { body: { recordId: 'r-1' } });
      expect(created.status).toBe(202);
      const path = new URL(created.headers.location).pathname.replace(/^\/v1/, '');
      expect(created.body.run.status).toBe('pending');
      clock += 500;
      const running = await m.call('GET', path);
      expect(running.body.run.status).toBe('running');
      expect(running.headers['retry-after']).toBeUndefined();
      clock += 600;
      const done = await m.call('GET', path);
      expect(done.body.run.status).toBe('success');
      clock += 60_000;
      expect((await m.call('GET', path)).body.run).toEqual(done.body.run);
    });

    it('should cancel through cancelling to cancelled, and return a finished run unchanged', async () => {
      const created = await m.call('POST', '/orchestration/runs', { body: {} });
      const uuid = created.body.run.uuid;
      const cancel = await m.call('POST', `/orchestration/runs/${uuid}/cancel`);
      expect(cancel.status).toBe(202);
      expect(cancel.body.run.status).toBe('cancelling');
      clock += 1000;
      expect((await m.call('GET', `/orchestration/runs/${uuid}`)).body.run.status).toBe('cancelled');
      const again = await m.call('POST', `/orchestration/runs/${uuid}/cancel`);
      expect(again.status).toBe(200);
      expect(again.body.run.status).toBe('cancelled');
    });

    it('should create a batch with 202 and Location and finish it', async () => {
      const created = await m.call('POST', '/orchestration/batches', { body: { recordIds: ['a', 'b'] } });
      expect(created.status).toBe(202);
      clock += 2000;
      const polled = await m.call('GET', new URL(created.headers.location).pathname.replace(/^\/v1/, ''));
      expect(polled.body.batch.status).toBe('success');
    });
  });

  describe('errors (x-rules request-validation, error-shape)', () => {
    it.each([
      ['limit over 1000', 'GET', '/mailboxManagement/suppressions', { query: 'limit=1001' }, 'limit'],
      ['limit not a number', 'GET', '/mailboxManagement/suppressions', { query: 'limit=ten' }, 'limit'],
      ['unknown reason', 'GET', '/mailboxManagement/suppressions', { query: 'reasons=lost' }, 'reasons'],
      ['name too long', 'POST', '/ai/mcpServers', { body: { name: 'x'.repeat(256) } }, 'name'],
      ['name with <', 'PUT', '/workspaceManagement/workspaces/current', { body: { name: '<b>' } }, 'name'],
      ['bad folder uuid', 'POST', '/ai/mcpServers', { body: { folderUuid: 'nope' } }, 'folderUuid'],
      ['query too long', 'POST', '/orchestration/query', { body: { query: 'x'.repeat(10_001) } }, 'query'],
      ['path uuid', 'GET', '/orchestration/workflows/not-a-uuid', {}, 'uuid'],
    ])('should answer 400 naming the field for %s', async (_name, method, path, options, field) => {
      const res = await m.call(method, path, options);
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('invalid_request');
      expect(res.body.errorMessage).toContain(field);
    });

    it('should answer 400 for malformed JSON and leave state alone', async () => {
      const before = JSON.stringify((await m.mock.store.snapshot(WORKSPACE_A)).workspace);
      const res = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        rawBody: '{"name": "x",',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('malformed_json');
      expect(JSON.stringify((await m.mock.store.snapshot(WORKSPACE_A)).workspace)).toBe(before);
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"name"'],
      ['null', 'null'],
      ['a wrong type', '{"allowedEmailDomains": "example.com"}'],
    ])('should answer 400 for %s as the workspace body and change nothing', async (_name, rawBody) => {
      const before = JSON.stringify((await m.mock.store.snapshot(WORKSPACE_A)).workspace);
      const res = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify((await m.mock.store.snapshot(WORKSPACE_A)).workspace)).toBe(before);
    });

    it('should not let a __proto__ key reach any prototype', async () => {
      const rawBody = '{"metadata": {"__proto__": {"polluted": true}, "salesRepCount": "5"}}';
      const res = await m.call('PUT', '/workspaceManagement/workspaces/current', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf((await m.mock.store.snapshot(WORKSPACE_A)).workspace.metadata)).toBe(
        Object.prototype,
      );
    });

    it('should answer 413 beyond the body limit, 404 for unknown routes, 405 for an undeclared method', async () => {
      const big = await m.call('POST', '/ai/mcpServers', { body: { name: 'n', description: 'x'.repeat(1_100_000) } });
      expect(big.status).toBe(413);
      expect((await m.call('GET', '/no/such/route')).status).toBe(404);
      const wrongMethod = await m.call('PATCH', '/mailboxManagement/suppressions');
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body.reason).toBe('method_not_allowed');
    });
  });

  describe('idempotency', () => {
    const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random()}` });

    it('should replay the original response without a second record (x-rules idempotency-replay)', async () => {
      const headers = key('replay');
      const first = await m.call('POST', '/orchestration/runs', { body: { recordId: 'same' }, headers });
      const runs = (await m.mock.store.snapshot(WORKSPACE_A)).runs.size;
      clock += 5000;
      const second = await m.call('POST', '/orchestration/runs', { body: { recordId: 'same' }, headers });
      expect(second.status).toBe(first.status);
      expect(second.body).toEqual(first.body);
      expect(second.headers.location).toBe(first.headers.location);
      expect((await m.mock.store.snapshot(WORKSPACE_A)).runs.size).toBe(runs);
    });

    it('should answer 422 when the key is reused with a different request', async () => {
      const headers = key('reuse');
      await m.call('POST', '/ai/mcpServers', { body: { name: 'one' }, headers });
      const res = await m.call('POST', '/ai/mcpServers', { body: { name: 'two' }, headers });
      expect(res.status).toBe(422);
      expect(res.body.reason).toBe('idempotency_key_reused');
    });

    it('should keep keys per workspace', async () => {
      const headers = key('scoped');
      await m.call('POST', '/ai/mcpServers', { body: { name: 'one' }, headers, token: 'mock-token-a' });
      expect(
        (await m.call('POST', '/ai/mcpServers', { body: { name: 'two' }, headers, token: 'mock-token-b' })).status,
      ).toBe(201);
    });

    it('should answer 400 for a key over 255 characters and for a multipart request with a key', async () => {
      const long = await m.call('POST', '/ai/mcpServers', {
        body: { name: 'n' },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      });
      expect(long.status).toBe(400);
      const multipart = await m.call('POST', '/ai/mcpServers', {
        rawBody: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'idempotency-key': 'multi' },
      });
      expect(multipart.status).toBe(400);
      expect(multipart.body.reason).toBe('idempotency_key_not_allowed');
    });
  });

  describe('scenario control', () => {
    it('should answer any declared response through Prefer: code / example / dynamic (Prism)', async () => {
      const code = await m.call('GET', '/mailboxManagement/suppressions', { headers: { prefer: 'code=429' } });
      expect(code.status).toBe(429);
      expect(code.headers['retry-after']).toMatch(/^\d+$/);
      const example = await m.call('GET', '/mailboxManagement/suppressions', { headers: { prefer: 'example=empty' } });
      expect(example.body).toEqual({ count: 0, suppressions: [] });
      const dynamic = await m.call('GET', '/mailboxManagement/suppressions', { headers: { prefer: 'dynamic=true' } });
      expect(dynamic.status).toBe(200);
    });

    it('should answer CORS preflights and expose the rate-limit headers', async () => {
      const res = await fetch(`${m.mock.url}/ai/mcpServers`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      const get = await m.call('GET', '/mailboxManagement/suppressions');
      expect(get.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
    });
  });
});

describe('mock under concurrency', () => {
  it('should create one record for 100 parallel POSTs with the same key', async () => {
    const m = await startCheckedMock({ latencyMs: 20 });
    try {
      const before = (await m.mock.store.snapshot(WORKSPACE_A)).mcpServers.size;
      const results = await Promise.all(
        Array.from({ length: 100 }, () =>
          m.call('POST', '/ai/mcpServers', { body: { name: 'once' }, headers: { 'idempotency-key': 'parallel' } }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.mcpServer.uuid)).size).toBe(1);
      expect((await m.mock.store.snapshot(WORKSPACE_A)).mcpServers.size).toBe(before + 1);
      const replay = await m.call('POST', '/ai/mcpServers', {
        body: { name: 'once' },
        headers: { 'idempotency-key': 'parallel' },
      });
      expect(replay.status).toBe(201);
    } finally {
      await m.close();
    }
  });

  it('should answer 200 with the finished run for waitUntilFinished: true', async () => {
    const m = await startCheckedMock({ runDurationMs: 50 });
    try {
      const res = await m.call('POST', '/orchestration/runs', { body: { waitUntilFinished: true } });
      expect(res.status).toBe(200);
      expect(res.body.run.status).toBe('success');
      expect(res.body.run.finishedAt).toEqual(expect.any(String));
    } finally {
      await m.close();
    }
  });

  it('should answer 409 to a retry while the first request still runs (x-rules idempotency-concurrent-409)', async () => {
    // The first request is held inside its latency until the retry has been answered: no timing assumptions.
    let reached!: () => void;
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (reached = resolve));
    const sleep = () => {
      reached();
      return new Promise<void>((resolve) => (release = resolve));
    };
    const m = await startCheckedMock({ sleep });
    try {
      const headers = { 'idempotency-key': 'slow' };
      const first = m.call('POST', '/ai/mcpServers', {
        body: { name: 'slow' },
        headers: { ...headers, prefer: 'latency=1000' },
      });
      await inFlight;
      const retry = await m.call('POST', '/ai/mcpServers', { body: { name: 'slow' }, headers });
      expect(retry.status).toBe(409);
      expect(retry.body.reason).toBe('idempotency_key_in_use');
      release();
      expect((await first).status).toBe(201);
    } finally {
      await m.close();
    }
  });

  it('should give exactly L successes to N parallel requests against a limit L (x-rules ratelimit-429-retry-after)', async () => {
    const m = await startCheckedMock({
      rateLimit: 30,
      rateWindowSeconds: 3600,
      now: () => Date.UTC(2026, 5, 1, 12, 30),
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 80 }, () => m.call('GET', '/mailboxManagement/suppressions')),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(30);
      const limited = results.filter((r) => r.status === 429);
      expect(limited).toHaveLength(50);
      expect(limited[0].headers['retry-after']).toMatch(/^\d+$/);
      expect(limited[0].body.retryAfter).toBe(Number(limited[0].headers['retry-after']));
      expect(limited[0].headers['ratelimit-remaining']).toBe('0');
    } finally {
      await m.close();
    }
  });

  it('should start a new window after MOCK_RATE_WINDOW seconds', async () => {
    let now = Date.UTC(2026, 5, 1, 12, 0, 0);
    const m = await startCheckedMock({ rateLimit: 2, rateWindowSeconds: 10, now: () => now });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await m.call('GET', '/mailboxManagement/suppressions')).status);
      expect(statuses).toEqual([200, 200, 429]);
      now += 10_000;
      const next = await m.call('GET', '/mailboxManagement/suppressions');
      expect(next.status).toBe(200);
      expect(next.headers['ratelimit-remaining']).toBe('1');
    } finally {
      await m.close();
    }
  });
});

describe('mock configuration', () => {
  it('should replace the default tokens with MOCK_TOKENS', async () => {
    const m = await startCheckedMock({ tokens: { 'team-token': WORKSPACE_B } });
    try {
      expect((await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-a' })).status).toBe(401);
      const res = await m.call('GET', '/mailboxManagement/suppressions', { token: 'team-token' });
      expect(res.body.suppressions[0].workspaceUuid).toBe(WORKSPACE_B);
    } finally {
      await m.close();
    }
  });

  it('should give the same data for the same MOCK_SEED and other data for another', async () => {
    const bodies = [];
    for (const seed of [5, 5, 6]) {
      const m = await startCheckedMock({ seed });
      try {
        bodies.push((await m.call('GET', '/mailboxManagement/suppressions', { query: 'limit=1000' })).body);
      } finally {
        await m.close();
      }
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).not.toEqual(bodies[2]);
  });

  it('should answer 404 in the error shape for an unknown download', async () => {
    const m = await startCheckedMock();
    try {
      const res = await fetch(`${m.mock.origin}/downloads/nope`, { headers: { authorization: 'Bearer mock-token-a' } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ reason: 'not_found' });
    } finally {
      await m.close();
    }
  });
});

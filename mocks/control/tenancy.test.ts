/**
 * Tenancy of the control plane: a tenant's token steers its own workspace only; the admin token steers every
 * workspace; no credential is 401; a request a browser sends without a preflight changes nothing; CORS only for
 * the configured origins. The same rules over three replicas on Redis: mocks/shared-deployment.test.ts.
 */
import { WORKSPACE_A, WORKSPACE_B } from '../config';
import { startCheckedMock } from '../testing/client';
import { createMockControl, MockControlError } from './client';
import { defined } from '../testing/defined';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

const send = (origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${origin}/__mock${path}`, { method, headers, body });

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MockControlError);
  return error as MockControlError;
};

describe('control plane tenancy, without an admin token configured', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 0);
  let m: Checked;
  const a = () => createMockControl({ url: m.mock.origin, token: 'mock-token-a' });
  const b = () => createMockControl({ url: m.mock.origin, token: 'mock-token-b' });
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, rateLimit: 1000 });
  });
  afterEach(async () => {
    await a().reset();
    await b().reset();
  });
  afterAll(() => m.close());

  it.each([
    ['GET', '', undefined],
    ['POST', '/reset', '{}'],
    ['GET', '/settings', undefined],
    ['PATCH', '/settings', '{"rateLimit":1}'],
    ['GET', '/created', undefined],
    ['POST', '/fixtures', '{"workspaces":{}}'],
    ['GET', '/nothing', undefined],
  ])(
    'should answer %s /__mock%s without a credential 401 in the error shape, with the rate-limit headers',
    async (method, path, body) => {
      const credentials: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-a-token' },
        { 'x-mock-admin-token': 'guess' },
      ];
      for (const headers of credentials) {
        const res = await send(m.mock.origin, method, path, { ...headers, 'content-type': 'application/json' }, body);
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ reason: 'unauthorized', errorMessage: expect.any(String) });
        expect(res.headers.get('ratelimit-limit')).toBe('1000');
        expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      }
      expect((await a().settings()).rateLimit).toBe(1000);
    },
  );

  it("should reset the caller's workspace only", async () => {
    const runA = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-a' });
    const runB = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-b' });
    expect(await a().reset()).toEqual({ reset: WORKSPACE_A });
    expect((await m.call('GET', `/orchestration/runs/${runA.body.run.uuid}`)).status).toBe(404);
    const stillB = await m.call('GET', `/orchestration/runs/${runB.body.run.uuid}`, { token: 'mock-token-b' });
    expect(stillB.status).toBe(200);
    expect((await b().created()).map((entry) => entry.uuid)).toEqual([runB.body.run.uuid]);
    expect(await a().created()).toEqual([]);
  });

  it("should take the caller's downloads with its reset, and leave another tenant's", async () => {
    const exported = async (token: string) => {
      const made = await m.call('POST', '/orchestration/runs/download', { body: {}, token });
      expect(made.status).toBe(200);
      return new URL(made.body.url as string).pathname;
    };
    const fetched = (path: string, token: string) =>
      fetch(`${m.mock.origin}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const mine = await exported('mock-token-a');
    const theirs = await exported('mock-token-b');
    expect((await fetched(mine, 'mock-token-a')).status).toBe(200);
    await a().reset();
    const gone = await fetched(mine, 'mock-token-a');
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ reason: 'not_found' });
    expect((await fetched(theirs, 'mock-token-b')).status).toBe(200);
    expect((await fetched(theirs, 'mock-token-a')).status).toBe(404);
  });

  it.each([
    ['a full reset', (c: ReturnType<typeof a>) => c.resetAll()],
    ["another workspace's reset", (c: ReturnType<typeof a>) => c.reset('mock-token-b')],
    ["another workspace's reset by uuid", (c: ReturnType<typeof a>) => c.reset(WORKSPACE_B)],
    ["another workspace's created listing", (c: ReturnType<typeof a>) => c.created('mock-token-b')],
    [
      "another workspace's outcome",
      (c: ReturnType<typeof a>) => c.forceOutcome('error', { workspace: 'mock-token-b' }),
    ],
    [
      "a fault for another workspace's requests",
      (c: ReturnType<typeof a>) => c.setFaults([{ fault: 'reset', workspace: 'mock-token-b' }]),
    ],
    [
      'the OAuth endpoints’ rate limit (per address)',
      (c: ReturnType<typeof a>) => c.updateSettings({ authRateLimit: 1 }),
    ],
    [
      'fixtures for another workspace',
      (c: ReturnType<typeof a>) => c.loadFixtures({ workspaces: { 'mock-token-b': { suppressions: [] } } }),
    ],
  ])('should refuse a tenant %s: 403 naming MOCK_ADMIN_TOKEN, nothing changed', async (_name, act) => {
    const run = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-b' });
    const before = await b().settings();
    const error = await refusal(act(a()));
    expect([error.status, error.body.reason]).toEqual([403, 'forbidden']);
    expect(error.body.errorMessage).toContain('MOCK_ADMIN_TOKEN');
    expect(await b().settings()).toEqual(before);
    expect((await b().created()).map((entry) => entry.uuid)).toEqual([run.body.run.uuid]);
  });

  it("should apply a tenant's rate limit, latency, outcome and faults to its own workspace only", async () => {
    await a().updateSettings({ rateLimit: 2, latencyMs: 500, faults: [{ operation: 'getRun', fault: 'reset' }] });
    await a().forceOutcome('error');
    const startedA = Date.now();
    const runA = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-a' });
    expect(Date.now() - startedA).toBeGreaterThanOrEqual(500);
    expect(runA.headers['ratelimit-limit']).toBe('2');
    expect((await m.call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    expect((await m.call('GET', '/mailboxManagement/suppressions')).status).toBe(429);

    const started = Date.now();
    const runB = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-b' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(runB.headers['ratelimit-limit']).toBe('1000');
    clock += 1000;
    const polled = await m.call('GET', `/orchestration/runs/${runB.body.run.uuid}`, { token: 'mock-token-b' });
    expect([polled.status, polled.body.run.status]).toEqual([200, 'success']);
    for (let i = 0; i < 3; i++)
      expect((await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-b' })).status).toBe(200);

    const seenByA = await a().settings();
    expect(seenByA).toMatchObject({
      rateLimit: 2,
      latencyMs: 500,
      workspaces: { [WORKSPACE_A]: { outcome: 'error' } },
    });
    expect(seenByA.faults).toEqual([{ operation: 'getRun', fault: 'reset', share: 1 }]);
    expect(await b().settings()).toMatchObject({ rateLimit: 1000, latencyMs: 0, workspaces: {}, faults: [] });

    await a().reset();
    expect(await a().settings()).toMatchObject({ rateLimit: 1000, latencyMs: 0, workspaces: {}, faults: [] });
  });

  it('should let a tenant name its own workspace by token or uuid', async () => {
    expect(await a().reset('mock-token-a')).toEqual({ reset: WORKSPACE_A });
    expect(await a().reset(WORKSPACE_A)).toEqual({ reset: WORKSPACE_A });
    await a().forceOutcome('skipped', { workspace: WORKSPACE_A });
    expect((await a().settings()).workspaces).toEqual({ [WORKSPACE_A]: { outcome: 'skipped' } });
  });

  it.each([
    ['text/plain', 'POST', '/reset', '{}'],
    ['application/x-www-form-urlencoded', 'POST', '/reset', 'workspace=mock-token-a'],
    ['multipart/form-data; boundary=x', 'PATCH', '/settings', '--x--'],
    [undefined, 'POST', '/reset', undefined],
    ['application/yaml', 'PATCH', '/settings', 'rateLimit: 1'],
  ])('should change nothing for a write sent as %s: 415 in the error shape', async (type, method, path, body) => {
    const run = await m.call('POST', '/orchestration/runs', { body: {} });
    const headers: Record<string, string> = { authorization: 'Bearer mock-token-a' };
    if (type) headers['content-type'] = type;
    const res = await send(m.mock.origin, method, path, headers, body);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ reason: 'unsupported_media_type' });
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    expect((await a().created()).map((entry) => entry.uuid)).toEqual([run.body.run.uuid]);
    expect((await a().settings()).rateLimit).toBe(1000);
  });

  it('should read YAML fixtures sent with their own media type', async () => {
    const res = await send(
      m.mock.origin,
      'POST',
      '/fixtures',
      { authorization: 'Bearer mock-token-a', 'content-type': 'application/yaml' },
      'workspaces:\n  mock-token-a:\n    suppressions: []\n',
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://evil.example', null],
    ['http://localhost.evil.example', null],
    ['null', null],
  ])('should allow the control plane to pages from %s: %s, never *', async (origin, allowed) => {
    const preflight = await send(m.mock.origin, 'OPTIONS', '/reset', {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(preflight.headers.get('vary')).toContain('Origin');
    const answer = await send(m.mock.origin, 'GET', '/settings', { origin, authorization: 'Bearer mock-token-a' });
    expect(answer.headers.get('access-control-allow-origin')).toBe(allowed);
  });
});

describe('control plane tenancy with MOCK_ADMIN_TOKEN and MOCK_CONTROL_ORIGINS', () => {
  let m: Checked;
  const admin = () => createMockControl({ url: m.mock.origin, adminToken: 'admin-secret' });
  beforeAll(async () => {
    m = await startCheckedMock({ adminToken: 'admin-secret', controlOrigins: ['https://app.example.test'] });
  });
  afterAll(() => m.close());

  it("should let the admin change the defaults for everyone and any workspace's settings", async () => {
    await admin().updateSettings({ rateLimit: 500, workspaces: { 'mock-token-b': { outcome: 'cancelled' } } });
    const seenByB = await createMockControl({ url: m.mock.origin, token: 'mock-token-b' }).settings();
    expect(seenByB).toMatchObject({ rateLimit: 500, workspaces: { [WORKSPACE_B]: { outcome: 'cancelled' } } });
    expect((await m.call('GET', '/mailboxManagement/suppressions')).headers['ratelimit-limit']).toBe('500');
    const error = await refusal(createMockControl({ url: m.mock.origin, token: 'mock-token-a' }).resetAll());
    expect(error.status).toBe(403);
    expect(error.body.errorMessage).toContain('MOCK_ADMIN_TOKEN');
    await admin().resetAll();
    expect(await admin().settings()).toMatchObject({ rateLimit: 10_000, workspaces: {} });
  });

  it('should take the admin token as a Bearer token too', async () => {
    const res = await send(m.mock.origin, 'GET', '/settings', { authorization: 'Bearer admin-secret' });
    expect(res.status).toBe(200);
  });

  it('should allow only the configured origins', async () => {
    for (const [origin, allowed] of [
      ['https://app.example.test', 'https://app.example.test'],
      ['http://localhost:5173', null],
    ]) {
      const res = await send(m.mock.origin, 'GET', '/settings', {
        origin: defined(origin, 'origin'),
        authorization: 'Bearer admin-secret',
      });
      expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
    }
  });
});

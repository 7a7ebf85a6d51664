/**
 * HTTP edge cases a browser or a misconfigured client runs into: paths outside /v1, oversized headers, expired
 * credentials past the anonymous quota, upper-case uuids, and run timestamps that move only with the status.
 */
import { request as httpRequest } from 'node:http';
import { WORKSPACE_A } from './config';
import { startCheckedMock } from './testing/client';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

describe('mock edges over HTTP', () => {
  let clock = Date.UTC(2026, 6, 1, 9, 0, 0);
  let m: Checked;
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, rateLimit: 50, rateWindowSeconds: 3600 });
  });
  afterAll(() => m.close());

  it('should answer 404 in the error shape for an operation path without the /v1 base', async () => {
    const res = await fetch(`${m.mock.origin}/mailboxManagement/suppressions`, {
      headers: { authorization: 'Bearer mock-token-b' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ reason: 'not_found', errorMessage: expect.stringContaining('/v1') });
    expect(res.headers.get('ratelimit-limit')).toBe('50');
  });

  it.each([
    ['GET /', '/', undefined],
    ['GET / with a token', '/', 'mock-token-a'],
    ['a path outside /v1 with an unknown token', '/favicon.ico', 'expired-token'],
  ])('should answer %s with 404 in the error shape, as the README says', async (_name, path, token) => {
    const res = await fetch(`${m.mock.origin}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ reason: 'not_found', errorMessage: expect.stringContaining('/v1') });
    expect(res.headers.get('ratelimit-remaining')).toEqual(expect.any(String));
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('should let a browser script read WWW-Authenticate and the rate-limit headers of a 401', async () => {
    const res = await fetch(`${m.mock.url}/mailboxManagement/suppressions`, {
      headers: { origin: 'http://localhost:4200' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['www-authenticate', 'ratelimit-remaining', 'retry-after']));
  });

  it('should list every problem of an invalid request once, with its JSON pointer, in the error shape', async () => {
    const res = await m.call('POST', '/ai/mcpServers', {
      token: 'mock-token-a',
      body: { name: 'n'.repeat(256), description: '', workflowUuid: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      reason: 'invalid_request',
      errorMessage: expect.stringContaining('body/name: must have at most 255 characters; body/description'),
      problems: expect.arrayContaining([
        { in: 'body', pointer: '/name', message: 'must have at most 255 characters' },
        { in: 'body', pointer: '/description', message: 'must have at least 1 character' },
      ]),
    });
    const keys = res.body.problems.map((p: { in: string; pointer: string }) => `${p.in} ${p.pointer}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(res.headers['ratelimit-remaining']).toEqual(expect.any(String));
  });

  it('should keep answering 401, never 429, to a caller without a valid credential once its quota is spent', async () => {
    const small = await startCheckedMock({ rateLimit: 2, rateWindowSeconds: 3600 });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++)
        answers.push(await small.call('GET', '/mailboxManagement/suppressions', { token: 'expired-token' }));
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
      expect(answers[3].headers['ratelimit-remaining']).toBe('0');
    } finally {
      await small.close();
    }
  });

  it('should answer oversized request headers with 431 in the error shape', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${m.mock.url}/mailboxManagement/suppressions?x=${'a'.repeat(70_000)}`);
      const req = httpRequest(url, { headers: { authorization: 'Bearer mock-token-b' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toMatchObject({ reason: 'headers_too_large', errorMessage: expect.any(String) });
  });

  it('should find a resource by an upper-case uuid, which the UUID rule accepts', async () => {
    const workflow = [...(await m.mock.store.snapshot(WORKSPACE_A)).workflows.keys()][0];
    const res = await m.call('GET', `/orchestration/workflows/${workflow.toUpperCase()}`, { token: 'mock-token-a' });
    expect(res.status).toBe(200);
  });

  it('should move a run updatedAt only when its status changes', async () => {
    const created = await m.call('POST', '/orchestration/runs', { token: 'mock-token-a', body: {} });
    const path = new URL(created.headers.location).pathname.replace(/^\/v1/, '');
    clock += 300;
    const running = await m.call('GET', path, { token: 'mock-token-a' });
    clock += 100;
    const stillRunning = await m.call('GET', path, { token: 'mock-token-a' });
    expect([running.body.run.status, stillRunning.body.run.status]).toEqual(['running', 'running']);
    expect(stillRunning.body.run.updatedAt).toBe(running.body.run.updatedAt);
    expect(running.body.run.updatedAt).not.toBe(created.body.run.updatedAt);
  });
});

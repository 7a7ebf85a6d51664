import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMock, type MockOptions, type RunningMock } from './app';
import { WORKSPACE_A } from './config';
import { createMockControl } from './control/client';
import { startRedisServer, type RedisServer } from './testing/redis-server';
import { defined } from './testing/defined';

/**
 * The contract's promises across replicas: several mocks (each its own app, store and Redis client, as separate
 * processes would be) on one real redis-server (Debian's package, installed by scripts/ensure-redis.sh where
 * missing), driven over real HTTP on loopback, concurrently.
 */
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 600_000);
afterAll(async () => {
  await redis?.stop();
});

const TOKEN = 'mock-token-a';
/** The public address the replicas stand behind (a load balancer's): issuer and audience of OAuth. */
const PUBLIC = 'http://mock.example';

type Replica = RunningMock;
async function startReplicas(count: number, prefix: string, options: MockOptions = {}): Promise<Replica[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      startMock({
        port: 0,
        redisUrl: redis.url,
        redisPrefix: prefix,
        authUrl: `${PUBLIC}/auth`,
        runDurationMs: 300,
        ...options,
      }),
    ),
  );
}
const closeAll = (replicas: Replica[]) => Promise.all(replicas.map((replica) => replica.close()));

async function call(
  replica: Replica,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
) {
  const response = await fetch(`${replica.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? TOKEN}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const prefix = () => `replicas-test:${randomUUID()}:`;

describe('replicas sharing one Redis', () => {
  let replicas: Replica[];
  beforeAll(async () => {
    replicas = await startReplicas(3, prefix());
  });
  afterAll(async () => {
    await closeAll(replicas ?? []);
  });

  it('should give exactly `limit` non-429 answers per window to concurrent requests spread over replicas', async () => {
    // A clock that stands still: every request falls in one window, whatever the wall clock does meanwhile.
    const frozen = await startReplicas(3, prefix(), { rateLimit: 25, now: () => Date.UTC(2026, 5, 1, 12, 0, 10) });
    try {
      const answers = await Promise.all(
        Array.from({ length: 90 }, (_, i) => call(frozen[i % 3], 'GET', '/mailboxManagement/suppressions?limit=1')),
      );
      expect(answers.filter((a) => a.status !== 429)).toHaveLength(25);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(65);
      expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
      const remaining = answers
        .filter((a) => a.status === 200)
        .map((a) => Number(a.headers.get('ratelimit-remaining')));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    } finally {
      await closeAll(frozen);
    }
  });

  it('should create one record for concurrent requests with one Idempotency-Key spread over replicas', async () => {
    const before = (await replicas[0].store.snapshot(WORKSPACE_A)).mcpServers.size;
    const key = `replica-key-${randomUUID()}`;
    const send = (replica: Replica) =>
      call(replica, 'POST', '/ai/mcpServers', {
        body: { name: 'Shared', description: 'One of many' },
        headers: { 'idempotency-key': key, prefer: 'latency=100' },
      });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(replicas[i % 3])));
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const created = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.mcpServer.uuid));
    expect(created.size).toBe(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.reason === 'idempotency_key_in_use')).toBe(true);
    // Once done, a retry on any replica replays the one answer.
    const retries = await Promise.all(replicas.map(send));
    expect(retries.map((a) => [a.status, a.body.mcpServer.uuid])).toEqual(replicas.map(() => [201, [...created][0]]));
    expect((await replicas[2].store.snapshot(WORKSPACE_A)).mcpServers.size).toBe(before + 1);
    // The same key with another request is refused on every replica.
    const other = await call(replicas[1], 'POST', '/ai/mcpServers', {
      body: { name: 'Other' },
      headers: { 'idempotency-key': key },
    });
    expect([other.status, other.body.reason]).toEqual([422, 'idempotency_key_reused']);
  });

  it('should poll a run created on one replica to its terminal status on the others, and cancel anywhere', async () => {
    const created = await call(replicas[0], 'POST', '/orchestration/runs', { body: { recordId: 'everywhere' } });
    expect(created.status).toBe(202);
    const path = new URL(defined(created.headers.get('location'), "created.headers.get('location')")).pathname.replace(
      /^\/v1/,
      '',
    );
    const seen = new Set<string>();
    for (let i = 0; ; i++) {
      const poll = await call(replicas[(i % 2) + 1], 'GET', path);
      expect(poll.status).toBe(200);
      seen.add(poll.body.run.status);
      if (poll.body.run.status === 'success') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect([...seen]).toEqual(expect.arrayContaining(['running', 'success']));

    const second = await call(replicas[2], 'POST', '/orchestration/runs', { body: {} });
    const cancel = await call(replicas[1], 'POST', `/orchestration/runs/${second.body.run.uuid}/cancel`);
    expect([cancel.status, cancel.body.run.status]).toEqual([202, 'cancelling']);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await call(replicas[0], 'GET', `/orchestration/runs/${second.body.run.uuid}`)).body.run.status).toBe(
      'cancelled',
    );
  });

  it('should let the SQL endpoint of every replica see runs created on another', async () => {
    const created = await call(replicas[1], 'POST', '/orchestration/runs', { body: { recordId: 'sql-shared' } });
    const answers = await Promise.all(
      replicas.map((replica) =>
        call(replica, 'POST', '/orchestration/query', {
          body: { query: `SELECT recordId FROM runs WHERE uuid = '${created.body.run.uuid}'` },
        }),
      ),
    );
    expect(answers.map((a) => a.body.rows)).toEqual(replicas.map(() => [{ recordId: 'sql-shared' }]));
  });

  it('should seed a workspace once, not once per replica: a change on one replica holds on all', async () => {
    const envVar = [...(await replicas[0].store.snapshot(WORKSPACE_A)).envVars.keys()][0];
    const removals = await Promise.all(
      replicas.map((replica) => call(replica, 'DELETE', `/workspaceManagement/env-vars/${envVar}`)),
    );
    expect(removals.map((a) => a.status).sort()).toEqual([200, 404, 404]);
    const renamed = await call(replicas[2], 'PUT', '/workspaceManagement/workspaces/current', {
      body: { name: 'Shared name' },
    });
    expect(renamed.status).toBe(200);
    expect((await replicas[0].store.getWorkspace(WORKSPACE_A)).name).toBe('Shared name');
    // The next edit on another replica starts from the shared settings, not from a seed of its own.
    const next = await call(replicas[1], 'PUT', '/workspaceManagement/workspaces/current', {
      body: { allowedLoginProviders: ['email'] },
    });
    expect(next.body.workspace).toMatchObject({ name: 'Shared name', allowedLoginProviders: ['email'] });
  });

  it('should serve a runs download on every replica', async () => {
    const made = await call(replicas[0], 'POST', '/orchestration/runs/download', { body: { statuses: ['error'] } });
    const id = new URL(made.body.url).pathname;
    const downloads = await Promise.all(
      replicas.map((replica) =>
        fetch(`${replica.origin}${id}`, { headers: { authorization: 'Bearer mock-token-a' } }).then(
          (r) => r.json() as Promise<{ runs: unknown[] }>,
        ),
      ),
    );
    expect(downloads.every((d) => d.runs.length > 0 && d.runs.length === downloads[0].runs.length)).toBe(true);
  });

  it('should accept a token issued by one replica on every other, and honour a revocation everywhere', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirectUri = 'http://127.0.0.1:5173/callback';
    const authorize = new URL(`${replicas[0].origin}/auth/authorize`);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: 'mock-frontend',
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      audience: PUBLIC,
    })) {
      authorize.searchParams.set(name, value);
    }
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const code = defined(
      new URL(defined(redirect.headers.get('location'), "redirect.headers.get('location')")).searchParams.get('code'),
      'the code in the redirect',
    );
    expect(code).toBeTruthy();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'mock-frontend',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    const exchange = await fetch(`${replicas[1].origin}/auth/oauth/token`, { method: 'POST', body: form });
    const tokens = (await exchange.json()) as { access_token: string; refresh_token: string };
    expect(exchange.status).toBe(200);
    // The code is single-use on every replica.
    expect((await fetch(`${replicas[2].origin}/auth/oauth/token`, { method: 'POST', body: form })).status).toBe(400);
    const statuses = await Promise.all(
      replicas.map((replica) =>
        call(replica, 'GET', '/mailboxManagement/suppressions?limit=1', { token: tokens.access_token }).then(
          (a) => a.status,
        ),
      ),
    );
    expect(statuses).toEqual([401, 401, 401]);
    // (The reused code revoked its grant, as RFC 9700 asks.) A fresh login, then a revocation on one replica:
    const fresh = await loginOn(replicas[2], replicas[0]);
    expect(
      (
        await Promise.all(
          replicas.map((r) => call(r, 'GET', '/mailboxManagement/suppressions?limit=1', { token: fresh.access_token })),
        )
      ).map((a) => a.status),
    ).toEqual([200, 200, 200]);
    await fetch(`${replicas[1].origin}/auth/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: fresh.access_token }),
    });
    expect(
      (
        await Promise.all(
          replicas.map((r) => call(r, 'GET', '/mailboxManagement/suppressions?limit=1', { token: fresh.access_token })),
        )
      ).map((a) => a.status),
    ).toEqual([401, 401, 401]);
  });
});

describe('refresh-token reuse grace across replicas', () => {
  it('should answer two tabs refreshing at once on two replicas with the same new pair, the grant kept', async () => {
    const replicas = await startReplicas(2, prefix());
    try {
      const { refresh_token } = await loginOn(replicas[0], replicas[1], 'openid offline_access');
      const refresh = (replica: Replica) =>
        fetch(`${replica.origin}/auth/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            client_id: 'mock-frontend',
            refresh_token: defined(refresh_token, 'refresh_token'),
          }),
        }).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as { access_token: string; refresh_token: string },
        }));
      const [a, b] = await Promise.all([refresh(replicas[0]), refresh(replicas[1])]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.body).toEqual(a.body);
      const answer = await call(replicas[1], 'GET', '/mailboxManagement/suppressions?limit=1', {
        token: a.body.access_token,
      });
      expect(answer.status).toBe(200);
    } finally {
      await closeAll(replicas);
    }
  });
});

/** Authorization on one replica, code exchange on another. */
async function loginOn(
  authorizeAt: Replica,
  exchangeAt: Replica,
  scope = 'openid',
): Promise<{ access_token: string; refresh_token?: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = 'http://127.0.0.1:5173/callback';
  const authorize = new URL(`${authorizeAt.origin}/auth/authorize`);
  const params = {
    response_type: 'code',
    client_id: 'mock-frontend',
    redirect_uri: redirectUri,
    scope,
    state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    audience: PUBLIC,
  };
  for (const [name, value] of Object.entries(params)) authorize.searchParams.set(name, value);
  const code = defined(
    new URL(
      defined((await fetch(authorize, { redirect: 'manual' })).headers.get('location'), 'the redirect'),
    ).searchParams.get('code'),
    'the code in the redirect',
  );
  const response = await fetch(`${exchangeAt.origin}/auth/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'mock-frontend',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  return (await response.json()) as { access_token: string; refresh_token?: string };
}

describe('control-plane settings across replicas', () => {
  it("should apply a tenant's settings, outcome and faults on every replica once answered, and its reset too", async () => {
    const three = await startReplicas(3, prefix(), { runDurationMs: 0, adminToken: 'replica-admin' });
    try {
      const tenantOn = (replica: Replica, token: string) => createMockControl({ url: replica.origin, token });
      await tenantOn(three[0], TOKEN).updateSettings({
        rateLimit: 50,
        outcome: 'error',
        faults: [{ operation: 'listSuppressions', fault: 'empty' }],
      });
      for (const replica of three) {
        const created = await call(replica, 'POST', '/orchestration/runs', { body: {} });
        expect(created.headers.get('ratelimit-limit')).toBe('50');
        const polled = await call(replica, 'GET', `/orchestration/runs/${created.body.run.uuid}`);
        expect(polled.body.run.status).toBe('error');
        await expect(call(replica, 'GET', '/mailboxManagement/suppressions')).rejects.toThrow();
        const other = await call(replica, 'GET', '/mailboxManagement/suppressions', { token: 'mock-token-b' });
        expect([other.status, other.headers.get('ratelimit-limit')]).toEqual([200, '10000']);
      }
      await tenantOn(three[2], TOKEN).reset();
      for (const replica of three) {
        const list = await call(replica, 'GET', '/mailboxManagement/suppressions');
        expect([list.status, list.headers.get('ratelimit-limit')]).toEqual([200, '10000']);
      }
      // The admin's defaults, changed on one replica, hold on every one.
      await createMockControl({ url: three[1].origin, adminToken: 'replica-admin' }).updateSettings({ rateLimit: 70 });
      for (const replica of three)
        expect((await call(replica, 'GET', '/mailboxManagement/suppressions')).headers.get('ratelimit-limit')).toBe(
          '70',
        );
    } finally {
      await closeAll(three);
    }
  });
});

describe('a replica restarted mid-traffic', () => {
  it('should lose nothing: a retried create replays, runs and tokens still work', async () => {
    const shared = prefix();
    const started = await startReplicas(2, shared);
    let first = started[0];
    const other = started[1];
    try {
      const key = `restart-${randomUUID()}`;
      const created = await call(first, 'POST', '/orchestration/runs', {
        body: { recordId: 'before-restart' },
        headers: { 'idempotency-key': key },
      });
      const token = (await loginOn(first, first)).access_token;
      // Traffic keeps flowing to the other replica while this one restarts.
      const traffic = Promise.all(
        Array.from({ length: 20 }, () => call(other, 'GET', `/orchestration/runs/${created.body.run.uuid}`)),
      );
      await first.close();
      first = (await startReplicas(1, shared))[0];
      expect((await traffic).every((a) => a.status === 200)).toBe(true);
      const retried = await call(first, 'POST', '/orchestration/runs', {
        body: { recordId: 'before-restart' },
        headers: { 'idempotency-key': key },
      });
      expect([retried.status, retried.body.run.uuid]).toEqual([202, created.body.run.uuid]);
      expect((await call(first, 'GET', `/orchestration/runs/${created.body.run.uuid}`)).status).toBe(200);
      expect((await call(first, 'GET', '/mailboxManagement/suppressions?limit=1', { token })).status).toBe(200);
    } finally {
      await closeAll([first, other]);
    }
  });
});

describe('replicas started with MOCK_FIXTURES', () => {
  it('should apply the start fixtures once for the shared store: a replica started later replaces nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-fixtures-'));
    const file = join(dir, 'fixtures.yaml');
    const variable = '/workspaceManagement/env-vars/5d0c8e1a-1111-4222-8333-444455556666';
    writeFileSync(
      file,
      `workspaces:\n  mock-token-a:\n    envVars:\n      - uuid: 5d0c8e1a-1111-4222-8333-444455556666\n`,
    );
    const shared = prefix();
    const [first] = await startReplicas(1, shared, { fixturesPath: file });
    let later: Replica | undefined;
    try {
      expect((await call(first, 'DELETE', variable)).status).toBe(200);
      later = (await startReplicas(1, shared, { fixturesPath: file }))[0];
      expect((await call(later, 'DELETE', variable)).status).toBe(404);
    } finally {
      await closeAll(later ? [first, later] : [first]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Redis unreachable', () => {
  it('should answer 503 in the error shape with the rate-limit headers it can compute, then recover', async () => {
    const [replica] = await startReplicas(1, prefix(), { rateLimit: 50 });
    try {
      expect((await call(replica, 'GET', '/mailboxManagement/suppressions')).status).toBe(200);
      await redis.stop();
      const down = await call(replica, 'GET', '/mailboxManagement/suppressions');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ errorMessage: expect.any(String), reason: 'store_unavailable' });
      expect(down.headers.get('ratelimit-limit')).toBe('50');
      expect(down.headers.get('ratelimit-policy')).toBe('50;w=60');
      expect(Number(down.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(down.headers.get('retry-after')).toBe('1');
      // Never a silent fall-back to local state: writes are refused alike.
      expect((await call(replica, 'POST', '/orchestration/runs', { body: {} })).status).toBe(503);
      await redis.start();
      let status = 0;
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        status = (await call(replica, 'GET', '/mailboxManagement/suppressions')).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(200);
    } finally {
      await replica.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { startMock, type RunningMock } from './app';
import { readConfigFromEnv, WORKSPACE_B } from './config';
import { createMockControl } from './control/client';
import { readComposeExample } from './testing/compose-example';
import { startRedisServer, type RedisServer } from './testing/redis-server';
import { defined } from './testing/defined';

/**
 * The shared deployment as examples/compose.shared-mock.yml describes it, without Docker: a real redis-server
 * with the example's memory policy, three replicas started from the example's environment (only the addresses
 * are this machine's: loopback, free ports) and a round-robin proxy in front, as nginx.shared-mock.conf is. Links
 * point at the public address, a run is polled to its end through the proxy, an Idempotency-Key holds across
 * replicas, and each tenant steers its own workspace through `/__mock` on whichever replica: settings, outcomes
 * and faults live in Redis, so every replica applies the same.
 */
const ADMIN = 'shared-admin-secret';
const A = 'mock-token-a';
const B = 'mock-token-b';

let redis: RedisServer;
let replicas: RunningMock[];
let proxy: Server;
let publicUrl: string;

/** Round robin over the replicas, one upstream per request, no stickiness (the state is in Redis). */
function startRoundRobinProxy(upstreams: () => RunningMock[]): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const target = new URL(upstreams()[next++ % upstreams().length].origin);
    const forwarded = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  redis = await startRedisServer();
  const { replicaEnv, redisFlags } = readComposeExample({ MOCK_ADMIN_TOKEN: ADMIN });
  const admin = new Redis(redis.url);
  await admin.config('SET', 'maxmemory', redisFlags.maxmemory);
  await admin.config('SET', 'maxmemory-policy', redisFlags['maxmemory-policy']);
  admin.disconnect();
  proxy = await startRoundRobinProxy(() => replicas);
  const exampleOrigin = new URL(replicaEnv.MOCK_PUBLIC_URL).origin;
  publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  // The example's environment; only its addresses are this machine's (the balancer's port, Redis, loopback).
  const env = Object.fromEntries(
    Object.entries(replicaEnv).map(([name, value]) => [name, value.replaceAll(exampleOrigin, publicUrl)]),
  );
  const config = readConfigFromEnv({
    ...env,
    HOST: '127.0.0.1',
    PORT: '0',
    MOCK_REDIS_URL: redis.url,
    MOCK_REDIS_PREFIX: `${env.MOCK_REDIS_PREFIX}${randomUUID()}:`,
  });
  replicas = await Promise.all([0, 1, 2].map(() => startMock(config)));
}, 600_000);
afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  await new Promise((resolve) => proxy?.close(resolve));
  await redis?.stop();
});

async function call(
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const token = options.token === undefined ? A : options.token;
  const response = await fetch(`${publicUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
const tenant = (token: string) => createMockControl({ url: publicUrl, token });
const admin = () => createMockControl({ url: publicUrl, adminToken: ADMIN });

async function pollToEnd(path: string, token = A): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 200; i++) {
    const poll = await call('GET', path, { token });
    expect(poll.status).toBe(200);
    seen.push(poll.body.run.status);
    if (!['pending', 'running', 'cancelling'].includes(poll.body.run.status)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} did not end: ${seen.join(', ')}`);
}

describe('the shared deployment of examples/compose.shared-mock.yml (three replicas, Redis, a proxy)', () => {
  afterEach(() => admin().resetAll());

  it('should link to the public address and let a run be polled to its end through the proxy', async () => {
    const created = await call('POST', '/v1/orchestration/runs', { body: {}, headers: { prefer: 'duration=200' } });
    expect(created.status).toBe(202);
    const location = defined(created.headers.get('location'), "created.headers.get('location')");
    expect(location).toBe(`${publicUrl}/v1/orchestration/runs/${created.body.run.uuid}`);
    const seen = await pollToEnd(new URL(location).pathname);
    expect(seen.at(-1)).toBe('success');
  });

  it('should hold an Idempotency-Key across replicas: one run, replayed by each', async () => {
    const key = `shared-${randomUUID()}`;
    const send = () =>
      call('POST', '/v1/orchestration/runs', { body: { recordId: 'once' }, headers: { 'idempotency-key': key } });
    const first = await send();
    const retries = await Promise.all([send(), send(), send(), send(), send()]);
    expect(retries.map((r) => [r.status, r.body.run.uuid])).toEqual(retries.map(() => [202, first.body.run.uuid]));
    expect((await tenant(A).created()).filter((entry) => entry.kind === 'run')).toHaveLength(1);
  });

  it('should apply a forced outcome on every replica (settings live in Redis)', async () => {
    await tenant(A).forceOutcome('error', { runDurationMs: 0 });
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/v1/orchestration/runs', { body: {} })),
    );
    const ends = await Promise.all(runs.map((run) => pollToEnd(`/v1/orchestration/runs/${run.body.run.uuid}`)));
    expect(ends.map((seen) => seen.at(-1))).toEqual(runs.map(() => 'error'));
  });

  it("should keep tenant A's reset, outcome, faults and rate limit away from tenant B", async () => {
    const runB = await call('POST', '/v1/orchestration/runs', {
      token: B,
      body: {},
      headers: { prefer: 'duration=0' },
    });
    await tenant(A).updateSettings({
      rateLimit: 4,
      latencyMs: 200,
      outcome: 'cancelled',
      faults: [{ operation: 'listSuppressions', fault: 'reset' }],
    });
    await tenant(A).reset();
    await tenant(A).updateSettings({
      rateLimit: 4,
      latencyMs: 500,
      faults: [{ operation: 'listSuppressions', fault: 'reset' }],
    });
    await tenant(A).forceOutcome('cancelled', { runDurationMs: 0 });

    // B, on every replica: its run is there, its own limit, no fault, no latency, its runs end in success.
    for (let i = 0; i < 6; i++) {
      const started = Date.now();
      const list = await call('GET', '/v1/mailboxManagement/suppressions', { token: B });
      expect([list.status, list.headers.get('ratelimit-limit')]).toEqual([200, '600']);
      expect(Date.now() - started).toBeLessThan(500);
    }
    expect((await call('GET', `/v1/orchestration/runs/${runB.body.run.uuid}`, { token: B })).body.run.status).toBe(
      'success',
    );
    const newB = await call('POST', '/v1/orchestration/runs', {
      token: B,
      body: {},
      headers: { prefer: 'duration=0' },
    });
    expect((await pollToEnd(`/v1/orchestration/runs/${newB.body.run.uuid}`, B)).at(-1)).toBe('success');
    expect((await tenant(B).settings()).workspaces).toEqual({});

    // A, on every replica: its fault (each faulted request counted), its limit of 4 a window.
    const listA = await Promise.all(
      replicas.map(() =>
        call('GET', '/v1/mailboxManagement/suppressions').then(
          () => 'answered',
          () => 'connection broken',
        ),
      ),
    );
    expect(listA).toEqual(replicas.map(() => 'connection broken'));
    const startedA = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('GET', '/v1/expression/recipes/list').then((r) => r.status)),
    );
    expect(Date.now() - startedA).toBeGreaterThanOrEqual(500);
    expect(answers.filter((status) => status === 429)).toHaveLength(5);
  });

  it('should refuse the control plane without a credential, and a tenant anything across workspaces', async () => {
    const anonymous = await fetch(`${publicUrl}/__mock/reset`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit-limit')).toBe('600');
    const plain = await fetch(`${publicUrl}/__mock/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${A}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    await expect(tenant(A).resetAll()).rejects.toMatchObject({ status: 403 });
    await expect(tenant(A).reset(B)).rejects.toMatchObject({ status: 403 });
    await expect(tenant(A).updateSettings({ workspaces: { [B]: { outcome: 'error' } } })).rejects.toMatchObject({
      status: 403,
    });
    expect((await admin().settings()).workspaces).toEqual({});
    expect(await tenant(B).reset()).toEqual({ reset: WORKSPACE_B });
  });
});

import Redis from 'ioredis';
import { startMock, type RunningMock } from './app';
import { writeKnownRateLimitHeaders } from './stages/rate-limit/limiter';
import { readComposeExample } from './testing/compose-example';
import { startRedisServer, type RedisServer } from './testing/redis-server';
import { defined } from './testing/defined';

/**
 * A shared Redis that is full under `noeviction` (the compose example's policy) refuses every write with
 * `OOM command not allowed`. Every request counts in the rate limit (a write), so reads fail too: each answer must
 * be 503 `store_unavailable` with `Retry-After` and the rate-limit headers, never a 500; once memory is freed the
 * mock serves again without a restart.
 */
const KNOWN_WITHOUT_STORE = (() => {
  const headers: Record<string, string> = {};
  writeKnownRateLimitHeaders(headers, { limit: 1, resetSeconds: 1, windowSeconds: 1 });
  return Object.keys(headers);
})();

describe('the mock on a Redis out of memory (maxmemory with noeviction)', () => {
  let redis: RedisServer;
  let admin: Redis;
  let mock: RunningMock;
  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
    mock = await startMock({ port: 0, redisUrl: redis.url, redisPrefix: 'full:' });
  }, 600_000);
  afterAll(async () => {
    await mock?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${mock.url}${path}`, {
      method,
      headers: { authorization: 'Bearer mock-token-a', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    return { status: res.status, headers, body: (await res.json()) as { reason?: string; errorMessage?: string } };
  };

  it('should answer 503 store_unavailable with Retry-After and the rate-limit headers, then serve once freed', async () => {
    // Served while there is room (the workspace is seeded now, so the full store is met on the hot path).
    expect((await call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    const used = Number(
      defined(
        /used_memory:(\d+)/.exec(await admin.info('memory')),
        "/used_memory:(\\d+)/.exec(await admin.info('memory'))",
      )[1],
    );
    // The shared-deployment example's policy (noeviction).
    await admin.config('SET', 'maxmemory-policy', readComposeExample().redisFlags['maxmemory-policy']);
    await admin.config('SET', 'maxmemory', String(used + 2 * 1024 * 1024));
    // Fill it until a write is refused; then hold it below what it uses, so used memory moving a little (client
    // buffers) cannot let a write through.
    let filled = 0;
    for (; filled < 1000; filled++) {
      const refused = await admin.set(`filler:${filled}`, 'x'.repeat(16 * 1024)).then(
        () => false,
        (error: Error) => /^OOM/.test(error.message),
      );
      if (refused) break;
    }
    expect(filled).toBeLessThan(1000);
    await admin.config('SET', 'maxmemory', String(used + 1024 * 1024));
    await expect(admin.incr('probe')).rejects.toThrow(/^OOM/);

    const answers = [
      await call('GET', '/mailboxManagement/suppressions'),
      await call('POST', '/orchestration/runs', { workflowUuid: '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b' }),
      await call('PUT', '/workspaceManagement/workspaces/current', { name: 'Full' }),
    ];
    for (const answer of answers) {
      expect([answer.status, answer.body.reason]).toEqual([503, 'store_unavailable']);
      expect(answer.body.errorMessage).toEqual(expect.any(String));
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      // The headers computable without the store (the counts are left out rather than guessed).
      for (const name of KNOWN_WITHOUT_STORE) expect([name, answer.headers[name]]).toEqual([name, expect.any(String)]);
    }
    // The OAuth endpoints count in the same store: 503 as well, never 500.
    const metadata = await fetch(`${mock.origin}/auth/.well-known/oauth-authorization-server`);
    expect([metadata.status, ((await metadata.json()) as { reason: string }).reason]).toEqual([
      503,
      'store_unavailable',
    ]);

    for (let i = 0; i < filled; i++) await admin.del(`filler:${i}`);
    expect((await call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
  });
});

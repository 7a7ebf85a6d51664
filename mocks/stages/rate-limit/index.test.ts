import { compose, type Ctx } from '../../context';
import { makeCtx, okNext } from '../../testing/ctx';
import { rateLimit, rateLimitKey } from '.';
import { idempotency } from '../idempotency';
import { createMemoryPort } from '../../store/adapters/memory';
import { createIdempotencyStore } from '../../store/repositories/idempotency';
import { createRateLimiter, rateLimitHeaders } from './limiter';
import { defined } from '../../testing/defined';

describe('rate limiter', () => {
  it('should allow exactly the limit in a window, then reset with the next window', async () => {
    let now = 60_000 * 10 + 15_000;
    const limiter = createRateLimiter({ port: createMemoryPort(), limit: 3, windowSeconds: 60, now: () => now });
    const states = [];
    for (let i = 0; i < 5; i++) states.push(await limiter.consume('workspace:a'));
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, false, false]);
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(states[3].resetSeconds).toBe(45);
    now += 45_000;
    expect(await limiter.consume('workspace:a')).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('should count buckets apart and peek without counting', async () => {
    const limiter = createRateLimiter({ port: createMemoryPort(), limit: 2, windowSeconds: 10, now: () => 0 });
    await limiter.consume('workspace:a');
    expect((await limiter.peek('workspace:a')).remaining).toBe(1);
    expect((await limiter.peek('workspace:a')).remaining).toBe(1);
    expect((await limiter.consume('workspace:b')).remaining).toBe(1);
  });

  it('should render the eight headers of the contract', () => {
    expect(rateLimitHeaders({ limit: 100, remaining: 99, resetSeconds: 42, windowSeconds: 60, allowed: true })).toEqual(
      {
        ratelimit: '"workspace";r=99;t=60',
        'ratelimit-limit': '100',
        'ratelimit-remaining': '99',
        'ratelimit-reset': '42',
        'ratelimit-policy': '100;w=60',
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '99',
        'x-ratelimit-reset': '42',
      },
    );
  });
});

describe('rate-limit stage', () => {
  it('should answer 429 with Retry-After and retryAfter over the limit', async () => {
    const limiter = createRateLimiter({ port: createMemoryPort(), limit: 1, windowSeconds: 30, now: () => 0 });
    const stage = rateLimit({ limiter });
    const ctx = () =>
      Object.assign(makeCtx(), { identity: { caller: { workspaceUuid: 'ws', via: 'token' as const } } });
    await stage(ctx(), okNext());
    const error = await Promise.resolve(stage(ctx(), okNext())).catch((e) => e);
    expect(error).toMatchObject({
      status: 429,
      reason: 'rate_limited',
      extra: { retryAfter: 30 },
      headers: { 'retry-after': '30' },
    });
  });

  it('should count callers without a credential per client address', () => {
    expect(rateLimitKey(makeCtx({ remoteAddress: '10.0.0.1' }))).toBe('address:10.0.0.1');
    const identified = Object.assign(makeCtx(), {
      identity: { caller: { workspaceUuid: 'ws', via: 'token' as const } },
    });
    expect(rateLimitKey(identified)).toBe('workspace:ws');
  });
});

describe('counting ahead (the request goes on while it is counted)', () => {
  /**
   * Two replicas' limiters on one store, the bucket of workspace `ws` counted once by the first. The store counts
   * in a round trip, as Redis does: the memory port without its count at once (`hitNow`), which skips counting ahead.
   */
  async function twoReplicas(limit: number) {
    const { hitNow: _counted, ...port } = createMemoryPort();
    const [here, there] = [0, 1].map(() => createRateLimiter({ port, limit, windowSeconds: 60, now: () => 0 }));
    await here.consume('workspace:ws');
    return { port, here, there };
  }
  const request = (method: string, headers: Record<string, string> = {}): Ctx => {
    const ctx = Object.assign(makeCtx({ method, path: '/things', headers }), {
      identity: { caller: { workspaceUuid: 'ws', via: 'token' as const } },
      caller: { workspaceUuid: 'ws', via: 'token' as const },
    });
    ctx.req = { ...ctx.req, body: { name: 'x' } };
    return ctx;
  };

  it('should count ahead only while the bucket, as last counted here, has room beyond the counts under way', async () => {
    const { here } = await twoReplicas(3);
    expect(here.consumeAhead('workspace:other')).toBeUndefined(); // not counted here yet
    const first = here.consumeAhead('workspace:ws'); // remaining 2
    const second = here.consumeAhead('workspace:ws');
    expect(first && second).toBeDefined();
    expect(here.consumeAhead('workspace:ws')).toBeUndefined(); // two under way use the room there was
    expect(defined(await first, '(await first)').remaining).toBe(1);
    await second;
    expect(here.consumeAhead('workspace:ws')).toBeUndefined(); // spent
  });

  it.each(['GET', 'POST', 'DELETE'])(
    'should answer 429 to a %s refused meanwhile by another replica, writing nothing',
    async (method) => {
      const { here, there } = await twoReplicas(2);
      await there.consume('workspace:ws'); // the bucket is spent, which this replica does not know yet
      const next = okNext();
      const stage = compose([rateLimit({ limiter: here, countAhead: true }), idempotency(idempotencyDeps()), next]);
      const error = await Promise.resolve(stage(request(method))).catch((e) => e);
      expect(error).toMatchObject({ status: 429, reason: 'rate_limited' });
      // A read may have run (its answer is dropped); nothing that writes does.
      expect(next.calls).toBe(method === 'GET' ? 1 : 0);
    },
  );

  it('should count at once, before the request goes on, when the store is in this process (no read runs for a 429)', async () => {
    const port = createMemoryPort();
    const [here, there] = [0, 1].map(() => createRateLimiter({ port, limit: 2, windowSeconds: 60, now: () => 0 }));
    await here.consume('workspace:ws');
    await there.consume('workspace:ws'); // spent; as last counted here, it had room (a read would go on ahead)
    const next = okNext();
    const stage = compose([rateLimit({ limiter: here, countAhead: true }), next]);
    const ctx = request('GET');
    expect(await Promise.resolve(stage(ctx)).catch((e) => e)).toMatchObject({ status: 429, reason: 'rate_limited' });
    expect(next.calls).toBe(0);
    expect(ctx.counting).toBeUndefined(); // nothing left under way for a later stage to wait for
  });

  it('should answer a refused count at once, without waiting for the rest of the request (a hang, a latency)', async () => {
    const { here, there } = await twoReplicas(2);
    await there.consume('workspace:ws');
    const hanging = () => new Promise<never>(() => undefined);
    const stage = compose([rateLimit({ limiter: here, countAhead: true }), hanging]);
    expect(await Promise.resolve(stage(request('GET'))).catch((e) => e)).toMatchObject({ status: 429 });
  });

  it('should take back the Idempotency-Key claimed with a count that refuses, so a retry is not held', async () => {
    const { here, there } = await twoReplicas(2);
    await there.consume('workspace:ws');
    const deps = idempotencyDeps();
    const next = okNext();
    const stage = compose([rateLimit({ limiter: here, countAhead: true }), idempotency(deps), next]);
    const ctx = request('POST', { 'idempotency-key': 'key-1', 'content-type': 'application/json' });
    expect(await Promise.resolve(stage(ctx)).catch((e) => e)).toMatchObject({ status: 429 });
    expect(next.calls).toBe(0);
    expect(await deps.store.size()).toBe(0);
  });

  it('should go on and answer as usual when the count allows', async () => {
    const { here } = await twoReplicas(5);
    const next = okNext();
    const stage = compose([rateLimit({ limiter: here, countAhead: true }), idempotency(idempotencyDeps()), next]);
    const ctx = request('POST', { 'idempotency-key': 'key-2', 'content-type': 'application/json' });
    expect(await stage(ctx)).toMatchObject({ status: 200 });
    expect(ctx.rateLimit).toMatchObject({ allowed: true, remaining: 3 });
  });

  function idempotencyDeps() {
    const port = createMemoryPort();
    return {
      store: createIdempotencyStore({ port, ttlMs: 60_000, capPerWorkspace: 10, now: () => 0 }),
      keyLength: { min: 1, max: 255 },
    };
  }
});

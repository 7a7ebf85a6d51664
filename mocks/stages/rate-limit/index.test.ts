import { makeCtx, okNext } from '../../testing/ctx';
import { rateLimit, rateLimitKey } from '.';
import { createMemoryPort } from '../../store/adapters/memory';
import { createRateLimiter, rateLimitHeaders } from './limiter';

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
    const error = await stage(ctx(), okNext()).catch((e) => e);
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

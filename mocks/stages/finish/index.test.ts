import { ApiError } from '../../errors';
import { makeCtx } from '../../testing/ctx';
import { createMemoryPort } from '../../store/adapters/memory';
import { StoreUnavailableError } from '../../store/port';
import { createRateLimiter } from '../rate-limit/limiter';
import { finishResponse } from '.';

const limiter = createRateLimiter({ port: createMemoryPort(), limit: 10, windowSeconds: 60, now: () => 0 });

describe('finish stage', () => {
  it('should answer 503 in the error shape with the rate-limit headers it can compute when the store is unreachable', async () => {
    const down = createMemoryPort();
    down.read = async () => Promise.reject(new StoreUnavailableError(new Error('connection refused')));
    const stage = finishResponse({
      limiter: createRateLimiter({ port: down, limit: 10, windowSeconds: 60, now: () => 15_000 }),
    });
    const response = await stage(makeCtx(), async () =>
      Promise.reject(new StoreUnavailableError(new Error('connection refused'))),
    );
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ errorMessage: expect.stringContaining('retry'), reason: 'store_unavailable' });
    expect(response.headers).toMatchObject({
      'retry-after': '1',
      'ratelimit-limit': '10',
      'ratelimit-reset': '45',
      'ratelimit-policy': '10;w=60',
      'x-ratelimit-limit': '10',
      'x-ratelimit-reset': '45',
    });
    // The remaining quota is not known without the store: left out rather than guessed.
    expect(response.headers).not.toHaveProperty('ratelimit-remaining');
    expect(response.headers).not.toHaveProperty('ratelimit');
  });

  it('should render a thrown ApiError in the contract shape with its headers and the rate-limit headers', async () => {
    const response = await finishResponse({ limiter })(makeCtx(), async () => {
      throw new ApiError(429, 'rate_limited', 'Slow down.', { retryAfter: 3 }, { 'retry-after': '3' });
    });
    expect(response.status).toBe(429);
    expect(response.body).toEqual({ errorMessage: 'Slow down.', reason: 'rate_limited', retryAfter: 3 });
    expect(response.headers).toMatchObject({
      'retry-after': '3',
      'ratelimit-limit': '10',
      'access-control-allow-origin': '*',
    });
  });

  it('should turn an unexpected failure into a 500 without a stack trace', async () => {
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const response = await finishResponse({ limiter })(makeCtx(), async () => {
      throw new TypeError('secret detail at /src/x.ts:1');
    });
    spy.mockRestore();
    expect(response.status).toBe(500);
    expect(JSON.stringify(response.body)).not.toContain('secret');
  });

  it('should mark every answer of a deprecated operation with Deprecation and Sunset', async () => {
    const ctx = makeCtx();
    ctx.route = {
      operation: {
        retirement: { deprecation: new Date('2027-01-01T00:00:00Z'), sunset: new Date('2027-07-02T00:00:00Z') },
      } as never,
      params: {},
    };
    const response = await finishResponse({ limiter })(ctx, async () => {
      throw new ApiError(404, 'not_found', 'No such thing.');
    });
    expect(response.headers).toMatchObject({ deprecation: '@1798761600', sunset: 'Fri, 02 Jul 2027 00:00:00 GMT' });
  });
});

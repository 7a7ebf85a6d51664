import { ApiError } from '../../errors';
import { createMemoryPort } from '../../store/adapters/memory';
import { makeCtx, okNext } from '../../testing/ctx';
import { finishResponse } from '../finish';
import { createRateLimiter } from '../rate-limit/limiter';
import { runHooks } from '.';

const limiter = createRateLimiter({ port: createMemoryPort(), limit: 10, windowSeconds: 60, now: () => 0 });

describe('hooks stage', () => {
  it('should let beforeSend replace the finished response, handing over a copy of a shared body', async () => {
    const hooks = {
      beforeSend: (_req: unknown, res: { status: number; headers: Record<string, string>; body: unknown }) => ({
        ...res,
        headers: { ...res.headers, ratelimit: 'broken' },
      }),
    };
    const shared = Object.freeze({ a: 1 });
    const response = await runHooks(hooks)(makeCtx(), () =>
      finishResponse({ limiter })(makeCtx(), async () => ({ status: 200, headers: {}, body: shared })),
    );
    expect(response.headers).toMatchObject({ ratelimit: 'broken', 'ratelimit-limit': '10' });
    expect(response.body).toEqual({ a: 1 });
    expect(response.body).not.toBe(shared);
  });

  it('should run beforeRequest first, and answer its failure in the error shape without going further', async () => {
    const seen: string[] = [];
    const next = okNext();
    const passed = await runHooks({ beforeRequest: (req) => void seen.push(req.path) })(makeCtx({ path: '/x' }), next);
    expect([seen, next.calls, passed.status]).toEqual([['/x'], 1, 200]);
    const refused = await runHooks({
      beforeRequest: () => {
        throw new ApiError(418, 'teapot', 'No.');
      },
    })(makeCtx(), next);
    expect([refused.status, refused.body, next.calls]).toEqual([418, { errorMessage: 'No.', reason: 'teapot' }, 1]);
  });
});

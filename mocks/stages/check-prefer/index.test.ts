import { ApiError } from '../../errors';
import { makeCtx, okNext } from '../../testing/ctx';
import { checkPrefer } from '.';

describe('check-prefer stage', () => {
  it.each([
    ['no Prefer', undefined],
    ['known values', 'code=200, latency=10, outcome=error, duration=50, fault=reset'],
    ['unknown preferences (RFC 7240 §2)', 'respond-async, wait=10, handling=lenient'],
  ])('should pass %s', async (_name, prefer) => {
    const next = okNext();
    await checkPrefer()(makeCtx({ headers: prefer ? { prefer } : {} }), next);
    expect(next.calls).toBe(1);
  });

  it.each([['latency=abc'], ['outcome=failed'], ['duration=-1'], ['fault=explode'], ['code=99']])(
    'should refuse %s with a 400 invalid_prefer',
    async (prefer) => {
      const next = okNext();
      const error = await Promise.resolve(checkPrefer()(makeCtx({ headers: { prefer } }), next)).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).reason).toBe('invalid_prefer');
      expect((error as ApiError).message).toContain(prefer.split('=')[0]);
      expect(next.calls).toBe(0);
    },
  );
});

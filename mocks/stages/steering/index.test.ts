import { StoreUnavailableError } from '../../store/port';
import { steer, type Steering } from '../../store/repositories/settings';
import { makeCtx, okNext } from '../../testing/ctx';
import { loadSteering } from '.';

const DEFAULTS = { rateLimit: 10, authRateLimit: 5, latencyMs: 0, runDurationMs: 100, hangMs: 1000, faults: [] };

describe('steering stage', () => {
  it.each([
    ['a caller', { caller: { workspaceUuid: 'ws-a', via: 'token' as const } }, 'ws-a'],
    ['a refused credential', { refusal: new Error('401') as never }, undefined],
    ['no identity (a mount without authentication)', undefined, undefined],
  ])('should read the settings of the workspace of %s', async (_name, identity, workspace) => {
    const asked: (string | undefined)[] = [];
    const stage = loadSteering({
      steering: async (uuid): Promise<Steering> => {
        asked.push(uuid);
        return steer(DEFAULTS, uuid, uuid ? { rateLimit: 2 } : undefined);
      },
    });
    const ctx = makeCtx();
    ctx.identity = identity;
    const next = okNext();
    await stage(ctx, next);
    expect([asked, next.calls, ctx.steering?.rateLimit]).toEqual([[workspace], 1, workspace ? 2 : 10]);
  });

  it('should pass an unreachable store on (answered 503 by finish), never steer by a guess', async () => {
    const stage = loadSteering({ steering: () => Promise.reject(new StoreUnavailableError('down')) });
    const next = okNext();
    await expect(stage(makeCtx(), next)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(next.calls).toBe(0);
  });
});

import { StoreUnavailableError } from '../../store/port';
import { steer, type Steering } from '../../store/repositories/settings';
import { makeCtx, okNext } from '../../testing/ctx';
import { loadSteering } from '.';

const DEFAULTS = { rateLimit: 10, authRateLimit: 5, latencyMs: 0, runDurationMs: 100, hangMs: 1000, faults: [] };

describe('steering stage', () => {
  it.each([
    ['a caller', { caller: { workspaceUuid: 'ws-a', via: 'token' as const } }, 'ws-a'],
    ['a refused credential', { unidentified: 'Authorization: the token is unknown or expired.' }, undefined],
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

  it('should take settings known already without asking for them, and ask when they are not', async () => {
    const known = steer(DEFAULTS, 'ws-a', { rateLimit: 3 });
    const asked: (string | undefined)[] = [];
    const stage = loadSteering({
      steering: async (uuid) => (asked.push(uuid), steer(DEFAULTS, uuid, undefined)),
      steeringKnown: (uuid) => (uuid === 'ws-a' ? known : undefined),
    });
    const ctx = makeCtx();
    ctx.identity = { caller: { workspaceUuid: 'ws-a', via: 'token' } };
    await stage(ctx, okNext());
    expect([ctx.steering, asked]).toEqual([known, []]);
    const other = makeCtx();
    other.identity = { caller: { workspaceUuid: 'ws-b', via: 'token' } };
    await stage(other, okNext());
    expect([other.steering?.rateLimit, asked]).toEqual([10, ['ws-b']]);
  });

  it('should pass an unreachable store on (answered 503 by finish), never steer by a guess', async () => {
    const stage = loadSteering({ steering: () => Promise.reject(new StoreUnavailableError('down')) });
    const next = okNext();
    await expect(stage(makeCtx(), next)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(next.calls).toBe(0);
  });
});

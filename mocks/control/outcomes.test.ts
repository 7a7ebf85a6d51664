/** Forced outcomes: the error, skipped and cancelled screens without racing a cancel. */
import { WORKSPACE_B } from '../config';
import { startCheckedMock } from '../testing/client';
import { createMockControl } from './client';
import { defined } from '../testing/defined';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

describe('forced outcomes of async creates', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 0);
  let m: Checked;
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, rateLimit: 100_000, adminToken: 'admin' });
  });
  const control = (token: string) => createMockControl({ url: m.mock.origin, token });
  afterEach(() => createMockControl({ url: m.mock.origin, adminToken: 'admin' }).resetAll());
  afterAll(() => m.close());

  const poll = async (kind: 'runs' | 'batches', uuid: string, token = 'mock-token-a') => {
    const res = await m.call('GET', `/orchestration/${kind}/${uuid}`, { token });
    return kind === 'runs' ? res.body.run.status : res.body.batch.status;
  };

  it.each(['error', 'skipped', 'cancelled', 'success'])(
    'should end a run in %s with Prefer: outcome',
    async (outcome) => {
      const run = await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer: `outcome=${outcome}` } });
      expect(run.status).toBe(202);
      expect(run.body.run.status).toBe('pending');
      clock += 1000;
      expect(await poll('runs', run.body.run.uuid)).toBe(outcome);
    },
  );

  it('should take the time Prefer: duration asks', async () => {
    const run = await m.call('POST', '/orchestration/runs', {
      body: {},
      headers: { prefer: 'outcome=error, duration=10000' },
    });
    clock += 9_000;
    expect(await poll('runs', run.body.run.uuid)).toBe('running');
    clock += 1_000;
    expect(await poll('runs', run.body.run.uuid)).toBe('error');
  });

  it('should answer waitUntilFinished with the forced outcome', async () => {
    const run = await m.call('POST', '/orchestration/runs', {
      body: { waitUntilFinished: true },
      headers: { prefer: 'outcome=skipped, duration=0' },
    });
    expect(run.status).toBe(200);
    expect(run.body.run.status).toBe('skipped');
  });

  it('should end a batch and its runs as told, per workspace through the control plane', async () => {
    await control('mock-token-b').forceOutcome('error', { runDurationMs: 5000 });
    const batch = await m.call('POST', '/orchestration/batches', {
      body: { recordIds: ['r1', 'r2'] },
      token: 'mock-token-b',
    });
    const other = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-a' });
    clock += 5000;
    expect(await poll('batches', batch.body.batch.uuid, 'mock-token-b')).toBe('error');
    expect(await poll('runs', other.body.run.uuid)).toBe('success');
    const runs = defined(
      await m.mock.store.get(WORKSPACE_B, 'batches', batch.body.batch.uuid),
      'the stored batch',
    ).runUuids;
    for (const uuid of runs) expect(await poll('runs', uuid, 'mock-token-b')).toBe('error');
  });

  it('should let Prefer win over the workspace setting', async () => {
    await control('mock-token-a').forceOutcome('error');
    const run = await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer: 'outcome=success' } });
    clock += 1000;
    expect(await poll('runs', run.body.run.uuid)).toBe('success');
  });

  it('should end a batch without runs as told', async () => {
    const batch = await m.call('POST', '/orchestration/batches', {
      body: {},
      headers: { prefer: 'outcome=cancelled' },
    });
    clock += 1000;
    expect(await poll('batches', batch.body.batch.uuid)).toBe('cancelled');
  });

  it.each([['outcome=failed'], ['duration=soon'], ['latency=abc'], ['fault=explode']])(
    'should refuse Prefer: %s with a 400 in the error shape',
    async (prefer) => {
      const res = await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer } });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('invalid_prefer');
      expect(res.headers['ratelimit-limit']).toBeDefined();
      expect(await control('mock-token-a').created()).toEqual([]);
    },
  );
});

import { createMemoryPort } from '../adapters/memory';
import type { StoragePort } from '../port';
import { createSettingsRepository, steer, type Defaults } from './settings';

const DEFAULTS: Defaults = {
  rateLimit: 100,
  authRateLimit: 30,
  latencyMs: 0,
  runDurationMs: 1000,
  hangMs: 30_000,
  faults: [
    { fault: 'reset', share: 1, workspace: 'ws-b' },
    { fault: 'empty', share: 0.5 },
  ],
};

describe('settings in the store', () => {
  it.each([
    ['no workspace', undefined, undefined, { rateLimit: 100, faults: [DEFAULTS.faults[1]] }],
    ['a workspace without settings', 'ws-a', undefined, { rateLimit: 100, latencyMs: 0, faults: [DEFAULTS.faults[1]] }],
    [
      'a workspace with its own',
      'ws-b',
      { rateLimit: 3, latencyMs: 50, outcome: 'error' as const, faults: [{ fault: 'hang' as const, share: 1 }] },
      { rateLimit: 3, latencyMs: 50, outcome: 'error', faults: [...DEFAULTS.faults, { fault: 'hang', share: 1 }] },
    ],
  ])('should steer %s by its own settings over the defaults', (_name, workspace, own, want) => {
    expect(steer(DEFAULTS, workspace, own)).toMatchObject(want);
  });

  it('should read a workspace once per cache period, and at once after a change of its own', async () => {
    const port = createMemoryPort();
    let reads = 0;
    const counting: StoragePort = Object.create(port, {
      read: { value: (...args: Parameters<StoragePort['read']>) => ((reads += 1), port.read(...args)) },
    });
    const settings = createSettingsRepository({ port: counting, initial: DEFAULTS, cacheMs: 60 });
    expect((await settings.steering('ws-a')).rateLimit).toBe(100);
    await settings.steering('ws-a');
    expect(reads).toBe(1);
    await settings.save({ workspaces: { 'ws-a': { rateLimit: 7 } } });
    expect((await settings.steering('ws-a')).rateLimit).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await settings.steering('ws-a');
    expect(reads).toBe(3);
    await settings.reset();
    expect((await settings.steering('ws-a')).rateLimit).toBe(100);
  });

  it('should tell the settings without waiting only once read, and as steering resolves them until they change', async () => {
    const settings = createSettingsRepository({ port: createMemoryPort(), initial: DEFAULTS, cacheMs: 60 });
    expect(settings.steeringKnown('ws-a')).toBeUndefined();
    const read = settings.steering('ws-a');
    expect(settings.steeringKnown('ws-a')).toBeUndefined(); // still being read
    expect(settings.steeringKnown('ws-a')).toBeUndefined();
    const steering = await read;
    expect(settings.steeringKnown('ws-a')).toBe(steering);
    await settings.save({ workspaces: { 'ws-a': { rateLimit: 7 } } });
    expect(settings.steeringKnown('ws-a')).toBeUndefined();
    expect((await settings.steering('ws-a')).rateLimit).toBe(7);
    expect(settings.steeringKnown('ws-a')?.rateLimit).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(settings.steeringKnown('ws-a')).toBeUndefined(); // expired: read again
  });

  it('should read an entry in use again in the background before it expires, serving it meanwhile', async () => {
    const port = createMemoryPort();
    let reads = 0;
    const counting: StoragePort = Object.create(port, {
      read: { value: (...args: Parameters<StoragePort['read']>) => ((reads += 1), port.read(...args)) },
    });
    let clock = 1_000_000;
    const now = jest.spyOn(Date, 'now').mockImplementation(() => clock);
    try {
      const settings = createSettingsRepository({ port: counting, initial: DEFAULTS, cacheMs: 100 });
      expect((await settings.steering('ws-a')).rateLimit).toBe(100);
      // Another replica changes the settings (straight in the store: this process's cache knows nothing).
      await port.commit([{ op: 'hset', key: 'settings:workspaces', field: 'ws-a', value: '{"rateLimit":9}' }]);
      clock += 40;
      expect((await settings.steering('ws-a')).rateLimit).toBe(100);
      expect(reads).toBe(1);
      clock += 20; // past half its life: served as it is, read again meanwhile
      expect((await settings.steering('ws-a')).rateLimit).toBe(100);
      expect(reads).toBe(2);
      await new Promise((resolve) => setImmediate(resolve));
      clock += 50; // the first entry has expired; the one read 50 ms ago serves, nobody waits for a read
      expect((await settings.steering('ws-a')).rateLimit).toBe(9);
      expect(reads).toBe(2);
    } finally {
      now.mockRestore();
    }
  });
});

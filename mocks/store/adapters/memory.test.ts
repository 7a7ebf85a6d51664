import { describeStoragePort } from './contract';
import { createMemoryPort } from './memory';

describeStoragePort('memory', async () => createMemoryPort());

describe('memory port on an injected clock', () => {
  it('should expire keys when the clock says so, without waiting', async () => {
    let now = 0;
    const port = createMemoryPort({ now: () => now });
    await port.commit([{ op: 'set', key: 'k', value: 'v', ttlMs: 24 * 3600_000 }]);
    now += 24 * 3600_000 - 1;
    expect(await port.read([{ op: 'get', key: 'k' }])).toEqual(['v']);
    now += 1;
    expect(await port.read([{ op: 'get', key: 'k' }])).toEqual([null]);
  });
});

import { describeStoragePort } from './contract';
import { createMemoryPort, MemoryData } from './memory';

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

  it('should reset one workspace in the memory adapter without comparing a key of any other', async () => {
    const port = createMemoryPort();
    const others = Array.from({ length: 1000 }, (_, i) => `idem:other-${i}:key`);
    await port.commit([...others, 'idem:ws:a', 'idem:ws:b:c'].map((key) => ({ op: 'set', key, value: 'v' }) as const));
    const compared: string[] = [];
    const startsWith = String.prototype.startsWith;
    String.prototype.startsWith = function (this: string, search: string, at?: number) {
      if (search === 'idem:ws:') compared.push(String(this));
      return startsWith.call(this, search, at);
    };
    try {
      expect(await port.deleteByPrefix('idem:ws:')).toBe(2);
    } finally {
      String.prototype.startsWith = startsWith;
    }
    expect(compared.filter((key) => key.startsWith('idem:other-'))).toEqual([]);
    expect(await port.read(others.slice(0, 2).map((key) => ({ op: 'get', key }) as const))).toEqual(['v', 'v']);
  });
});

describe('the memory adapter’s bulk sweep', () => {
  it('should remove expired keys a batch at a time, going on where it stopped, and keep the live ones', () => {
    let now = 1_000_000;
    const data = new MemoryData(() => now);
    for (let i = 0; i < 25_000; i++) data.entries.set(`idem:ws-${i % 7}:k${i}`, { value: 'v', expiresAt: now + 10 });
    for (let i = 0; i < 5; i++) data.entries.set(`ws:live-${i}:runs`, { value: 'v' });
    now += 1_000;
    const sizes: number[] = [];
    for (let sweep = 0; sweep < 4; sweep++) {
      data.sweep();
      sizes.push(data.entries.size);
      data.sweep(); // too soon after the last: nothing
      expect(data.entries.size).toBe(sizes[sweep]);
      now += 100;
    }
    expect(sizes).toEqual([15_005, 5_005, 5, 5]);
    expect(data.entries.keysWithPrefix('idem:')).toEqual([]);
  });

  it('should start a pass over the keys at most every 5 s, whatever their number', () => {
    let now = 1_000_000;
    const data = new MemoryData(() => now);
    const expireSoon = (from: number, count: number) => {
      for (let i = from; i < from + count; i++) data.entries.set(`idem:ws:k${i}`, { value: 'v', expiresAt: now + 10 });
    };
    expireSoon(0, 100);
    now += 1_000;
    data.sweep(); // a whole pass: 100 keys
    expect(data.entries.size).toBe(0);
    expireSoon(100, 100);
    now += 1_000;
    const left: number[] = [];
    for (; left.length < 41; now += 100) {
      data.sweep();
      left.push(data.entries.size);
    }
    // 1.0 to 4.9 s after the last pass began: nothing; at 5 s, the next pass.
    expect(left.slice(0, 40)).toEqual(Array(40).fill(100));
    expect(left[40]).toBe(0);
  });
});

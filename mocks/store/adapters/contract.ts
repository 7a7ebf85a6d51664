import { ClaimRefusedError, type StoragePort } from '../port';

/**
 * The adapter contract, written once against the port and run against every adapter (memory.test.ts,
 * redis.test.ts), as storage drivers of well-kept projects share one suite. `make` returns a fresh, empty port.
 */
export function describeStoragePort(name: string, make: () => Promise<StoragePort>): void {
  describe(`storage port: ${name}`, () => {
    let port: StoragePort;
    beforeEach(async () => {
      port = await make();
    });
    afterEach(async () => {
      await port.close();
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('should read what was written, and null, {} or [] for what was not', async () => {
      await port.commit([
        { op: 'set', key: 's', value: 'v' },
        { op: 'hset', key: 'h', field: 'f', value: '1' },
        { op: 'hset', key: 'h', field: 'g', value: '2' },
        { op: 'append', key: 'l', values: ['a', 'b'] },
      ]);
      expect(
        await port.read([
          { op: 'get', key: 's' },
          { op: 'hget', key: 'h', field: 'g' },
          { op: 'hgetall', key: 'h' },
          { op: 'list', key: 'l' },
        ]),
      ).toEqual(['v', '2', { f: '1', g: '2' }, ['a', 'b']]);
      expect(
        await port.read([
          { op: 'get', key: 'x' },
          { op: 'hget', key: 'x', field: 'f' },
          { op: 'hgetall', key: 'x' },
          { op: 'list', key: 'x' },
        ]),
      ).toEqual([null, null, {}, []]);
      expect(await port.read([{ op: 'get', key: 's' }])).toEqual(['v']);
    });

    it('should keep values apart from the objects that wrote or read them (copies, like a network store)', async () => {
      await port.commit([{ op: 'append', key: 'l', values: ['a'] }]);
      const [list] = await port.read([{ op: 'list', key: 'l' }]);
      list.push('changed');
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([['a']]);
    });

    it('should delete keys and hash fields', async () => {
      await port.commit([
        { op: 'set', key: 's', value: 'v' },
        { op: 'hset', key: 'h', field: 'f', value: '1' },
        { op: 'hset', key: 'h', field: 'g', value: '2' },
      ]);
      await port.commit([
        { op: 'delete', key: 's' },
        { op: 'hdelete', key: 'h', field: 'f' },
      ]);
      expect(
        await port.read([
          { op: 'get', key: 's' },
          { op: 'hgetall', key: 'h' },
        ]),
      ).toEqual([null, { g: '2' }]);
    });

    it('should apply no write at all when one guard fails, and all of them when every guard holds', async () => {
      await port.commit([
        { op: 'set', key: 'a', value: '1' },
        { op: 'hset', key: 'h', field: 'f', value: 'x' },
      ]);
      const writes = [
        { op: 'set' as const, key: 'b', value: '2' },
        { op: 'append' as const, key: 'l', values: ['1'] },
      ];
      expect(
        await port.commit(writes, [
          { key: 'a', is: 'equals', value: '1' },
          { key: 'a', is: 'absent' },
        ]),
      ).toBe(false);
      expect(
        await port.read([
          { op: 'get', key: 'b' },
          { op: 'list', key: 'l' },
        ]),
      ).toEqual([null, []]);
      expect(await port.commit(writes, [{ key: 'h', field: 'f', is: 'equals', value: 'y' }])).toBe(false);
      expect(
        await port.commit(writes, [
          { key: 'a', is: 'equals', value: '1' },
          { key: 'b', is: 'absent' },
          { key: 'h', field: 'f', is: 'present' },
          { key: 'h', field: 'z', is: 'absent' },
        ]),
      ).toBe(true);
      expect(
        await port.read([
          { op: 'get', key: 'b' },
          { op: 'list', key: 'l' },
        ]),
      ).toEqual(['2', ['1']]);
    });

    it('should let exactly one of many concurrent compare-and-sets win', async () => {
      await port.commit([{ op: 'hset', key: 'h', field: 'n', value: '0' }]);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          port.commit(
            [{ op: 'hset', key: 'h', field: 'n', value: String(i + 1) }],
            [{ key: 'h', field: 'n', is: 'equals', value: '0' }],
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const [value] = await port.read([{ op: 'hget', key: 'h', field: 'n' }]);
      expect(value).toBe(String(results.indexOf(true) + 1));
    });

    it('should keep only the newest items of a bounded list', async () => {
      await port.commit([{ op: 'append', key: 'l', values: ['1', '2', '3'], keepLast: 4 }]);
      await port.commit([{ op: 'append', key: 'l', values: ['4', '5'], keepLast: 4 }]);
      await port.commit([{ op: 'append', key: 'l', values: [] }]);
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([['2', '3', '4', '5']]);
    });

    it('should remove given items from a list, every occurrence, leaving the others in order', async () => {
      await port.commit([{ op: 'append', key: 'l', values: ['a', 'b', 'c', 'b', '{"x":1}', 'd'] }]);
      await port.commit([{ op: 'remove', key: 'l', values: ['b', '{"x":1}', 'absent'] }]);
      await port.commit([{ op: 'remove', key: 'missing', values: ['a'] }]);
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([['a', 'c', 'd']]);
      await port.commit([{ op: 'remove', key: 'l', values: ['a', 'c', 'd'] }]);
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([[]]);
    });

    it('should read the head of a list, and remove items looking only at its head when told', async () => {
      await port.commit([{ op: 'append', key: 'l', values: ['a', 'b', 'c', 'd', 'b', 'e'] }]);
      expect(
        await port.read([
          { op: 'list', key: 'l', first: 2 },
          { op: 'list', key: 'l', first: 0 },
          { op: 'list', key: 'l', first: 99 },
          { op: 'list', key: 'missing', first: 3 },
        ]),
      ).toEqual([['a', 'b'], [], ['a', 'b', 'c', 'd', 'b', 'e'], []]);
      // The second 'b' lies beyond the head looked at: it stays; so does an item not named.
      await port.commit([{ op: 'remove', key: 'l', values: ['a', 'b', 'e'], within: 3 }]);
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([['c', 'd', 'b', 'e']]);
      // Removing what is gone already changes nothing (two replicas removing the same items).
      await port.commit([{ op: 'remove', key: 'l', values: ['a'], within: 3 }]);
      await port.commit([{ op: 'remove', key: 'l', values: ['c'], within: 0 }]);
      expect(await port.read([{ op: 'list', key: 'l', first: 10 }])).toEqual([['c', 'd', 'b', 'e']]);
      await port.commit([{ op: 'remove', key: 'l', values: ['c', 'd', 'b', 'e'], within: 10 }]);
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([[]]);
    });

    it('should remove the entries of a hash whose ids a bounded list trims off', async () => {
      for (const id of ['a', 'b', 'c']) {
        await port.commit([
          { op: 'hset', key: 'h', field: id, value: id.toUpperCase() },
          { op: 'append', key: 'ids', values: [id], keepLast: 2, dropFrom: 'h' },
        ]);
      }
      await port.commit([{ op: 'hset', key: 'h', field: 'seeded', value: 'S' }]);
      expect(
        await port.read([
          { op: 'hgetall', key: 'h' },
          { op: 'list', key: 'ids' },
        ]),
      ).toEqual([{ b: 'B', c: 'C', seeded: 'S' }, ['b', 'c']]);
    });

    it('should store strings of any content unchanged (unicode, JSON, empty)', async () => {
      const values = ['', '{"a":[1,null,"é"]}', '🙂 \u0000 \n', 'x'.repeat(100_000)];
      await port.commit(values.map((value, i) => ({ op: 'set' as const, key: `k${i}`, value })));
      await port.commit([{ op: 'append', key: 'l', values }]);
      expect(await port.read(values.map((_, i) => ({ op: 'get' as const, key: `k${i}` })))).toEqual(values);
      expect(await port.read([{ op: 'list', key: 'l' }])).toEqual([values]);
    });

    it('should expire a key written with a TTL, and one given a TTL later', async () => {
      await port.commit([
        { op: 'set', key: 'short', value: 'v', ttlMs: 60 },
        { op: 'set', key: 'long', value: 'v', ttlMs: 60_000 },
        { op: 'hset', key: 'h', field: 'f', value: '1' },
        { op: 'expire', key: 'h', ttlMs: 60 },
      ]);
      expect(await port.read([{ op: 'get', key: 'short' }])).toEqual(['v']);
      await sleep(120);
      expect(
        await port.read([
          { op: 'get', key: 'short' },
          { op: 'get', key: 'long' },
          { op: 'hgetall', key: 'h' },
        ]),
      ).toEqual([null, 'v', {}]);
    });

    it('should count hits of a window up to the limit, exactly, however many arrive at once', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => port.hit('w', 7, 60_000)));
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
      expect(
        results
          .filter((r) => r.allowed)
          .map((r) => r.count)
          .sort((a, b) => a - b),
      ).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(results.filter((r) => !r.allowed).every((r) => r.count === 7)).toBe(true);
      expect(await port.read([{ op: 'get', key: 'w' }])).toEqual(['7']);
    });

    it('should start a new window once the counter expires', async () => {
      expect(await port.hit('w', 1, 60)).toEqual({ count: 1, allowed: true });
      expect(await port.hit('w', 1, 60)).toEqual({ count: 1, allowed: false });
      await sleep(120);
      expect(await port.hit('w', 1, 60)).toEqual({ count: 1, allowed: true });
    });

    it('should let exactly one of many concurrent claims of a key win, and tell the others its value', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => port.claim('c', `v${i}`, 60_000)));
      expect(results.filter((r) => r === null)).toHaveLength(1);
      const winner = `v${results.indexOf(null)}`;
      expect(results.filter((r) => r !== null).every((r) => r === winner)).toBe(true);
      expect(await port.read([{ op: 'get', key: 'c' }])).toEqual([winner]);
    });

    it('should release a claim when it expires or is deleted', async () => {
      expect(await port.claim('c', 'a', 60)).toBeNull();
      await sleep(120);
      expect(await port.claim('c', 'b', 60_000)).toBeNull();
      await port.commit([{ op: 'delete', key: 'c' }]);
      expect(await port.claim('c', 'd', 60_000)).toBeNull();
    });

    it('should keep at most the cap of claims under one index, releasing the oldest', async () => {
      for (let i = 0; i < 5; i++) {
        expect(await port.claim(`i:${i}`, 'v', 60_000, { key: 'index', cap: 3 })).toBeNull();
        await sleep(2);
      }
      expect(await port.read([0, 1, 2, 3, 4].map((i) => ({ op: 'get' as const, key: `i:${i}` })))).toEqual([
        null,
        null,
        'v',
        'v',
        'v',
      ]);
      // A claim released by a delete naming its index no longer counts towards the cap.
      await port.commit([{ op: 'delete', key: 'i:2', index: 'index' }]);
      expect(await port.claim('i:5', 'v', 60_000, { key: 'index', cap: 3 })).toBeNull();
      expect(await port.read([3, 4, 5].map((i) => ({ op: 'get' as const, key: `i:${i}` })))).toEqual(['v', 'v', 'v']);
    });

    it('should refuse a claim under a full refusing index, keeping every claim it holds', async () => {
      const full = { key: 'mine', cap: 3, whenFull: 'refuse' as const };
      for (let i = 0; i < 3; i++) expect(await port.claim(`m:${i}`, 'v', 60_000, full)).toBeNull();
      await expect(port.claim('m:3', 'v', 60_000, full)).rejects.toBeInstanceOf(ClaimRefusedError);
      // Concurrent claims on a full index all fail, and another index is not affected.
      const refused = await Promise.allSettled([4, 5, 6].map((i) => port.claim(`m:${i}`, 'v', 60_000, full)));
      expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(await port.claim('o:0', 'v', 60_000, { ...full, key: 'other' })).toBeNull();
      expect(await port.read([0, 1, 2, 3].map((i) => ({ op: 'get' as const, key: `m:${i}` })))).toEqual([
        'v',
        'v',
        'v',
        null,
      ]);
      // An existing key answers its value, full or not; a deleted or expired claim frees its place.
      expect(await port.claim('m:0', 'w', 60_000, full)).toBe('v');
      await port.commit([{ op: 'delete', key: 'm:1' }]);
      expect(await port.claim('m:7', 'v', 60, full)).toBeNull();
      await expect(port.claim('m:8', 'v', 60_000, full)).rejects.toBeInstanceOf(ClaimRefusedError);
      await sleep(120);
      expect(await port.claim('m:8', 'v', 60_000, full)).toBeNull();
    });

    it('should delete and count keys by prefix only', async () => {
      await port.commit([
        { op: 'set', key: 'ws:a:x', value: '1' },
        { op: 'hset', key: 'ws:a:h', field: 'f', value: '1' },
        { op: 'set', key: 'ws:b:x', value: '1' },
        { op: 'set', key: 'ws:a*', value: '1' },
      ]);
      expect(await port.countByPrefix('ws:a:')).toBe(2);
      expect(await port.deleteByPrefix('ws:a:')).toBe(2);
      expect(
        await port.read([
          { op: 'get', key: 'ws:b:x' },
          { op: 'get', key: 'ws:a*' },
          { op: 'get', key: 'ws:a:x' },
        ]),
      ).toEqual(['1', '1', null]);
    });
  });
}

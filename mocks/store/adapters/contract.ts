import { ClaimRefusedError, type Read, type StoragePort, type Write } from '../port';

type PortOf = () => StoragePort;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads, writes, guards and compare-and-set. */
function describeReadsAndCommits(portOf: PortOf): void {
  it('should read what was written, and null, {} or [] for what was not', async () => {
    await portOf().commit([
      { op: 'set', key: 's', value: 'v' },
      { op: 'hset', key: 'h', field: 'f', value: '1' },
      { op: 'hset', key: 'h', field: 'g', value: '2' },
      { op: 'append', key: 'l', values: ['a', 'b'] },
    ]);
    expect(
      await portOf().read([
        { op: 'get', key: 's' },
        { op: 'hget', key: 'h', field: 'g' },
        { op: 'hgetall', key: 'h' },
        { op: 'list', key: 'l' },
      ]),
    ).toEqual(['v', '2', { f: '1', g: '2' }, ['a', 'b']]);
    expect(
      await portOf().read([
        { op: 'get', key: 'x' },
        { op: 'hget', key: 'x', field: 'f' },
        { op: 'hgetall', key: 'x' },
        { op: 'list', key: 'x' },
      ]),
    ).toEqual([null, null, {}, []]);
    expect(await portOf().read([{ op: 'get', key: 's' }])).toEqual(['v']);
  });

  it('should keep values apart from the objects that wrote or read them (copies, like a network store)', async () => {
    await portOf().commit([{ op: 'append', key: 'l', values: ['a'] }]);
    const [list] = await portOf().read([{ op: 'list', key: 'l' }]);
    list.push('changed');
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['a']]);
  });

  it('should delete keys and hash fields', async () => {
    await portOf().commit([
      { op: 'set', key: 's', value: 'v' },
      { op: 'hset', key: 'h', field: 'f', value: '1' },
      { op: 'hset', key: 'h', field: 'g', value: '2' },
    ]);
    await portOf().commit([
      { op: 'delete', key: 's' },
      { op: 'hdelete', key: 'h', field: 'f' },
    ]);
    expect(
      await portOf().read([
        { op: 'get', key: 's' },
        { op: 'hgetall', key: 'h' },
      ]),
    ).toEqual([null, { g: '2' }]);
  });

  it('should apply no write at all when one guard fails, and all of them when every guard holds', async () => {
    await portOf().commit([
      { op: 'set', key: 'a', value: '1' },
      { op: 'hset', key: 'h', field: 'f', value: 'x' },
    ]);
    const writes = [
      { op: 'set' as const, key: 'b', value: '2' },
      { op: 'append' as const, key: 'l', values: ['1'] },
    ];
    expect(
      await portOf().commit(writes, [
        { key: 'a', is: 'equals', value: '1' },
        { key: 'a', is: 'absent' },
      ]),
    ).toBe(false);
    expect(
      await portOf().read([
        { op: 'get', key: 'b' },
        { op: 'list', key: 'l' },
      ]),
    ).toEqual([null, []]);
    expect(await portOf().commit(writes, [{ key: 'h', field: 'f', is: 'equals', value: 'y' }])).toBe(false);
    expect(
      await portOf().commit(writes, [
        { key: 'a', is: 'equals', value: '1' },
        { key: 'b', is: 'absent' },
        { key: 'h', field: 'f', is: 'present' },
        { key: 'h', field: 'z', is: 'absent' },
      ]),
    ).toBe(true);
    expect(
      await portOf().read([
        { op: 'get', key: 'b' },
        { op: 'list', key: 'l' },
      ]),
    ).toEqual(['2', ['1']]);
  });

  it('should let exactly one of many concurrent compare-and-sets win', async () => {
    await portOf().commit([{ op: 'hset', key: 'h', field: 'n', value: '0' }]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        portOf().commit(
          [{ op: 'hset', key: 'h', field: 'n', value: String(i + 1) }],
          [{ key: 'h', field: 'n', is: 'equals', value: '0' }],
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const [value] = await portOf().read([{ op: 'hget', key: 'h', field: 'n' }]);
    expect(value).toBe(String(results.indexOf(true) + 1));
  });
}

/** Bounded lists, their heads, removals, and the hash entries they bound; values kept as written. */
function describeLists(portOf: PortOf): void {
  it('should keep only the newest items of a bounded list', async () => {
    await portOf().commit([{ op: 'append', key: 'l', values: ['1', '2', '3'], keepLast: 4 }]);
    await portOf().commit([{ op: 'append', key: 'l', values: ['4', '5'], keepLast: 4 }]);
    await portOf().commit([{ op: 'append', key: 'l', values: [] }]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['2', '3', '4', '5']]);
  });

  it('should cut a list grown past its bound to its trimTo newest, and drop their hash entries', async () => {
    const append = (values: string[]): Write => ({
      op: 'append',
      key: 'l',
      values,
      keepLast: 4,
      trimTo: 2,
      dropFrom: 'h',
    });
    await portOf().commit([{ op: 'hset', key: 'h', field: '1', value: 'one' }, append(['1', '2', '3', '4'])]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['1', '2', '3', '4']]);
    await portOf().commit([append(['5'])]);
    expect(
      await portOf().read([
        { op: 'list', key: 'l' },
        { op: 'hgetall', key: 'h' },
      ]),
    ).toEqual([['4', '5'], {}]);
    await portOf().commit([append(['6', '7'])]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['4', '5', '6', '7']]);
    // A trimTo above the bound is the bound.
    await portOf().commit([{ op: 'append', key: 'l', values: ['8'], keepLast: 4, trimTo: 9 }]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['5', '6', '7', '8']]);
  });

  it('should remove given items from a list, every occurrence, leaving the others in order', async () => {
    await portOf().commit([{ op: 'append', key: 'l', values: ['a', 'b', 'c', 'b', '{"x":1}', 'd'] }]);
    await portOf().commit([{ op: 'remove', key: 'l', values: ['b', '{"x":1}', 'absent'] }]);
    await portOf().commit([{ op: 'remove', key: 'missing', values: ['a'] }]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['a', 'c', 'd']]);
    await portOf().commit([{ op: 'remove', key: 'l', values: ['a', 'c', 'd'] }]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([[]]);
  });

  it('should read the head of a list, and remove items looking only at its head when told', async () => {
    await portOf().commit([{ op: 'append', key: 'l', values: ['a', 'b', 'c', 'd', 'b', 'e'] }]);
    expect(
      await portOf().read([
        { op: 'list', key: 'l', first: 2 },
        { op: 'list', key: 'l', first: 0 },
        { op: 'list', key: 'l', first: 99 },
        { op: 'list', key: 'missing', first: 3 },
      ]),
    ).toEqual([['a', 'b'], [], ['a', 'b', 'c', 'd', 'b', 'e'], []]);
    // The second 'b' lies beyond the head looked at: it stays; so does an item not named.
    await portOf().commit([{ op: 'remove', key: 'l', values: ['a', 'b', 'e'], within: 3 }]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([['c', 'd', 'b', 'e']]);
    // Removing what is gone already changes nothing (two replicas removing the same items).
    await portOf().commit([{ op: 'remove', key: 'l', values: ['a'], within: 3 }]);
    await portOf().commit([{ op: 'remove', key: 'l', values: ['c'], within: 0 }]);
    expect(await portOf().read([{ op: 'list', key: 'l', first: 10 }])).toEqual([['c', 'd', 'b', 'e']]);
    await portOf().commit([{ op: 'remove', key: 'l', values: ['c', 'd', 'b', 'e'], within: 10 }]);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([[]]);
  });

  it('should read a page of a list from any index, and its length, also once its head was trimmed', async () => {
    await portOf().commit([{ op: 'append', key: 'l', values: ['a', 'b', 'c', 'd', 'e'], keepLast: 4 }]);
    const page = (from: number, first?: number): Read => ({ op: 'list', key: 'l', from, first });
    // Two reads or fewer go as single commands, more as one transaction: both forms are checked.
    for (const reads of [
      [page(1, 2)],
      [page(1, 2), page(3), page(9, 2), page(0, 0), { op: 'length', key: 'l' } as Read],
    ])
      expect(await portOf().read(reads)).toEqual([['c', 'd'], ['e'], [], [], 4].slice(0, reads.length));
    expect(await portOf().read([{ op: 'length', key: 'missing' }])).toEqual([0]);
  });

  it('should remove the entries of a hash whose ids a bounded list trims off', async () => {
    for (const id of ['a', 'b', 'c']) {
      await portOf().commit([
        { op: 'hset', key: 'h', field: id, value: id.toUpperCase() },
        { op: 'append', key: 'ids', values: [id], keepLast: 2, dropFrom: 'h' },
      ]);
    }
    await portOf().commit([{ op: 'hset', key: 'h', field: 'seeded', value: 'S' }]);
    expect(
      await portOf().read([
        { op: 'hgetall', key: 'h' },
        { op: 'list', key: 'ids' },
      ]),
    ).toEqual([{ b: 'B', c: 'C', seeded: 'S' }, ['b', 'c']]);
  });

  it('should store strings of any content unchanged (unicode, JSON, empty)', async () => {
    const values = ['', '{"a":[1,null,"é"]}', '🙂 \u0000 \n', 'x'.repeat(100_000)];
    await portOf().commit(values.map((value, i) => ({ op: 'set' as const, key: `k${i}`, value })));
    await portOf().commit([{ op: 'append', key: 'l', values }]);
    expect(await portOf().read(values.map((_, i) => ({ op: 'get' as const, key: `k${i}` })))).toEqual(values);
    expect(await portOf().read([{ op: 'list', key: 'l' }])).toEqual([values]);
  });
}

/** Ages, counters, claims and prefixes. */
function describeAges(portOf: PortOf): void {
  it('should expire a key written with a TTL, and one given a TTL later', async () => {
    await portOf().commit([
      { op: 'set', key: 'short', value: 'v', ttlMs: 60 },
      { op: 'set', key: 'long', value: 'v', ttlMs: 60_000 },
      { op: 'hset', key: 'h', field: 'f', value: '1' },
      { op: 'expire', key: 'h', ttlMs: 60 },
    ]);
    expect(await portOf().read([{ op: 'get', key: 'short' }])).toEqual(['v']);
    await sleep(120);
    expect(
      await portOf().read([
        { op: 'get', key: 'short' },
        { op: 'get', key: 'long' },
        { op: 'hgetall', key: 'h' },
      ]),
    ).toEqual([null, 'v', {}]);
  });

  it('should count hits of a window up to the limit, exactly, however many arrive at once', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => portOf().hit('w', 7, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.count)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(results.filter((r) => !r.allowed).every((r) => r.count === 7)).toBe(true);
    expect(await portOf().read([{ op: 'get', key: 'w' }])).toEqual(['7']);
  });

  it('should start a new window once the counter expires', async () => {
    expect(await portOf().hit('w', 1, 60)).toEqual({ count: 1, allowed: true });
    expect(await portOf().hit('w', 1, 60)).toEqual({ count: 1, allowed: false });
    await sleep(120);
    expect(await portOf().hit('w', 1, 60)).toEqual({ count: 1, allowed: true });
  });

  it('should let exactly one of many concurrent claims of a key win, and tell the others its value', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => portOf().claim('c', `v${i}`, 60_000)));
    expect(results.filter((r) => r === null)).toHaveLength(1);
    const winner = `v${results.indexOf(null)}`;
    expect(results.filter((r) => r !== null).every((r) => r === winner)).toBe(true);
    expect(await portOf().read([{ op: 'get', key: 'c' }])).toEqual([winner]);
  });

  it('should release a claim when it expires or is deleted', async () => {
    expect(await portOf().claim('c', 'a', 60)).toBeNull();
    await sleep(120);
    expect(await portOf().claim('c', 'b', 60_000)).toBeNull();
    await portOf().commit([{ op: 'delete', key: 'c' }]);
    expect(await portOf().claim('c', 'd', 60_000)).toBeNull();
  });

  it('should keep at most the cap of claims under one index, releasing the oldest', async () => {
    for (let i = 0; i < 5; i++) {
      expect(await portOf().claim(`i:${i}`, 'v', 60_000, { key: 'index', cap: 3 })).toBeNull();
      await sleep(2);
    }
    expect(await portOf().read([0, 1, 2, 3, 4].map((i) => ({ op: 'get' as const, key: `i:${i}` })))).toEqual([
      null,
      null,
      'v',
      'v',
      'v',
    ]);
    // A claim released by a delete naming its index no longer counts towards the cap.
    await portOf().commit([{ op: 'delete', key: 'i:2', index: 'index' }]);
    expect(await portOf().claim('i:5', 'v', 60_000, { key: 'index', cap: 3 })).toBeNull();
    expect(await portOf().read([3, 4, 5].map((i) => ({ op: 'get' as const, key: `i:${i}` })))).toEqual(['v', 'v', 'v']);
  });

  it('should refuse a claim under a full refusing index, keeping every claim it holds', async () => {
    const full = { key: 'mine', cap: 3, whenFull: 'refuse' as const };
    for (let i = 0; i < 3; i++) expect(await portOf().claim(`m:${i}`, 'v', 60_000, full)).toBeNull();
    await expect(portOf().claim('m:3', 'v', 60_000, full)).rejects.toBeInstanceOf(ClaimRefusedError);
    // Concurrent claims on a full index all fail, and another index is not affected.
    const refused = await Promise.allSettled([4, 5, 6].map((i) => portOf().claim(`m:${i}`, 'v', 60_000, full)));
    expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await portOf().claim('o:0', 'v', 60_000, { ...full, key: 'other' })).toBeNull();
    expect(await portOf().read([0, 1, 2, 3].map((i) => ({ op: 'get' as const, key: `m:${i}` })))).toEqual([
      'v',
      'v',
      'v',
      null,
    ]);
    // An existing key answers its value, full or not; a deleted or expired claim frees its place.
    expect(await portOf().claim('m:0', 'w', 60_000, full)).toBe('v');
    await portOf().commit([{ op: 'delete', key: 'm:1' }]);
    expect(await portOf().claim('m:7', 'v', 60, full)).toBeNull();
    await expect(portOf().claim('m:8', 'v', 60_000, full)).rejects.toBeInstanceOf(ClaimRefusedError);
    await sleep(120);
    expect(await portOf().claim('m:8', 'v', 60_000, full)).toBeNull();
  });

  it('should delete and count keys by prefix only', async () => {
    await portOf().commit([
      { op: 'set', key: 'ws:a:x', value: '1' },
      { op: 'hset', key: 'ws:a:h', field: 'f', value: '1' },
      { op: 'set', key: 'ws:b:x', value: '1' },
      { op: 'set', key: 'ws:a*', value: '1' },
    ]);
    expect(await portOf().countByPrefix('ws:a:')).toBe(2);
    expect(await portOf().deleteByPrefix('ws:a:')).toBe(2);
    expect(
      await portOf().read([
        { op: 'get', key: 'ws:b:x' },
        { op: 'get', key: 'ws:a*' },
        { op: 'get', key: 'ws:a:x' },
      ]),
    ).toEqual(['1', '1', null]);
  });
}

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
    describeReadsAndCommits(() => port);
    describeLists(() => port);
    describeAges(() => port);
  });
}

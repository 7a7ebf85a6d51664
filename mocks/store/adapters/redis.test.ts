import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { startRedisServer, type RedisServer } from '../../testing/redis-server';
import type { StoragePort } from '../port';
import { StoreUnavailableError } from '../port';
import { describeStoragePort } from './contract';
import { familyOf } from './family-map';
import { createRedisPort } from './redis';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 600_000);
afterAll(async () => {
  await redis?.stop();
});

// A fresh prefix per test: an empty store without flushing the server.
describeStoragePort('redis', async () => createRedisPort({ url: redis.url, prefix: `test:${randomUUID()}:` }));

describe('redis port against a server that goes away', () => {
  it('should fail with StoreUnavailableError while the server is down, and work again once it is back', async () => {
    const port: StoragePort = await createRedisPort({ url: redis.url, prefix: `test:${randomUUID()}:` });
    try {
      expect(await port.hit('w', 5, 60_000)).toEqual({ count: 1, allowed: true });
      await redis.stop();
      await expect(port.hit('w', 5, 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(port.read([{ op: 'get', key: 'x' }])).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(port.commit([{ op: 'set', key: 'x', value: '1' }])).rejects.toBeInstanceOf(StoreUnavailableError);
      await redis.start();
      let result;
      for (let attempt = 0; attempt < 100 && !result; attempt++) {
        result = await port
          .hit('w', 5, 60_000)
          .catch(() => new Promise((resolve) => setTimeout(() => resolve(undefined), 50)));
      }
      expect(result).toEqual({ count: 1, allowed: true });
    } finally {
      await port.close();
    }
  });

  it('should start while the server is unreachable and answer StoreUnavailableError', async () => {
    const port = await createRedisPort({ url: 'redis://127.0.0.1:1/0', prefix: 'x:' });
    try {
      await expect(port.read([{ op: 'get', key: 'x' }])).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await port.close();
    }
  });
});

describe('redis port writes', () => {
  it('should send the commands issued in one tick in one write, whatever their operations', async () => {
    const port = await createRedisPort({ url: redis.url, prefix: `test:${randomUUID()}:` });
    const socket = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const write = jest.spyOn(socket, '_write');
    const writev = jest.spyOn(socket, '_writev');
    try {
      await port.read([{ op: 'get', key: 'warm' }]);
      write.mockClear();
      writev.mockClear();
      // What concurrent requests resumed together issue: a count, reads of one and of many keys, a commit, a claim.
      await Promise.all([
        port.hit('w', 5, 60_000),
        ...Array.from({ length: 20 }, (_, i) => port.read([{ op: 'get', key: `k${i}` }])),
        port.read([
          { op: 'get', key: 'a' },
          { op: 'hget', key: 'h', field: 'f' },
          { op: 'list', key: 'l' },
        ]),
        port.commit([{ op: 'set', key: 'x', value: '1' }]),
        port.claim('c', 'v', 60_000),
      ]);
      expect(write.mock.calls.length + writev.mock.calls.length).toBe(1);
    } finally {
      write.mockRestore();
      writev.mockRestore();
      await port.close();
    }
  });
});

describe('redis port: a reset by prefix through the families, not a scan of every key', () => {
  const A = 'ws-a';
  const B = 'ws-b';
  /** What one tenant keeps: its workspace's hash and list, idempotent answers, a claim index, a rate-limit window. */
  const fill = async (port: StoragePort, ws: string) => {
    await port.commit([
      { op: 'hset', key: `ws:${ws}:runs`, field: 'r1', value: '{}' },
      { op: 'append', key: `ws:${ws}:runs-created`, values: ['r1'], keepLast: 10 },
    ]);
    for (let i = 0; i < 3; i++)
      await port.claim(`idem:${ws}:k${i}`, 'claimed', 60_000, { key: `idem-index:${ws}:`, cap: 2 });
    await port.commit([{ op: 'set', key: `idem:${ws}:k2`, value: 'answer', ttlMs: 60_000 }]);
    await port.hit(`rl:workspace:${ws}:1`, 10, 60_000);
  };
  const resetOf = async (port: StoragePort, ws: string) => {
    for (const prefix of [`ws:${ws}:`, `idem:${ws}:`, `idem-index:${ws}:`, `rl:workspace:${ws}:`])
      await port.deleteByPrefix(prefix);
  };
  /** Calls so far of the commands that walk the keyspace or the set of every family. */
  const scans = async (client: import('ioredis').default) => {
    const stats = await client.info('commandstats');
    return ['scan', 'sscan', 'smembers'].map((command) =>
      Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0),
    );
  };

  it("should delete one tenant's keys without a scan, and leave the other tenant's", async () => {
    const { default: Redis } = await import('ioredis');
    const prefix = `test:${randomUUID()}:`;
    const port = await createRedisPort({ url: redis.url, prefix });
    const raw = new Redis(redis.url);
    try {
      await fill(port, A);
      await fill(port, B);
      // The cap of 2 released k0: it is gone from its family too.
      expect(await raw.zrange(`${prefix}|family|idem:${A}:`, 0, -1)).toEqual([
        `${prefix}idem:${A}:k1`,
        `${prefix}idem:${A}:k2`,
      ]);
      const before = await scans(raw);
      await resetOf(port, A);
      expect(await scans(raw)).toEqual(before);
      expect(await port.countByPrefix(`ws:${A}:`)).toBe(0);
      expect(await port.countByPrefix(`idem:${A}:`)).toBe(0);
      expect(await port.countByPrefix(`idem-index:${A}:`)).toBe(0);
      expect(await port.countByPrefix(`rl:workspace:${A}:`)).toBe(0);
      expect(await port.countByPrefix(`ws:${B}:`)).toBe(2);
      expect(await port.countByPrefix(`idem:${B}:`)).toBe(2);
      expect(await port.countByPrefix(`idem-index:${B}:`)).toBe(1);
      expect(await port.countByPrefix(`rl:workspace:${B}:`)).toBe(1);
      // An emptied family is forgotten; the others stay named.
      const named = await raw.smembers(`${prefix}|families`);
      expect(named).not.toContain(`ws:${A}:`);
      expect(named).toContain(`ws:${B}:`);
      // A key written again after the reset is found by the next one.
      await fill(port, A);
      await resetOf(port, A);
      expect(await port.countByPrefix(`ws:${A}:`)).toBe(0);
      expect(await port.deleteByPrefix('')).toBe(6);
      expect(await port.countByPrefix('')).toBe(0);
    } finally {
      raw.disconnect();
      await port.close();
    }
  });

  it('should find the family of a key in its script as familyOf does, whatever the prefix and the key', async () => {
    const { default: Redis } = await import('ioredis');
    const keys = ['plain', 'one:', 'a:b', 'a:b:c:d', ':lead', '::', 'é:ü:x', 'rl:workspace:w:1'];
    for (const prefix of [`test:${randomUUID()}:`, `tést·${randomUUID()}|`]) {
      const port = await createRedisPort({ url: redis.url, prefix });
      const raw = new Redis(redis.url);
      try {
        await port.commit(keys.map((key) => ({ op: 'set' as const, key, value: 'v' })));
        expect((await raw.smembers(`${prefix}|families`)).sort()).toEqual([...new Set(keys.map(familyOf))].sort());
        for (const key of keys)
          expect(await raw.zscore(`${prefix}|family|${familyOf(key)}`, `${prefix}${key}`)).toBe('inf');
        expect(await port.deleteByPrefix('')).toBe(keys.length);
      } finally {
        raw.disconnect();
        await port.close();
      }
    }
  });

  it('should keep a claim index in its family while it lives, also one adopted from an earlier mock', async () => {
    const { default: Redis } = await import('ioredis');
    const prefix = `test:${randomUUID()}:`;
    const raw = new Redis(redis.url);
    try {
      await raw.zadd(`${prefix}idem-index:${A}:`, Date.now(), `${prefix}idem:${A}:k0`);
      await raw.pexpire(`${prefix}idem-index:${A}:`, 300);
      await raw.set(`${prefix}idem:${A}:k0`, 'v', 'PX', 300);
      const port = await createRedisPort({ url: redis.url, prefix });
      try {
        await port.claim(`idem:${A}:k1`, 'v', 60_000, { key: `idem-index:${A}:`, cap: 10 });
        // Past the adopted index's first expiry and a sweep (every second): the index lives on, with its entry.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await resetOf(port, A);
        expect(await raw.exists(`${prefix}idem-index:${A}:`, `${prefix}idem:${A}:k1`)).toBe(0);
      } finally {
        await port.close();
      }
    } finally {
      raw.disconnect();
    }
  });

  it('should drop the entries of keys Redis expired from families nobody writes any more, and their names', async () => {
    const { default: Redis } = await import('ioredis');
    const prefix = `test:${randomUUID()}:`;
    const port = await createRedisPort({ url: redis.url, prefix });
    const raw = new Redis(redis.url);
    try {
      for (let i = 0; i < 20; i++) {
        await port.claim(`idem:w${i}:k`, 'v', 50, { key: `idem-index:w${i}:`, cap: 10 });
        await port.hit(`rl:workspace:w${i}:1`, 10, 50);
      }
      expect(await raw.scard(`${prefix}|families`)).toBe(41);
      // The sweep runs every second, whatever is written.
      await new Promise((resolve) => setTimeout(resolve, 2_300));
      expect(await raw.scard(`${prefix}|families`)).toBe(0);
      expect(await raw.keys(`${prefix}|family|*`)).toEqual([]);
    } finally {
      raw.disconnect();
      await port.close();
    }
  });

  it('should take out of its family a key its writes removed', async () => {
    const { default: Redis } = await import('ioredis');
    const prefix = `test:${randomUUID()}:`;
    const port = await createRedisPort({ url: redis.url, prefix });
    const raw = new Redis(redis.url);
    try {
      await port.commit([
        { op: 'set', key: 'idem:w:kept', value: 'v', ttlMs: 60_000 },
        { op: 'hset', key: 'idem:w:gone', field: 'f', value: 'v' },
      ]);
      await port.commit([{ op: 'hdelete', key: 'idem:w:gone', field: 'f' }]);
      expect(await raw.zrange(`${prefix}|family|idem:w:`, 0, -1)).toEqual([`${prefix}idem:w:kept`]);
    } finally {
      raw.disconnect();
      await port.close();
    }
  });

  it('should adopt the keys of a Redis written before families were kept, once, then reset without a scan', async () => {
    const { default: Redis } = await import('ioredis');
    const prefix = `test:${randomUUID()}:`;
    const raw = new Redis(redis.url);
    try {
      // As an earlier mock left them: keys alone, no family, no layout mark.
      await raw.hset(`${prefix}ws:${A}:runs`, 'r1', '{}');
      await raw.set(`${prefix}idem:${A}:k`, 'v', 'PX', 60_000);
      await raw.hset(`${prefix}ws:${B}:runs`, 'r1', '{}');
      const port = await createRedisPort({ url: redis.url, prefix });
      try {
        const before = await scans(raw);
        await resetOf(port, A);
        expect(await scans(raw)).toEqual(before);
        expect(await raw.exists(`${prefix}ws:${A}:runs`, `${prefix}idem:${A}:k`)).toBe(0);
        expect(await raw.exists(`${prefix}ws:${B}:runs`)).toBe(1);
        expect(await port.countByPrefix('')).toBe(1);
      } finally {
        await port.close();
      }
    } finally {
      raw.disconnect();
    }
  });
});

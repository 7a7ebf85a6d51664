import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { startRedisServer, type RedisServer } from '../../testing/redis-server';
import type { StoragePort } from '../port';
import { StoreUnavailableError } from '../port';
import { describeStoragePort } from './contract';
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

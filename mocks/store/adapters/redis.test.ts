import { randomUUID } from 'node:crypto';
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

import type { StoragePort } from '../port';
import { createMemoryPort } from './memory';

export type StorageSettings = {
  /** redis://host:port/db; without it the state lives in this process (the embedded default). */
  redisUrl?: string;
  redisPrefix?: string;
  now?: () => number;
};

/** In memory unless a Redis URL is given; the Redis client is loaded only then, so `npm start` never pays for it. */
export async function createStoragePort(settings: StorageSettings): Promise<StoragePort> {
  if (!settings.redisUrl) return createMemoryPort({ now: settings.now });
  // require, not import(): `npm start` runs through tsx's CommonJS hook, which resolves only require.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createRedisPort } = require('./redis') as typeof import('./redis');
  return createRedisPort({ url: settings.redisUrl, prefix: settings.redisPrefix });
}

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
  const { createRedisPort } = await import('./redis');
  return createRedisPort({ url: settings.redisUrl, prefix: settings.redisPrefix });
}

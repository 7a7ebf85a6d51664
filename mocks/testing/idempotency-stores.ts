import { commitsNow, type StoragePort } from '../store/port';
import { createIdempotencyStore, type IdempotencyStore } from '../store/repositories/idempotency';
import { createInProcessIdempotencyStore } from '../store/repositories/idempotency-in-process';

/** The idempotency stores: kept as texts (any port, Redis's form) and as objects (a port in this process). */
export const IDEMPOTENCY_STORES = [
  ['as texts', false],
  ['as objects', true],
] as const;

type Options = {
  port: StoragePort;
  ttlMs: number;
  capPerWorkspace: number;
  bytesPerWorkspace?: number;
  now: () => number;
};

/** One of the two stores on `options.port` (kept as objects only on a port that commits at once: memory). */
export function makeIdempotencyStore(asObjects: boolean, options: Options): IdempotencyStore {
  if (!asObjects) return createIdempotencyStore(options);
  const { port } = options;
  if (!commitsNow(port)) throw new Error('the store kept as objects needs a port that commits at once (memory)');
  return createInProcessIdempotencyStore({ ...options, port });
}

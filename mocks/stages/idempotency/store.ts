import type { MockResponse } from '../../types';

type Entry = { fingerprint: string; expiresAt: number; response?: { status: number; headers: Record<string, string>; bodyText?: string } };

export type IdempotencyLookup =
  | { kind: 'new' }
  | { kind: 'in-flight'; sameRequest: boolean }
  | { kind: 'done'; sameRequest: boolean; response: MockResponse };

/** Response headers worth replaying; rate-limit headers are not, they are fresh on every answer. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'deprecation', 'sunset'] as const;

/**
 * Keys per workspace, each expiring after `ttlMs`, at most `capPerWorkspace` per workspace (oldest evicted).
 * Map insertion order is creation order and the lifetime is constant, so expired keys sit at the front.
 */
export function createIdempotencyStore(options: { ttlMs: number; capPerWorkspace: number; now: () => number }) {
  const workspaces = new Map<string, Map<string, Entry>>();

  const keysOf = (workspaceUuid: string) => {
    let keys = workspaces.get(workspaceUuid);
    if (!keys) workspaces.set(workspaceUuid, (keys = new Map()));
    return keys;
  };

  const evict = (keys: Map<string, Entry>, now: number) => {
    for (const [key, entry] of keys) {
      if (entry.expiresAt > now && keys.size <= options.capPerWorkspace) break;
      keys.delete(key);
    }
  };

  return {
    lookup(workspaceUuid: string, key: string, fingerprint: string): IdempotencyLookup {
      const keys = keysOf(workspaceUuid);
      evict(keys, options.now());
      const entry = keys.get(key);
      if (!entry) return { kind: 'new' };
      const sameRequest = entry.fingerprint === fingerprint;
      if (!entry.response) return { kind: 'in-flight', sameRequest };
      const { status, headers, bodyText } = entry.response;
      return { kind: 'done', sameRequest, response: { status, headers: { ...headers }, body: bodyText === undefined ? undefined : JSON.parse(bodyText) } };
    },
    begin(workspaceUuid: string, key: string, fingerprint: string): void {
      const keys = keysOf(workspaceUuid);
      keys.set(key, { fingerprint, expiresAt: options.now() + options.ttlMs });
      evict(keys, options.now());
    },
    /** Stores a copy: later changes to the resource must not change what a replay answers. */
    complete(workspaceUuid: string, key: string, response: MockResponse): void {
      const entry = workspaces.get(workspaceUuid)?.get(key);
      if (!entry) return;
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) if (response.headers[name] !== undefined) headers[name] = response.headers[name];
      entry.response = { status: response.status, headers, bodyText: response.body === undefined ? undefined : JSON.stringify(response.body) };
    },
    /** A request that failed leaves no trace, so the client can retry it with the same key. */
    abandon(workspaceUuid: string, key: string): void {
      workspaces.get(workspaceUuid)?.delete(key);
    },
    size(): number {
      let total = 0;
      for (const keys of workspaces.values()) total += keys.size;
      return total;
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

import { STORE_LIMITS } from '../../limits';
import { createByteBudget } from '../byte-budget';
import type { MockResponse } from '../../types';
import { rememberJsonText } from '../../json-text';
import type { StoragePort, Write } from '../port';
import type { PendingCommit } from '../pending-commit';

/** The answer kept: its body as JSON inside the entry's JSON (`bodyText`, a string, in entries kept before). */
type StoredResponse = { status: number; headers: Record<string, string>; body?: unknown; bodyText?: string };
/** What a key holds: the request's fingerprint, when it expires, and once done the answer to replay. */
type Entry = { fingerprint: string; expiresAt: number; owner: string; response?: StoredResponse };

/**
 * A request's hold on a key: the stored text (what complete and abandon guard on), what it says, and the key
 * it is stored under (the same string each time, so the store hashes it once).
 */
export type Claim = { text: string; entry: Entry; storageKey: string };

export type IdempotencyLookup =
  | { kind: 'new'; claim: Claim }
  | { kind: 'in-flight'; sameRequest: boolean }
  | { kind: 'done'; sameRequest: boolean; response: MockResponse };

/** Response headers worth replaying; rate-limit headers are not, they are fresh on every answer. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'deprecation', 'sunset'] as const;

/** An in-flight key whose request never finishes (its process died) is released after this long at most. */
const IN_FLIGHT_LEASE_MS = 10 * 60_000;

let owners = 0;

/**
 * Keys per workspace in the storage port, each expiring `ttlMs` after its first use (the store's own TTL: in
 * Redis, the key's expiry), at most `capPerWorkspace` per workspace (oldest released first). A key is claimed
 * atomically (SET NX), so of concurrent requests with one key, on any number of replicas, exactly one runs;
 * the others see it in flight (409) or done (replay).
 */
export function createIdempotencyStore(options: {
  port: StoragePort;
  ttlMs: number;
  capPerWorkspace: number;
  bytesPerWorkspace?: number;
  now: () => number;
}) {
  const budget = createByteBudget(
    options.bytesPerWorkspace ?? STORE_LIMITS.idempotencyBytesPerWorkspace,
    options.capPerWorkspace,
  );
  const keyOf = (workspaceUuid: string, key: string) => `idem:${workspaceUuid}:${key}`;
  const indexOf = (workspaceUuid: string) => `idem-index:${workspaceUuid}`;
  // Identifies the request that claimed a key, so only it can complete or release that claim: the process (its
  // id and start) and a count in it.
  const ownerPrefix = `${process.pid}.${Date.now().toString(36)}.`;
  const newOwner = () => ownerPrefix + ++owners;

  return {
    /**
     * Claims the key for this request, or tells what holds it. `new` means the caller now owns the key and must
     * `complete` or `abandon` it with the returned claim.
     */
    async claim(workspaceUuid: string, key: string, fingerprint: string): Promise<IdempotencyLookup> {
      const entry: Entry = { fingerprint, expiresAt: options.now() + options.ttlMs, owner: newOwner() };
      const text = JSON.stringify(entry);
      const lease = Math.min(options.ttlMs, IN_FLIGHT_LEASE_MS);
      const storageKey = keyOf(workspaceUuid, key);
      const existing = await options.port.claim(storageKey, text, lease, {
        key: indexOf(workspaceUuid),
        cap: options.capPerWorkspace,
      });
      if (existing === null) return { kind: 'new', claim: { text, entry, storageKey } };
      const found = JSON.parse(existing) as Entry;
      const sameRequest = found.fingerprint === fingerprint;
      if (!found.response) return { kind: 'in-flight', sameRequest };
      const { status, headers, body, bodyText } = found.response;
      return {
        kind: 'done',
        sameRequest,
        response: { status, headers: { ...headers }, body: bodyText === undefined ? body : JSON.parse(bodyText) },
      };
    },
    /** Stores a copy (later changes to the resource must not change what a replay answers), kept until the key expires. */
    /**
     * With `withAnswer`, what the request wrote under the key goes into the store in the same commit as the
     * answer (or, should the claim have been released meanwhile, on its own first, then the answer as before).
     */
    async complete(
      workspaceUuid: string,
      key: string,
      claim: Claim,
      response: MockResponse,
      withAnswer?: PendingCommit,
    ): Promise<void> {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS)
        if (response.headers[name] !== undefined) headers[name] = response.headers[name];
      const { entry, storageKey } = claim;
      const ttlMs = entry.expiresAt - options.now();
      const guard = [{ key: storageKey, is: 'equals' as const, value: claim.text }];
      if (ttlMs <= 0) {
        await withAnswer?.applyAlone();
        await options.port.commit([{ op: 'delete', key: storageKey, index: indexOf(workspaceUuid) }], guard);
        return;
      }
      // The body's JSON goes in as it is (the text the answer is sent with), not escaped as a string.
      const body = response.body === undefined ? '' : `,"body":${rememberJsonText(response.body)}`;
      const value = `${claim.text.slice(0, -1)},"response":{"status":${response.status},"headers":${JSON.stringify(headers)}${body}}}`;
      // The byte bound: the oldest answers of the workspace go once its budget is spent, in the same guarded
      // commit as this answer (only while the claim is still this request's: a key released meanwhile by the
      // cap or the lease is not brought back), so nothing can fail after the answer is kept.
      const reservation = budget.reserve(workspaceUuid, key, storageKey.length + value.length);
      const writes: Write[] = reservation.released.includes(key)
        ? [{ op: 'delete', key: storageKey, index: indexOf(workspaceUuid) }]
        : [{ op: 'set', key: storageKey, value, ttlMs }];
      for (const released of reservation.released)
        if (released !== key)
          writes.push({ op: 'delete', key: keyOf(workspaceUuid, released), index: indexOf(workspaceUuid) });
      let done = false;
      try {
        if (withAnswer && !withAnswer.empty) {
          done = await withAnswer.commitWith(options.port, writes, guard);
          if (done) return;
          await withAnswer.applyAlone();
        }
        done = await options.port.commit(writes, guard);
      } finally {
        if (!done) reservation.cancel();
      }
    },
    /** A request that failed leaves no trace, so the client can retry it with the same key. */
    async abandon(workspaceUuid: string, key: string, claim: Claim): Promise<void> {
      const { storageKey } = claim;
      budget.remove(workspaceUuid, key);
      await options.port.commit(
        [{ op: 'delete', key: storageKey, index: indexOf(workspaceUuid) }],
        [{ key: storageKey, is: 'equals', value: claim.text }],
      );
    },
    /** Forgets every key, or one workspace's (the control plane's reset). */
    async clear(workspaceUuid?: string): Promise<void> {
      await options.port.deleteByPrefix(workspaceUuid === undefined ? 'idem:' : `idem:${workspaceUuid}:`);
      await options.port.deleteByPrefix(workspaceUuid === undefined ? 'idem-index:' : `idem-index:${workspaceUuid}`);
    },
    /** Bytes of answers kept for a workspace by this process. */
    bytes(workspaceUuid: string): number {
      return budget.bytes(workspaceUuid);
    },
    /** Keys currently kept (tests, diagnostics). */
    async size(): Promise<number> {
      return options.port.countByPrefix('idem:');
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

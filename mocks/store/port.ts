/**
 * The storage port: every piece of the mock's state (rate-limit windows, idempotency keys, workspaces, runs,
 * downloads, OAuth grants) is kept through this one small interface. Two adapters implement it: in memory (the
 * embedded default) and Redis (replicas sharing one state). Both pass the same contract suite
 * (`adapters/contract.ts`). Atomicity lives in the adapter: a stage or a store never reads, decides and writes
 * back; it hands the adapter a guarded batch (`commit`), a counter (`hit`) or a claim (`claim`).
 *
 * Values are strings (JSON), so both adapters copy on write and on read alike.
 */

export type Read =
  | { op: 'get'; key: string }
  | { op: 'hget'; key: string; field: string }
  | { op: 'hgetall'; key: string }
  /**
   * A list's items; with `first`, only that many from its head (the oldest of a list appended in order); with
   * `from`, starting at that index (0 is the head), so a page of a long list costs the page.
   */
  | { op: 'list'; key: string; first?: number; from?: number }
  /** How many items a list holds (0 for none). */
  | { op: 'length'; key: string };

export type ReadResult<R extends Read> = R extends { op: 'get' | 'hget' }
  ? string | null
  : R extends { op: 'hgetall' }
    ? Record<string, string>
    : R extends { op: 'length' }
      ? number
      : string[];
export type ReadResults<R extends readonly Read[]> = { -readonly [I in keyof R]: ReadResult<R[I]> };

export type Write =
  /** `ttlMs` expires the key that long after this write (age bound); without it the key stays. */
  | { op: 'set'; key: string; value: string; ttlMs?: number }
  /** `index` also forgets the key in that claim index (a released claim no longer counts towards its cap). */
  | { op: 'delete'; key: string; index?: string }
  | { op: 'hset'; key: string; field: string; value: string }
  | { op: 'hdelete'; key: string; field: string }
  /**
   * Appends to a list, keeping at most the `keepLast` newest items (count bound). With `trimTo` (at most
   * `keepLast`), a list grown past `keepLast` is cut to its `trimTo` newest: a large list is trimmed in steps,
   * so what mirrors it drops many items at once rather than one per append. With `dropFrom`, the items
   * trimmed off are also removed as fields of that hash: a list of ids then bounds the entries of a collection.
   */
  | { op: 'append'; key: string; values: string[]; keepLast?: number; trimTo?: number; dropFrom?: string }
  /**
   * Removes every occurrence of these items from a list: the undo of an append (a request that failed). With
   * `within`, only the first `within` items are looked at, so removing the oldest items of a long list costs
   * what the head costs, not the list.
   */
  | { op: 'remove'; key: string; values: string[]; within?: number }
  | { op: 'expire'; key: string; ttlMs: number };

/**
 * A condition on one key (or hash field) checked atomically with the writes it guards: `absent`, `present`, or
 * `equals` a value (compare-and-set).
 */
export type Guard = { key: string; field?: string } & (
  { is: 'absent' } | { is: 'present' } | { is: 'equals'; value: string }
);

/**
 * Where a claimed key is remembered, so at most `cap` claims live under one index. When it is full, the oldest
 * claims are released (the default), or with `whenFull: 'refuse'` the new claim is refused: nothing is stored and
 * `claim` rejects with ClaimRefusedError (an index per client, where a client over its bound must not void what
 * it already holds). A claim counts while its key lives: expired or deleted keys free their place.
 */
export type ClaimIndex = { key: string; cap: number; whenFull?: 'release-oldest' | 'refuse' };

export type HitResult = { count: number; allowed: boolean };

export interface StoragePort {
  readonly kind: 'memory' | 'redis';
  /**
   * Reads many values in one round trip (more than two: as one consistent snapshot). Missing keys read as null,
   * {} or [].
   */
  read<const R extends readonly Read[]>(reads: R): Promise<ReadResults<R>>;
  /**
   * `read` answered at once, by an adapter in this process that has nothing to wait for (memory); absent where a
   * read is a round trip (Redis), and on wrappers between the port and its caller (they see every read).
   */
  readNow?<const R extends readonly Read[]>(reads: R): ReadResults<R>;
  /** Applies every write, or none when a guard does not hold (then resolves false). One round trip. */
  commit(writes: Write[], guards?: Guard[]): Promise<boolean>;
  /**
   * `commit` applied at once, by an adapter in this process (memory): nothing else runs between its guards and
   * its writes, nor between it and what its caller does next in the same turn. Absent on Redis and on wrappers.
   */
  commitNow?(writes: Write[], guards?: Guard[]): boolean;
  /**
   * Has a store kept beside the port's entries, in this process (idempotency keys as objects), swept of what is
   * past its age whenever the port sweeps its own (on its writes, rate-limit counts included): memory is freed by
   * the traffic there is, not only by that store's own. Memory only.
   */
  alsoSweep?(sweep: (at: number) => void): void;
  /**
   * A fixed-window counter: counts one hit unless `limit` is reached, the key expiring `ttlMs` after its first
   * hit. Concurrent hits from any number of processes get exactly `limit` allowed answers.
   */
  hit(key: string, limit: number, ttlMs: number): Promise<HitResult>;
  /**
   * `hit` answered at once, by an adapter in this process that has nothing to wait for (memory); absent where a
   * count is a round trip (Redis), and on wrappers that stand between the port and its caller (a test's failing
   * port), so they see every count.
   */
  hitNow?(key: string, limit: number, ttlMs: number): HitResult;
  /**
   * Stores `value` under `key` for `ttlMs` only if the key is absent (SET NX). Resolves null when this call
   * claimed it, else the value already there. With `index`, the claim is also remembered there and the oldest
   * claims beyond `index.cap` are released (deleted), so a store of claims stays bounded by count and age;
   * with `index.whenFull: 'refuse'` a full index rejects the claim with ClaimRefusedError instead.
   */
  claim(key: string, value: string, ttlMs: number, index?: ClaimIndex): Promise<string | null>;
  /** Deletes every key starting with `prefix` (a workspace reset, tests); resolves the number deleted. */
  deleteByPrefix(prefix: string): Promise<number>;
  /** Counts keys starting with `prefix` (bounds, diagnostics). */
  countByPrefix(prefix: string): Promise<number>;
  close(): Promise<void>;
}

/** A port that commits at once (`commitNow`): one in this process. */
export type CommitsNow = { commitNow(writes: Write[], guards?: Guard[]): boolean };

/** Whether the port commits at once (it is in this process, and nothing stands between it and its caller). */
export function commitsNow(port: StoragePort): port is StoragePort & CommitsNow {
  return port.commitNow !== undefined;
}

/** The port could not reach its backing store: the request is answered 503, never served from local state. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The shared store is unreachable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'StoreUnavailableError';
  }
}

/** A claim under an index that holds its cap of live claims, with `whenFull: 'refuse'`: nothing was stored. */
export class ClaimRefusedError extends Error {
  constructor(readonly index: ClaimIndex) {
    super(`The claim index ${index.key} already holds its ${index.cap} claims.`);
    this.name = 'ClaimRefusedError';
  }
}

import { IDEMPOTENCY_KEY_HEADER } from '../../../spec/lib/constants';
import { STORE_LIMITS } from '../../limits';
import { createByteBudget, type ByteBudget } from '../byte-budget';
import type { MockResponse } from '../../types';
import { rememberJsonText } from '../../json-text';
import type { ClaimIndex, Guard, StoragePort, Write } from '../port';
import { perWorkspace } from '../keys';
import { ReservedTry, type PartTry, type PendingCommit } from '../pending-commit';
import { randomBytes, toHex } from '../../web/bytes';

/** The answer kept: its body as JSON inside the entry's JSON (`bodyText`, a string, in entries kept before). */
type StoredResponse = { status: number; headers: Record<string, string>; body?: unknown; bodyText?: string };
/** What a key holds: the request's fingerprint, when it expires, and once done the answer to replay. */
type Entry = { fingerprint: string; expiresAt: number; owner: string; response?: StoredResponse };

/**
 * A request's hold on a key, as the store that made it knows it: the request hands it back to that store's
 * `complete` or `abandon`, and reads nothing of it but the fingerprint it claimed with.
 */
export interface Claim {
  readonly fingerprint: string;
}

/**
 * A claim in a store of texts: the stored text (what complete and abandon guard on), what it says, and the key it
 * is stored under (the same string each time, so the store hashes it once).
 */
class TextClaim implements Claim {
  /** The answer's text once `complete` tried to keep it: a commit that failed may still have applied it. */
  answer: string | undefined = undefined;
  constructor(
    readonly text: string,
    readonly entry: Entry,
    readonly storageKey: string,
  ) {}
  get fingerprint(): string {
    return this.entry.fingerprint;
  }
}

/** The claim as this store made it (a claim of another store is a programming error, never a request's). */
function textClaim(claim: Claim): TextClaim {
  if (!(claim instanceof TextClaim)) throw new Error('an idempotency claim made by another store');
  return claim;
}

export type IdempotencyLookup =
  | { kind: 'new'; claim: Claim }
  | { kind: 'in-flight'; sameRequest: boolean }
  | { kind: 'done'; sameRequest: boolean; response: MockResponse };
/** What holds a key another request has: in flight, or done with its answer. */
export type HeldKey = Exclude<IdempotencyLookup, { kind: 'new' }>;

/** Response headers worth replaying; rate-limit headers are not, they are fresh on every answer. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'deprecation', 'sunset'] as const;

/** The headers of an answer a replay repeats (both stores keep these and no others). */
export function replayedHeaders(response: MockResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) if (response.headers[name] !== undefined) headers[name] = response.headers[name];
  return headers;
}

/** An in-flight key whose request never finishes (its process died) is released after this long at most. */
export const IN_FLIGHT_LEASE_MS = 10 * 60_000;
/**
 * A joint commit (the answer with what the request created) whose key keeps being released before it lands
 * gives up after this many tries (500, never a create without its answer).
 */
export const MAX_JOINT_COMMIT_TRIES = 10;

/** What a key's stored text says to a request with `fingerprint`. */
function lookupOf(existing: string, fingerprint: string): HeldKey {
  const found = JSON.parse(existing) as Entry;
  const sameRequest = found.fingerprint === fingerprint;
  if (!found.response) return { kind: 'in-flight', sameRequest };
  const { status, headers, body, bodyText } = found.response;
  return {
    kind: 'done',
    sameRequest,
    response: { status, headers: { ...headers }, body: bodyText === undefined ? body : JSON.parse(bodyText) },
  };
}

let owners = 0;

/**
 * The answer's writes for each try of its commit. The byte bound: the oldest answers of the workspace go once
 * its budget is spent, in the same guarded commit as this answer (only while the claim is still this request's:
 * a key released meanwhile by the cap or the lease is not brought back), so nothing can fail after the answer is
 * kept. Reserved for each try of the commit, in the same turn as it is sent: the ledger's order is the order
 * answers land in. A class rather than closures: one is made on every keyed request.
 */
class AnswerTries {
  constructor(
    private readonly budget: ByteBudget,
    private readonly workspaceUuid: string,
    private readonly claim: TextClaim,
    private readonly value: string,
    private readonly ttlMs: number,
    private readonly index: string,
    private readonly guards: Guard[],
  ) {}

  take(): PartTry {
    const { claim, index } = this;
    const { storageKey } = claim;
    // The ledger names answers by their storage key, the string the store keeps for them anyway.
    const reservation = this.budget.reserve(this.workspaceUuid, storageKey, storageKey.length + this.value.length);
    const kept = !reservation.released.includes(storageKey);
    if (kept) claim.answer = this.value;
    const writes: Write[] = kept
      ? [{ op: 'set', key: storageKey, value: this.value, ttlMs: this.ttlMs }]
      : [{ op: 'delete', key: storageKey, index }];
    for (const released of reservation.released)
      if (released !== storageKey) writes.push({ op: 'delete', key: released, index });
    return new ReservedTry(writes, this.guards, reservation);
  }
}

/** Where a workspace's key is stored. */
const keyOf = (workspaceUuid: string, key: string) => `idem:${workspaceUuid}:${key}`;

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
}): IdempotencyStore {
  const budget = createByteBudget(
    options.bytesPerWorkspace ?? STORE_LIMITS.idempotencyBytesPerWorkspace,
    options.capPerWorkspace,
  );
  // Each workspace's claim index, made once (its key is joined and hashed once, not on every claim).
  const indexFor = perWorkspace((workspaceUuid): ClaimIndex => ({
    // Its own family (`idem-index:<uuid>:`), and a prefix no other workspace's index begins with.
    key: `idem-index:${workspaceUuid}:`,
    cap: options.capPerWorkspace,
  }));
  const indexOf = (workspaceUuid: string) => indexFor(workspaceUuid).key;
  // Identifies the request that claimed a key, so only it can complete or release that claim: this store (a
  // random id, unique among the replicas sharing the port) and a count in it.
  const ownerPrefix = `${toHex(randomBytes(6))}.${Date.now().toString(36)}.`;
  const newOwner = () => ownerPrefix + ++owners;

  const lease = Math.min(options.ttlMs, IN_FLIGHT_LEASE_MS);
  /** SET NX of the claim's text under its key, in the workspace's index: null when taken, else what holds the key. */
  const take = (workspaceUuid: string, storageKey: string, text: string) =>
    options.port.claim(storageKey, text, lease, indexFor(workspaceUuid));

  /**
   * The parts `withAnswer` holds and the answer's writes in one commit guarded by the claim. Should the claim
   * be gone (its lease, the workspace's cap, a reset), the key is taken again and the commit tried once more
   * (after the parts made their own guards hold: a reset workspace is seeded again); should another request
   * hold the key now, nothing is applied and what holds it is resolved.
   */
  const commitJointly = async (
    workspaceUuid: string,
    claim: TextClaim,
    keep: AnswerTries,
    withAnswer: PendingCommit,
  ): Promise<HeldKey | undefined> => {
    for (let attempt = 0; attempt < MAX_JOINT_COMMIT_TRIES; attempt++) {
      if (await withAnswer.commitWith(options.port, keep.take())) return undefined;
      const holder = await take(workspaceUuid, claim.storageKey, claim.text);
      if (holder !== null && holder !== claim.text) {
        withAnswer.drop();
        return lookupOf(holder, claim.entry.fingerprint);
      }
      await withAnswer.ready();
    }
    throw new Error(`${IDEMPOTENCY_KEY_HEADER}: its answer could not be kept in ${MAX_JOINT_COMMIT_TRIES} tries`);
  };

  return {
    /**
     * Claims the key for this request, or tells what holds it. `new` means the caller now owns the key and must
     * `complete` or `abandon` it with the returned claim.
     */
    async claim(workspaceUuid: string, key: string, fingerprint: string): Promise<IdempotencyLookup> {
      const entry: Entry = { fingerprint, expiresAt: options.now() + options.ttlMs, owner: newOwner() };
      const text = JSON.stringify(entry);
      const storageKey = keyOf(workspaceUuid, key);
      const existing = await take(workspaceUuid, storageKey, text);
      if (existing === null) {
        // The key was free: an answer the ledger still weighs under it is gone (past its age). Left there, it
        // would count against the bound, and be released when the bound needs room: this new claim deleted.
        budget.remove(workspaceUuid, storageKey);
        return { kind: 'new', claim: new TextClaim(text, entry, storageKey) };
      }
      return lookupOf(existing, fingerprint);
    },
    /**
     * Keeps the answer: a copy (later changes to the resource must not change what a replay answers), until the
     * key expires. With `withAnswer`, what the request created goes into the store in the same commit as the
     * answer, both or neither: the key's rule (one record per key) holds even when the claim was released
     * meanwhile. Resolves undefined when the request's answer stands, or, when the key is another request's now
     * (its claim released, then claimed by a retry), what holds it: the request applied nothing and answers
     * as a request arriving now would (409 in flight, the replay, 422).
     */
    async complete(
      workspaceUuid: string,
      key: string,
      claim: Claim,
      response: MockResponse,
      withAnswer?: PendingCommit,
    ): Promise<HeldKey | undefined> {
      const own = textClaim(claim);
      const headers = replayedHeaders(response);
      const { entry, storageKey } = own;
      const ttlMs = entry.expiresAt - options.now();
      const guard: Guard[] = [{ key: storageKey, is: 'equals', value: own.text }];
      if (ttlMs <= 0) {
        // The key's age is spent: the answer is not kept, what the request created is.
        await withAnswer?.applyAlone();
        await options.port.commit([{ op: 'delete', key: storageKey, index: indexOf(workspaceUuid) }], guard);
        return undefined;
      }
      // The body's JSON goes in as it is (the text the answer is sent with), not escaped as a string.
      const body = response.body === undefined ? '' : `,"body":${rememberJsonText(response.body)}`;
      const value = `${own.text.slice(0, -1)},"response":{"status":${response.status},"headers":${JSON.stringify(headers)}${body}}}`;
      // Its writes with the byte bound's releases, reserved for each try of the commit (`AnswerTries`).
      const keep = new AnswerTries(budget, workspaceUuid, own, value, ttlMs, indexOf(workspaceUuid), guard);
      if (withAnswer && !withAnswer.empty) return commitJointly(workspaceUuid, own, keep, withAnswer);
      const one = keep.take();
      let done = false;
      try {
        done = await options.port.commit(one.writes, one.guards);
      } finally {
        one.settle?.(done);
      }
      return undefined;
    },
    /**
     * A request that failed leaves no trace, so the client can retry it with the same key: its claim goes, or
     * the answer it tried to keep, should the commit that failed have applied it (its writes are taken back).
     */
    async abandon(workspaceUuid: string, key: string, claim: Claim): Promise<void> {
      const own = textClaim(claim);
      const { storageKey } = own;
      const release = (held: string) =>
        options.port.commit(
          [{ op: 'delete', key: storageKey, index: indexOf(workspaceUuid) }],
          [{ key: storageKey, is: 'equals', value: held }],
        );
      let released = await release(own.text);
      if (!released && own.answer !== undefined) released = await release(own.answer);
      // The key's bytes are forgotten only when this claim held it (another request's answer may be kept there).
      if (released) budget.remove(workspaceUuid, storageKey);
    },
    /** Forgets every key, or one workspace's (the control plane's reset). */
    async clear(workspaceUuid?: string): Promise<void> {
      await options.port.deleteByPrefix(workspaceUuid === undefined ? 'idem:' : `idem:${workspaceUuid}:`);
      await options.port.deleteByPrefix(workspaceUuid === undefined ? 'idem-index:' : `idem-index:${workspaceUuid}:`);
      budget.clear(workspaceUuid);
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

/**
 * Keys per workspace: a key is claimed by one request, which then completes it (its answer kept for replays) or
 * abandons it (free for a retry). Two implementations keep the same rules: `createIdempotencyStore` through any
 * storage port (texts, as Redis keeps them, shared by replicas), and `createInProcessIdempotencyStore`
 * (`./idempotency-in-process.ts`) as objects, for a port in this process.
 */
export type IdempotencyStore = {
  /**
   * Claims the key for this request, or tells what holds it. `new` means the caller now owns the key and must
   * `complete` or `abandon` it with the returned claim.
   */
  claim(workspaceUuid: string, key: string, fingerprint: string): Promise<IdempotencyLookup>;
  /**
   * Keeps the answer, a copy, until the key expires; with `withAnswer`, in one commit with what the request
   * created (both or neither). Resolves undefined when the request's answer stands, or what holds the key when
   * it is another request's now (this request applied nothing of its commit).
   */
  complete(
    workspaceUuid: string,
    key: string,
    claim: Claim,
    response: MockResponse,
    withAnswer?: PendingCommit,
  ): Promise<HeldKey | undefined>;
  /** A request that failed leaves no trace: its claim (or the answer it tried to keep) goes. */
  abandon(workspaceUuid: string, key: string, claim: Claim): Promise<void>;
  /** Forgets every key, or one workspace's (the control plane's reset). */
  clear(workspaceUuid?: string): Promise<void>;
  /** Bytes of answers kept for a workspace by this process. */
  bytes(workspaceUuid: string): number;
  /** Keys currently kept (tests, diagnostics). */
  size(): Promise<number>;
};

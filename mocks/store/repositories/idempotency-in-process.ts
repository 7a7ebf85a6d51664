import { IDEMPOTENCY_KEY_HEADER } from '../../../spec/lib/constants';
import { STORE_LIMITS } from '../../limits';
import { rememberJsonText } from '../../json-text';
import type { MockResponse } from '../../types';
import { createByteBudget } from '../byte-budget';
import { OldestFirst } from '../oldest-first';
import type { PendingCommit } from '../pending-commit';
import type { CommitsNow, StoragePort } from '../port';
import {
  IN_FLIGHT_LEASE_MS,
  MAX_JOINT_COMMIT_TRIES,
  replayedHeaders,
  type Claim,
  type HeldKey,
  type IdempotencyLookup,
  type IdempotencyStore,
} from './idempotency';

/** The answer kept for a key: what a replay answers (its body as the JSON text it was sent with). */
type Kept = { status: number; headers: Record<string, string>; bodyText: string | undefined };

/**
 * What a key holds: the request's fingerprint, until when (its lease while in flight, then the key's age), and
 * once done the answer. A request's claim is this object: it still holds the key while the key's entry is it.
 */
class Held implements Claim {
  answer: Kept | undefined = undefined;
  constructor(
    /** The workspace and the key it holds (the store's own record of them, whatever a caller passes). */
    readonly workspaceUuid: string,
    readonly key: string,
    readonly fingerprint: string,
    /** Until when the key lives: the in-flight lease, then (answer kept) the key's age. */
    public expiresAt: number,
    /** The key's age: its first use plus the store's TTL. */
    readonly keptUntil: number,
  ) {}
}

/** The keys of every workspace on one port, in the order they were claimed (the cap releases the oldest). */
type Keys = Map<string, OldestFirst<Held>>;

/**
 * The keys live with the port, not with a store: every store made on one port (two mock apps sharing a memory
 * port, as replicas share Redis) sees the same keys, as they would through the port's own entries.
 */
const KEYS_OF_PORT = new WeakMap<StoragePort, Keys>();

/** Expired keys are swept at most this often, at most SWEEP_BATCH of them a time (reads never see one). */
const SWEEP_EVERY_MS = 1_000;
const SWEEP_BATCH = 10_000;

/** What a key held by another request says to a request with `fingerprint`. */
function lookupOf(held: Held, fingerprint: string): HeldKey {
  const sameRequest = held.fingerprint === fingerprint;
  const kept = held.answer;
  if (!kept) return { kind: 'in-flight', sameRequest };
  return {
    kind: 'done',
    sameRequest,
    response: {
      status: kept.status,
      headers: { ...kept.headers },
      // A copy of the body as it was kept: a replay never shares objects with the store or another replay.
      body: kept.bodyText === undefined ? undefined : JSON.parse(kept.bodyText),
    },
  };
}

/**
 * The idempotency store for a port in this process (memory, `commitNow`): the same rules as
 * `createIdempotencyStore` (claim, replay, 409 in flight, 422, the key's age, the workspace's count and byte
 * bounds, an answer kept in one commit with what the request created), kept as objects instead of the JSON texts
 * a shared store needs. A key's entry is compared by identity instead of by its text; its answer is kept as the
 * body's JSON text (a replay parses a copy). Nothing is serialised to be stored and parsed back, and no step waits:
 * the claim, the joint commit and the answer happen in the turn that asks for them.
 *
 * Parity: `idempotency-stores.test.ts` runs the same sequences through both stores and compares every answer.
 */
export function createInProcessIdempotencyStore(options: {
  port: StoragePort & CommitsNow;
  ttlMs: number;
  capPerWorkspace: number;
  bytesPerWorkspace?: number;
  now: () => number;
}): IdempotencyStore {
  const { port, now } = options;
  const budget = createByteBudget(
    options.bytesPerWorkspace ?? STORE_LIMITS.idempotencyBytesPerWorkspace,
    options.capPerWorkspace,
  );
  const keys: Keys = KEYS_OF_PORT.get(port) ?? new Map();
  KEYS_OF_PORT.set(port, keys);
  const lease = Math.min(options.ttlMs, IN_FLIGHT_LEASE_MS);
  let sweptAt = Number.NEGATIVE_INFINITY;

  const keysOf = (workspaceUuid: string): OldestFirst<Held> => {
    let found = keys.get(workspaceUuid);
    if (!found) keys.set(workspaceUuid, (found = new OldestFirst()));
    return found;
  };

  /** Forgets a key and its bytes. */
  const drop = (workspaceUuid: string, held: OldestFirst<Held>, key: string) => {
    held.delete(key);
    budget.remove(workspaceUuid, key);
  };

  /** The key's live entry, if any (an expired one is forgotten on the way). */
  const live = (workspaceUuid: string, held: OldestFirst<Held>, key: string, at: number): Held | undefined => {
    const entry = held.get(key);
    if (entry === undefined || entry.expiresAt > at) return entry;
    drop(workspaceUuid, held, key);
    return undefined;
  };

  /**
   * Keys past their age, oldest first, in every workspace (a key's age follows the order keys were claimed): on
   * this store's claims, and whenever the port sweeps its own entries (any write to it), so a workspace nobody
   * sends a key to any more is emptied too.
   */
  const sweep = (at: number) => {
    if (at - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = at;
    let left = SWEEP_BATCH;
    for (const [workspaceUuid, held] of keys) {
      for (let oldest = held.oldest(); oldest && oldest[1].expiresAt <= at && left > 0; oldest = held.oldest()) {
        drop(workspaceUuid, held, oldest[0]);
        left -= 1;
      }
      if (held.size === 0) keys.delete(workspaceUuid);
    }
  };

  port.alsoSweep?.(sweep);

  /** Takes the key for `entry` (it is free): the oldest claims beyond the workspace's cap are released. */
  const take = (workspaceUuid: string, held: OldestFirst<Held>, key: string, entry: Held) => {
    held.set(key, entry);
    for (let oldest = held.oldestKey(); held.size > options.capPerWorkspace && oldest !== undefined;) {
      drop(workspaceUuid, held, oldest);
      oldest = held.oldestKey();
    }
  };

  /**
   * Keeps the answer under the key its request holds: the workspace's oldest answers beyond its byte bound are
   * released (this one too, should it alone exceed it: then the key is free, what the request created stays).
   */
  const keep = (workspaceUuid: string, key: string, entry: Held, kept: Kept, size: number) => {
    entry.answer = kept;
    entry.expiresAt = entry.keptUntil;
    // The port's commit just made may have swept this claim (its lease ending within that very millisecond):
    // what it created stands, so its answer does too.
    const held = keysOf(workspaceUuid);
    if (held.get(key) !== entry) take(workspaceUuid, held, key, entry);
    for (const released of budget.reserve(workspaceUuid, key, size).released) held.delete(released);
  };

  return {
    async claim(workspaceUuid: string, key: string, fingerprint: string): Promise<IdempotencyLookup> {
      const at = now();
      sweep(at);
      const held = keysOf(workspaceUuid);
      const existing = live(workspaceUuid, held, key, at);
      if (existing) return lookupOf(existing, fingerprint);
      const entry = new Held(workspaceUuid, key, fingerprint, at + lease, at + options.ttlMs);
      take(workspaceUuid, held, key, entry);
      return { kind: 'new', claim: entry };
    },

    async complete(
      _workspaceUuid: string,
      _key: string,
      claim: Claim,
      response: MockResponse,
      withAnswer?: PendingCommit,
    ): Promise<HeldKey | undefined> {
      // The key the claim holds, as the store of texts guards on the claim's own storage key.
      const entry = ownClaim(claim);
      const { workspaceUuid, key } = entry;
      const headers = replayedHeaders(response);
      if (entry.keptUntil <= now()) {
        // The key's age is spent: the answer is not kept, what the request created is.
        await withAnswer?.applyAlone();
        const held = keys.get(workspaceUuid);
        if (held?.get(key) === entry) drop(workspaceUuid, held, key);
        return undefined;
      }
      const bodyText = response.body === undefined ? undefined : rememberJsonText(response.body);
      const kept: Kept = { status: response.status, headers, bodyText };
      // What it weighs against the workspace's byte bound: the length of the key and of the text a shared store
      // keeps for the answer (its fingerprint, owner, expiry, status, headers and body: 168 characters beside the
      // fingerprint, headers and body), so a workspace keeps as many answers either way. On the heap an answer of
      // a created MCP server takes about 950 bytes kept as objects, 1 050 as a text (10 000 keys, after a GC).
      const size =
        key.length + entry.fingerprint.length + (bodyText?.length ?? 0) + JSON.stringify(headers).length + 168;
      const joint = withAnswer !== undefined && !withAnswer.empty;
      for (let attempt = 0; attempt < MAX_JOINT_COMMIT_TRIES; attempt++) {
        // The workspace's keys as they are now: a reset while the parts made ready replaced them.
        const held = keysOf(workspaceUuid);
        const at = now();
        const current = live(workspaceUuid, held, key, at);
        if (current === entry) {
          // The claim holds: what the request created and the answer, in this turn (nothing runs in between).
          if (joint && !withAnswer.commitNow(port)) {
            await withAnswer.ready();
            continue;
          }
          keep(workspaceUuid, key, entry, kept, size);
          return undefined;
        }
        // The claim was released meanwhile (its lease, the workspace's cap, a reset). Without a joint commit the
        // answer stands, unkept (as a shared store's guarded write leaves it): nothing was created with it.
        if (!joint) return undefined;
        if (current !== undefined) {
          // Another request holds the key now: nothing of this one is applied.
          withAnswer?.drop();
          return lookupOf(current, entry.fingerprint);
        }
        entry.expiresAt = at + lease;
        take(workspaceUuid, held, key, entry);
        await withAnswer.ready();
      }
      throw new Error(`${IDEMPOTENCY_KEY_HEADER}: its answer could not be kept in ${MAX_JOINT_COMMIT_TRIES} tries`);
    },

    async abandon(_workspaceUuid: string, _key: string, claim: Claim): Promise<void> {
      const entry = ownClaim(claim);
      const held = keys.get(entry.workspaceUuid);
      if (held?.get(entry.key) === entry) drop(entry.workspaceUuid, held, entry.key);
    },

    async clear(workspaceUuid?: string): Promise<void> {
      if (workspaceUuid === undefined) keys.clear();
      else keys.delete(workspaceUuid);
      budget.clear(workspaceUuid);
    },

    bytes(workspaceUuid: string): number {
      return budget.bytes(workspaceUuid);
    },

    async size(): Promise<number> {
      const at = now();
      let count = 0;
      for (const held of keys.values()) for (const [, entry] of held) if (entry.expiresAt > at) count += 1;
      return count;
    },
  };
}

/** The claim as this store made it (a claim of another store is a programming error, never a request's). */
function ownClaim(claim: Claim): Held {
  if (!(claim instanceof Held)) throw new Error('an idempotency claim made by another store');
  return claim;
}

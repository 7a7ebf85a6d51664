import fc from 'fast-check';
import { createMemoryPort } from '../adapters/memory';
import { PendingCommit } from '../pending-commit';
import type { StoragePort } from '../port';
import { IDEMPOTENCY_STORES, makeIdempotencyStore } from '../../testing/idempotency-stores';
import { IN_FLIGHT_LEASE_MS, type Claim, type IdempotencyStore } from './idempotency';

const HOUR = 60 * 60_000;
const TTL = 2 * HOUR;

type Op =
  | { kind: 'claim'; workspace: string; key: string; fingerprint: string }
  | { kind: 'complete'; claim: number; status: number; joint: boolean }
  | { kind: 'abandon'; claim: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'clear'; workspace: string | undefined };

const workspace = fc.constantFrom('w1', 'w2');
/** Sequences of steps, the clock moving by one of `moves` (ms) at a time. */
const opsMoving = (moves: number[]) =>
  fc.array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('claim' as const),
          workspace,
          key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
          fingerprint: fc.constantFrom('f1', 'f2'),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('complete' as const),
          claim: fc.nat(9),
          status: fc.constantFrom(200, 201, 204),
          joint: fc.boolean(),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('abandon' as const), claim: fc.nat(9) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(...moves) }) },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('clear' as const), workspace: fc.constantFrom('w1', undefined) }),
      },
    ),
    { maxLength: 60 },
  );

/** One store under test, with its own port and the claims its requests hold (by the order they were made). */
type Side = { store: IdempotencyStore; port: StoragePort; claims: { workspace: string; key: string; claim: Claim }[] };

/** A part of a joint commit: what the request created, written to the port with the answer. */
const created = (port: StoragePort, name: string) => ({
  take: () => ({ writes: [{ op: 'set' as const, key: `created:${name}`, value: name }], guards: [] }),
  alone: () => port.commit([{ op: 'set', key: `created:${name}`, value: name }]),
  ready: async () => undefined,
});

/** Applies one step to a side; what it answers, in a form both stores give alike. */
async function step(side: Side, op: Op, n: number): Promise<unknown> {
  switch (op.kind) {
    case 'claim': {
      const found = await side.store.claim(op.workspace, op.key, op.fingerprint);
      if (found.kind !== 'new') return found;
      side.claims.push({ workspace: op.workspace, key: op.key, claim: found.claim });
      return { kind: 'new' };
    }
    case 'complete':
    case 'abandon': {
      const held = side.claims[op.claim];
      if (!held) return 'no claim';
      side.claims.splice(op.claim, 1);
      if (op.kind === 'abandon') return side.store.abandon(held.workspace, held.key, held.claim);
      const withAnswer = new PendingCommit();
      if (op.joint) withAnswer.add(created(side.port, String(n)));
      const response = {
        status: op.status,
        headers: { 'content-type': 'application/json', 'ratelimit-remaining': '9' },
        body: op.status === 204 ? undefined : { n },
      };
      return side.store.complete(held.workspace, held.key, held.claim, response, withAnswer);
    }
    case 'clear':
      return side.store.clear(op.workspace);
    case 'advance':
      return undefined;
  }
}

/**
 * Parity: the store kept as objects (a port in this process) and the store kept as texts (any port, Redis's
 * form) answer every sequence of claims, answers kept (alone or with what the request created), abandoned
 * claims, resets and clock moves alike: the same lookups (in flight, replay, 422's fingerprint), the same keys
 * kept (the workspace's cap, the in-flight lease, the key's age), the same creates applied.
 */
describe('the idempotency stores, kept as texts and as objects', () => {
  /**
   * Two settings, so each bound is compared where both stores state it alike: the workspace's cap of 3 keys with
   * the clock moving less than the lease in a whole sequence (at most 60 s), and the lease and the key's age with
   * a cap never reached (5 keys, 2 workspaces). Where they meet (a claim past its lease among live ones) the
   * store of texts on the memory port counts it towards the cap until the port's sweep comes by (every 5 s at
   * most), and this store until it reaches the front: a key is released a little early either way.
   */
  it.each([
    ['the cap', 3, [1, 1_000]],
    ['the lease and the age', 1_000, [1, IN_FLIGHT_LEASE_MS, HOUR, TTL - 1, TTL]],
  ])('should answer every sequence alike (%s)', async (_, capPerWorkspace, moves) => {
    await fc.assert(
      fc.asyncProperty(opsMoving(moves), async (sequence) => {
        let now = 1_000;
        const clock = () => now;
        const make = (asObjects: boolean): Side => {
          const port = createMemoryPort({ now: clock });
          const options = { ttlMs: TTL, capPerWorkspace, now: clock };
          return { store: makeIdempotencyStore(asObjects, { ...options, port }), port, claims: [] };
        };
        const texts = make(false);
        const objects = make(true);
        for (const [n, op] of sequence.entries()) {
          if (op.kind === 'advance') now += op.ms;
          const [a, b] = [await step(texts, op, n), await step(objects, op, n)];
          expect({ n, op, answer: b }).toEqual({ n, op, answer: a });
          expect(await objects.store.size()).toBe(await texts.store.size());
        }
        const createdBy = async (side: Side) =>
          (await side.port.read(sequence.map((_, n) => ({ op: 'get' as const, key: `created:${n}` })))).map(String);
        expect(await createdBy(objects)).toEqual(await createdBy(texts));
      }),
      { numRuns: 300 },
    );
  });

  it.each(IDEMPOTENCY_STORES)(
    "should release a workspace's oldest answers beyond its byte bound, and keep its newest (kept %s)",
    async (_, asObjects) => {
      const store = makeIdempotencyStore(asObjects, {
        port: createMemoryPort({ now: () => 0 }),
        ttlMs: TTL,
        capPerWorkspace: 1_000,
        bytesPerWorkspace: 2_000,
        now: () => 0,
      });
      const body = { text: 'x'.repeat(500) };
      for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) {
        const found = await store.claim('w1', key, 'f');
        if (found.kind !== 'new') throw new Error('expected a new key');
        await store.complete('w1', key, found.claim, { status: 201, headers: {}, body });
      }
      expect(store.bytes('w1')).toBeLessThanOrEqual(2_000);
      expect((await store.claim('w1', 'k5', 'f')).kind).toBe('done');
      expect((await store.claim('w1', 'k1', 'f')).kind).toBe('new');
    },
  );

  it("should forget the answers of a workspace nobody calls once they are past their age (the store's bound by age)", async () => {
    let now = 0;
    const port = createMemoryPort({ now: () => now });
    // Kept as objects: the store of texts leaves an answer's bytes in its ledger until the key is claimed again.
    const store = makeIdempotencyStore(true, { port, ttlMs: TTL, capPerWorkspace: 1_000, now: () => now });
    for (const key of ['k1', 'k2', 'k3']) {
      const found = await store.claim('idle', key, 'f');
      if (found.kind !== 'new') throw new Error('expected a new key');
      await store.complete('idle', key, found.claim, { status: 201, headers: {}, body: { key } });
    }
    expect(store.bytes('idle')).toBeGreaterThan(0);
    now += TTL + 1_000;
    // Another workspace's request: the sweep goes over every workspace, the idle one too.
    const busy = await store.claim('busy', 'k', 'f');
    expect(store.bytes('idle')).toBe(0);
    expect(await store.size()).toBe(1);
    if (busy.kind !== 'new') throw new Error('expected a new key');
    await store.complete('busy', 'k', busy.claim, { status: 201, headers: {}, body: { key: 'k' } });
    expect(store.bytes('busy')).toBeGreaterThan(0);
    // No key sent at all: the port's own sweep (a rate-limit count, a write) sweeps these keys too.
    now += TTL + 1_000;
    await port.hit('rl:somebody:1', 10, 60_000);
    expect(store.bytes('busy')).toBe(0);
  });

  it.each(IDEMPOTENCY_STORES)(
    'should keep the answer %s when the workspace is reset while its claim, lost to the lease, is taken again',
    async (_, asObjects) => {
      let now = 0;
      const port = createMemoryPort({ now: () => now });
      const options = { ttlMs: TTL, capPerWorkspace: 10, now: () => now };
      const store = makeIdempotencyStore(asObjects, { ...options, port });
      const found = await store.claim('w1', 'k', 'f');
      if (found.kind !== 'new') throw new Error('expected a new key');
      now += IN_FLIGHT_LEASE_MS + 1;
      let resets = 0;
      const withAnswer = new PendingCommit();
      withAnswer.add({
        ...created(port, 'server'),
        // The parts are made ready after the claim is taken again; a reset comes in meanwhile, once.
        ready: async () => {
          if (resets++ === 0) await store.clear('w1');
        },
      });
      const body = { mcpServer: { name: 'a' } };
      expect(await store.complete('w1', 'k', found.claim, { status: 201, headers: {}, body }, withAnswer)).toBe(
        undefined,
      );
      expect(await store.claim('w1', 'k', 'f')).toMatchObject({ kind: 'done', response: { status: 201, body } });
    },
  );

  it.each(IDEMPOTENCY_STORES)(
    'should never release a running claim for the bytes of the answer its key held before (kept %s)',
    async (_, asObjects) => {
      let now = 0;
      const port = createMemoryPort({ now: () => now });
      const options = { ttlMs: TTL, capPerWorkspace: 100, bytesPerWorkspace: 2_500, now: () => now };
      const store = makeIdempotencyStore(asObjects, { ...options, port });
      const answer = { status: 201, headers: {}, body: { text: 'x'.repeat(900) } };
      const keep = async (key: string) => {
        const found = await store.claim('w1', key, 'f');
        if (found.kind !== 'new') throw new Error('expected a new key');
        await store.complete('w1', key, found.claim, answer);
      };
      await keep('a');
      now += TTL;
      // `a` again, past its age: a new request, still running while two answers fill the bound.
      expect((await store.claim('w1', 'a', 'f')).kind).toBe('new');
      await keep('b');
      await keep('c');
      expect(await store.claim('w1', 'a', 'f')).toEqual({ kind: 'in-flight', sameRequest: true });
    },
  );

  it('should refuse a claim another store made', async () => {
    const port = createMemoryPort();
    const options = { ttlMs: TTL, capPerWorkspace: 3, now: () => 0 };
    const texts = makeIdempotencyStore(false, { ...options, port });
    const objects = makeIdempotencyStore(true, { ...options, port });
    const byTexts = await texts.claim('w1', 'k', 'f');
    const byObjects = await objects.claim('w1', 'j', 'f');
    if (byTexts.kind !== 'new' || byObjects.kind !== 'new') throw new Error('expected new keys');
    await expect(objects.abandon('w1', 'k', byTexts.claim)).rejects.toThrow('another store');
    await expect(texts.abandon('w1', 'j', byObjects.claim)).rejects.toThrow('another store');
  });
});

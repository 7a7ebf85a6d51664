import { createMemoryPort } from './adapters/memory';
import { createStore, type StoreLimits } from '.';
import { PendingCommit, type PendingPart } from './pending-commit';
import type { Guard } from './port';
import { MAX_JOINT_COMMIT_TRIES, createIdempotencyStore } from './repositories/idempotency';
import { createFailingPort } from '../testing/failing-port';

const WORKSPACE = 'w1';
const WS = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const ANSWER = { status: 201, headers: { 'content-type': 'application/json' }, body: { ok: true } };

function setUp() {
  const failing = createFailingPort(createMemoryPort({ now: () => 1_000 }));
  const idempotency = createIdempotencyStore({
    port: failing.port,
    ttlMs: 60_000,
    capPerWorkspace: 2,
    now: () => 1_000,
  });
  const settled: boolean[] = [];
  const alone: string[] = [];
  const readied: string[] = [];
  /** A part that writes `created:<name>` (guarded by `guards`), on its own through a commit of its own. */
  const part = (name: string, guards: Guard[] = []): PendingPart => ({
    take: () => ({
      writes: [{ op: 'set' as const, key: `created:${name}`, value: name }],
      guards,
      settle: (applied: boolean) => void settled.push(applied),
    }),
    alone: async () => {
      alone.push(name);
      return failing.port.commit([{ op: 'set', key: `created:${name}`, value: name }]);
    },
    ready: async () => void readied.push(name),
  });
  const claimNew = async (key: string) => {
    const found = await idempotency.claim(WORKSPACE, key, 'f');
    if (found.kind !== 'new') throw new Error('expected a new key');
    return found.claim;
  };
  const read = (key: string) => failing.port.read([{ op: 'get', key }]).then(([value]) => value);
  return { failing, idempotency, settled, alone, readied, part, claimNew, read };
}

describe('a create committed with its idempotent answer', () => {
  it('should keep the answer and what the request created in one commit', async () => {
    const { failing, idempotency, settled, part, claimNew, read } = setUp();
    const claim = await claimNew('k');
    const withAnswer = new PendingCommit();
    withAnswer.add(part('server'));
    const commitsBefore = failing.calls.filter((call) => call.method === 'commit').length;
    await idempotency.complete(WORKSPACE, 'k', claim, ANSWER, withAnswer);
    expect(failing.calls.filter((call) => call.method === 'commit').length - commitsBefore).toBe(1);
    expect(await read('created:server')).toBe('server');
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toMatchObject({ kind: 'done', response: { status: 201 } });
    expect(settled).toEqual([true]);
  });

  it('should apply neither when that commit fails, and settle the part as not applied', async () => {
    const { failing, idempotency, settled, part, claimNew, read } = setUp();
    const claim = await claimNew('k');
    const withAnswer = new PendingCommit();
    withAnswer.add(part('server'));
    failing.failNext((call) => call.method === 'commit');
    await expect(idempotency.complete(WORKSPACE, 'k', claim, ANSWER, withAnswer)).rejects.toThrow('injected');
    withAnswer.drop(); // what the failed request's release does
    expect(await read('created:server')).toBeNull();
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toMatchObject({ kind: 'in-flight' });
    expect(settled).toEqual([false]);
  });

  it('should take the key again and keep both in one commit when the claim was released meanwhile', async () => {
    const { idempotency, settled, alone, readied, part, claimNew, read } = setUp();
    const claim = await claimNew('k');
    // The workspace's cap (2) releases the oldest claim, this one, while the request runs; nobody takes the key.
    await claimNew('k2');
    await claimNew('k3');
    const withAnswer = new PendingCommit();
    withAnswer.add(part('server'));
    expect(await idempotency.complete(WORKSPACE, 'k', claim, ANSWER, withAnswer)).toBeUndefined();
    expect(alone).toEqual([]);
    expect(readied).toEqual(['server']);
    expect(await read('created:server')).toBe('server');
    expect(settled).toEqual([false, true]); // the try that did not apply, then the one that did
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toMatchObject({ kind: 'done', response: { status: 201 } });
  });

  it('should apply nothing and tell what holds the key when another request took it meanwhile', async () => {
    const { idempotency, settled, alone, part, claimNew, read } = setUp();
    const claim = await claimNew('k');
    await claimNew('k2');
    await claimNew('k3');
    const retry = await claimNew('k'); // the same request again, with the key free
    const withAnswer = new PendingCommit();
    withAnswer.add(part('server'));
    expect(await idempotency.complete(WORKSPACE, 'k', claim, ANSWER, withAnswer)).toEqual({
      kind: 'in-flight',
      sameRequest: true,
    });
    expect(alone).toEqual([]);
    expect(await read('created:server')).toBeNull();
    expect(settled).toEqual([false]);
    // The retry keeps its answer; the key is its own.
    expect(await idempotency.complete(WORKSPACE, 'k', retry, ANSWER)).toBeUndefined();
    expect(await idempotency.claim(WORKSPACE, 'k', 'other')).toMatchObject({ kind: 'done', sameRequest: false });
  });

  it('should give up, applying nothing, when the key keeps being released before the commit lands', async () => {
    const { failing, idempotency, settled, part, claimNew, read } = setUp();
    const claim = await claimNew('k');
    const withAnswer = new PendingCommit();
    withAnswer.add(part('server', [{ key: 'never', is: 'present' }]));
    await expect(idempotency.complete(WORKSPACE, 'k', claim, ANSWER, withAnswer)).rejects.toThrow(
      `in ${MAX_JOINT_COMMIT_TRIES} tries`,
    );
    expect(failing.calls.filter((call) => call.method === 'commit')).toHaveLength(MAX_JOINT_COMMIT_TRIES);
    withAnswer.drop(); // what the failed request's release does
    expect(await read('created:server')).toBeNull();
    expect(settled).toEqual(Array(MAX_JOINT_COMMIT_TRIES).fill(false));
  });

  it('should apply nothing when dropped, and reserve nothing until a commit is tried', () => {
    const { settled, part } = setUp();
    const withAnswer = new PendingCommit();
    withAnswer.add(part('a'));
    withAnswer.add(part('b'));
    withAnswer.drop();
    withAnswer.drop();
    expect(settled).toEqual([]);
    expect(withAnswer.empty).toBe(true);
  });
});

describe('keyed creates committed in another order than they were made', () => {
  /** Requests a, b and c make their servers while none has committed; their commits land c, b, then a. */
  async function madeThenCommittedBackwards(limits: Partial<StoreLimits>) {
    const port = createMemoryPort({ now: () => 1_000 });
    const store = createStore({ port, seed: 1, now: () => 1_000, limits });
    const idempotency = createIdempotencyStore({ port, ttlMs: 60_000, capPerWorkspace: 100, now: () => 1_000 });
    const seeded = new Set((await store.list(WS, 'mcpServers')).map((server) => server.uuid));
    const pending = [];
    for (const name of ['a', 'b', 'c']) {
      const found = await idempotency.claim(WS, name, 'f');
      if (found.kind !== 'new') throw new Error('expected a new key');
      const withAnswer = new PendingCommit();
      store.joinMcpServer(WS, { uuid: name, name, description: 'x'.repeat(1_900) }, withAnswer);
      pending.push({ name, claim: found.claim, withAnswer });
    }
    for (const { name, claim, withAnswer } of pending.reverse()) {
      const answer = { ...ANSWER, body: { mcpServer: { uuid: name } } };
      expect(await idempotency.complete(WS, name, claim, answer, withAnswer)).toBeUndefined();
    }
    const created = (await store.list(WS, 'mcpServers')).filter((kept) => !seeded.has(kept.uuid));
    return { store, idempotency, created };
  }

  it('should keep the byte bound of created servers whatever order their joint commits land in', async () => {
    const budget = 5_000;
    const { created } = await madeThenCommittedBackwards({ mcpServerBytesPerWorkspace: budget });
    const bytes = created.reduce((sum, kept) => sum + JSON.stringify(kept).length, 0);
    expect(bytes).toBeLessThanOrEqual(budget);
    // The last committed is kept; the bound released the oldest committed first.
    expect(created.map((kept) => kept.uuid).sort()).toEqual(['a', 'b']);
  });

  it('should keep the count bound, list what it keeps, and replay the answer of a server it let go', async () => {
    const { store, idempotency, created } = await madeThenCommittedBackwards({ mcpServersPerWorkspace: 2 });
    expect(created.map((kept) => kept.uuid).sort()).toEqual(['a', 'b']);
    const listed = (await store.listCreated([WS])).filter((entry) => entry.kind === 'mcpServer');
    expect(listed.map((entry) => entry.uuid)).toEqual(['b', 'a']);
    expect(await idempotency.claim(WS, 'c', 'f')).toMatchObject({
      kind: 'done',
      response: { status: 201, body: { mcpServer: { uuid: 'c' } } },
    });
  });
});

import { createMemoryPort } from './adapters/memory';
import { PendingCommit } from './pending-commit';
import { createIdempotencyStore } from './repositories/idempotency';
import { createFailingPort } from '../testing/failing-port';

const WORKSPACE = 'w1';
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
  /** A part that writes `created:<name>`, on its own through a commit of its own. */
  const part = (name: string) => ({
    writes: [{ op: 'set' as const, key: `created:${name}`, value: name }],
    guards: [],
    alone: async () => {
      alone.push(name);
      return failing.port.commit([{ op: 'set', key: `created:${name}`, value: name }]);
    },
    settle: (applied: boolean) => settled.push(applied),
  });
  const claimNew = async (key: string) => {
    const found = await idempotency.claim(WORKSPACE, key, 'f');
    if (found.kind !== 'new') throw new Error('expected a new key');
    return found.claim;
  };
  const read = (key: string) => failing.port.read([{ op: 'get', key }]).then(([value]) => value);
  return { failing, idempotency, settled, alone, part, claimNew, read };
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

  it('should still write what was created, on its own, when the claim was released meanwhile (no answer kept)', async () => {
    const { idempotency, settled, alone, part, claimNew, read } = setUp();
    const claim = await claimNew('k');
    // The workspace's cap (2) releases the oldest claim, this one, while the request runs.
    await claimNew('k2');
    await claimNew('k3');
    const withAnswer = new PendingCommit();
    withAnswer.add(part('server'));
    await idempotency.complete(WORKSPACE, 'k', claim, ANSWER, withAnswer);
    expect(alone).toEqual(['server']);
    expect(await read('created:server')).toBe('server');
    expect(settled).toEqual([true]);
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toMatchObject({ kind: 'new' });
  });

  it('should apply nothing and settle every part as not applied when dropped', () => {
    const { settled, part } = setUp();
    const withAnswer = new PendingCommit();
    withAnswer.add(part('a'));
    withAnswer.add(part('b'));
    withAnswer.drop();
    withAnswer.drop();
    expect(settled).toEqual([false, false]);
    expect(withAnswer.empty).toBe(true);
  });
});

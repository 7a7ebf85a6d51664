import { createMemoryPort } from '../adapters/memory';
import { createIdempotencyStore } from './idempotency';

const WORKSPACE = 'w1';

function store() {
  const port = createMemoryPort({ now: () => 1_000 });
  return { port, idempotency: createIdempotencyStore({ port, ttlMs: 60_000, capPerWorkspace: 10, now: () => 1_000 }) };
}

describe('idempotency store', () => {
  it('should replay the answer kept, its body as it was when kept', async () => {
    const { idempotency } = store();
    const first = await idempotency.claim(WORKSPACE, 'k', 'f');
    if (first.kind !== 'new') throw new Error('expected a new key');
    const body = { mcpServer: { name: 'a "quoted" name\n' } };
    await idempotency.complete(WORKSPACE, 'k', first.claim, {
      status: 201,
      headers: { 'content-type': 'application/json', 'ratelimit-remaining': '5', location: '/x' },
      body,
    });
    body.mcpServer.name = 'changed';
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toEqual({
      kind: 'done',
      sameRequest: true,
      response: {
        status: 201,
        headers: { 'content-type': 'application/json', location: '/x' },
        body: { mcpServer: { name: 'a "quoted" name\n' } },
      },
    });
  });

  it('should replay an answer kept in the earlier form (its body as a JSON string)', async () => {
    const { port, idempotency } = store();
    const entry = {
      fingerprint: 'f',
      expiresAt: 61_000,
      owner: 'o',
      response: { status: 200, headers: {}, bodyText: '{"ok":true}' },
    };
    await port.commit([{ op: 'set', key: `idem:${WORKSPACE}:k`, value: JSON.stringify(entry), ttlMs: 60_000 }]);
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toMatchObject({
      kind: 'done',
      response: { body: { ok: true } },
    });
  });

  it('should replay an answer without a body as none', async () => {
    const { idempotency } = store();
    const first = await idempotency.claim(WORKSPACE, 'k', 'f');
    if (first.kind !== 'new') throw new Error('expected a new key');
    await idempotency.complete(WORKSPACE, 'k', first.claim, { status: 204, headers: {}, body: undefined });
    expect(await idempotency.claim(WORKSPACE, 'k', 'f')).toMatchObject({ kind: 'done', response: { status: 204 } });
    const again = await idempotency.claim(WORKSPACE, 'k', 'f');
    expect(again.kind === 'done' && again.response.body).toBeUndefined();
  });
});

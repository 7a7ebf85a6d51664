import fc from 'fast-check';
import { makeCtx } from '../../testing/ctx';
import type { MockResponse } from '../../types';
import { idempotency } from '.';
import { createMemoryPort } from '../../store/adapters/memory';
import { IDEMPOTENCY_STORES, makeIdempotencyStore } from '../../testing/idempotency-stores';

const DAY = 24 * 60 * 60 * 1000;

type Op = { kind: 'send'; key: string; body: number } | { kind: 'advance'; ms: number };

const ops = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('send' as const),
      key: fc.constantFrom('a', 'b', 'c'),
      body: fc.integer({ min: 0, max: 2 }),
    }),
    fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1, 60_000, DAY / 2, DAY - 1, DAY) }),
  ),
  { maxLength: 40 },
);

/**
 * Model-based: any sequence of requests and clock moves behaves like a plain map of keys to first answers that
 * forgets a key 24 h after it was first used (x-rules idempotency-replay, -key-reuse-422, -key-expiry).
 */
describe.each(IDEMPOTENCY_STORES)('idempotency model, kept %s', (_, asObjects) => {
  it('should answer every sequence as the model does', async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (sequence: Op[]) => {
        let now = 0;
        const stage = idempotency({
          store: makeIdempotencyStore(asObjects, {
            port: createMemoryPort({ now: () => now }),
            ttlMs: DAY,
            capPerWorkspace: 1000,
            now: () => now,
          }),
          keyLength: { min: 1, max: 255 },
        });
        let created = 0;
        const handler = async (): Promise<MockResponse> => ({ status: 201, headers: {}, body: { n: ++created } });
        const model = new Map<string, { body: number; at: number; n: number }>();
        for (const op of sequence) {
          if (op.kind === 'advance') {
            now += op.ms;
            continue;
          }
          const ctx = makeCtx({ method: 'POST', path: '/things', headers: { 'idempotency-key': op.key } });
          ctx.req = { ...ctx.req, body: { value: op.body } };
          ctx.caller = { workspaceUuid: 'ws', via: 'token' };
          const got = await Promise.resolve(stage(ctx, handler)).catch((error) => ({
            status: error.status as number,
            headers: {},
            body: undefined,
          }));
          const known = model.get(op.key);
          if (known && now - known.at < DAY) {
            if (known.body === op.body) expect(got).toEqual({ status: 201, headers: {}, body: { n: known.n } });
            else expect(got.status).toBe(422);
          } else {
            expect(got).toEqual({ status: 201, headers: {}, body: { n: created } });
            model.set(op.key, { body: op.body, at: now, n: created });
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

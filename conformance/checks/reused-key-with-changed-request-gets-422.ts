/**
 * x-rules: idempotency-key-reuse-422 — Reusing an Idempotency-Key with a different request returns 422 in the
 * error shape (and the original request still replays). Model-based (fast-check commands).
 * Proved by fixtures/broken/reused-key-accepted.ts.
 */
import { IDEMPOTENCY_OPERATION, runIdempotencyModel } from '../lib/idempotency-model';
import type { Check } from './registry';

export const reusedKeyWithChangedRequestGets422: Check = {
  id: 'reused-key-with-changed-request-gets-422',
  ruleId: 'idempotency-key-reuse-422',
  title: 'Reusing an Idempotency-Key with a changed request gets 422.',
  fixture: 'reused-key-accepted',
  covers: ['idempotency-key-reuse-422: createMcpServer', 'response-conformance: createMcpServer 422'],
  needs: [IDEMPOTENCY_OPERATION],
  async run(ctx) {
    await runIdempotencyModel(ctx, 'reuse', ['create', 'reuseChanged', 'replay'], 'reuseChanged');
  },
};

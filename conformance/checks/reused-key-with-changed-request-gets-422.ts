/**
 * x-rules: idempotency-key-reuse-422 — Reusing an Idempotency-Key with a different request returns 422 in the
 * error shape (and the original request still replays). Model-based (fast-check commands).
 * Proved by fixtures/broken/reused-key-accepted.ts.
 */
import { IDEMPOTENCY_OPERATION, runIdempotencyModel } from '../lib/idempotency-model';
import { declaresIdempotencyKey } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck } from './registry';

export const reusedKeyWithChangedRequestGets422 = defineCheck({
  id: 'reused-key-with-changed-request-gets-422',
  ruleId: 'idempotency-key-reuse-422',
  title: 'Reusing an Idempotency-Key with a changed request gets 422.',
  fixture: 'reused-key-accepted',
  covers: ['idempotency-key-reuse-422: createMcpServer', 'response-conformance: createMcpServer 422'],
  needs: [IDEMPOTENCY_OPERATION],
  inputs: {
    operations: declaresIdempotencyKey,
    reads: { parts: ['operation', 'request-body'], responses: ['422'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    await runIdempotencyModel(ctx, 'reuse', ['create', 'reuseChanged', 'replay'], 'reuseChanged');
  },
});

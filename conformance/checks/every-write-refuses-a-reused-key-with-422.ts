/**
 * x-rules: idempotency-key-reuse-422 — On every write the contract declares (each POST, PUT and PATCH, beyond the
 * model-based check's createMcpServer), reusing an Idempotency-Key with a different request (another body, or
 * another run to cancel) answers 422. Proved by fixtures/broken/reused-key-accepted-on-runs.ts.
 */
import { describe } from '../lib/exchange';
import { conformanceName } from '../lib/operations';
import { sendWithKey, writeTargets } from '../lib/writes';
import { declaresIdempotencyKey } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck } from './registry';

export const everyWriteRefusesAReusedKeyWith422 = defineCheck({
  id: 'every-write-refuses-a-reused-key-with-422',
  ruleId: 'idempotency-key-reuse-422',
  title: 'On every write, an Idempotency-Key reused with a different request gets 422.',
  fixture: 'reused-key-accepted-on-runs',
  covers: ['idempotency-key-reuse-422: *', 'response-conformance: * 422'],
  inputs: {
    operations: declaresIdempotencyKey,
    reads: { parts: ['operation', 'request-body'], responses: ['422'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    const { targets, skipped } = await writeTargets(ctx);
    for (const target of targets) {
      const key = conformanceName(40);
      const first = await sendWithKey(ctx, target, key);
      const status = first.response?.status ?? 0;
      if (status < 200 || status >= 300) {
        ctx.note(`${target.op.operationId}: the first request was not accepted (${describe(first)}); reuse not tried`);
        continue;
      }
      const reused = await sendWithKey(ctx, target, key, target.other);
      if (reused.response?.status !== 422)
        ctx.report({
          title: `${target.op.operationId} accepted an Idempotency-Key reused with a different request`,
          expected: '422',
          received: describe(reused),
          sequence: [first],
          exchange: reused,
        });
    }
    if (skipped.length > 0) ctx.note(`not tried: ${skipped.join(', ')}`);
  },
});

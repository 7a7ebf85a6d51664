/**
 * x-rules: idempotency-replay — On every write the contract declares (each POST, PUT and PATCH, beyond the
 * model-based check's createMcpServer), a retry with the same Idempotency-Key and the same request answers the
 * original response: the same status and body (the same run, batch, export or rows), no second record.
 * Proved by fixtures/broken/replay-creates-new-run.ts.
 */
import { deepEqual, describe } from '../lib/exchange';
import { conformanceName } from '../lib/operations';
import { sendWithKey, writeTargets } from '../lib/writes';
import { declaresIdempotencyKey } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck } from './registry';

export const everyWriteReplaysItsOriginalResponse = defineCheck({
  id: 'every-write-replays-its-original-response',
  ruleId: 'idempotency-replay',
  title: 'On every write, a retry with the same Idempotency-Key and request answers the original response.',
  fixture: 'replay-creates-new-run',
  covers: ['idempotency-replay: *'],
  inputs: {
    operations: declaresIdempotencyKey,
    reads: { parts: ['operation', 'request-body'], responses: ['2XX'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    const { targets, skipped } = await writeTargets(ctx);
    for (const target of targets) {
      const key = conformanceName(40);
      const first = await sendWithKey(ctx, target, key);
      const original = first.response;
      const status = original?.status ?? 0;
      if (!original || status < 200 || status >= 300) {
        ctx.note(`${target.op.operationId}: the first request was not accepted (${describe(first)}); replay not tried`);
        continue;
      }
      const again = await sendWithKey(ctx, target, key);
      if (again.response?.status !== status || !deepEqual(again.response.body, original.body))
        ctx.report({
          title: `A retry of ${target.op.operationId} with the same Idempotency-Key did not answer the original response`,
          expected: `${status} ${JSON.stringify(original.body).slice(0, 200)}`,
          received: describe(again),
          sequence: [first],
          exchange: again,
        });
    }
    if (skipped.length > 0) ctx.note(`not tried: ${skipped.join(', ')}`);
  },
});

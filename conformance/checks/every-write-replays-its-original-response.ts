/**
 * x-rules: idempotency-replay — On every write the contract declares (each POST, PUT and PATCH, beyond the
 * model-based check's createMcpServer), a retry with the same Idempotency-Key and the same request answers the
 * original response: the same status and body (the same run, batch, export or rows), no second record.
 * Proved by fixtures/broken/replay-creates-new-run.ts.
 */
import { deepEqual, describe } from '../lib/exchange';
import { conformanceName } from '../lib/operations';
import { sendWithKey, writeTargets } from '../lib/writes';
import type { Check } from './registry';

export const everyWriteReplaysItsOriginalResponse: Check = {
  id: 'every-write-replays-its-original-response',
  ruleId: 'idempotency-replay',
  title: 'On every write, a retry with the same Idempotency-Key and request answers the original response.',
  fixture: 'replay-creates-new-run',
  covers: ['idempotency-replay: *'],
  async run(ctx) {
    const { targets, skipped } = await writeTargets(ctx);
    for (const target of targets) {
      const key = conformanceName(40);
      const first = await sendWithKey(ctx, target, key);
      const status = first.response?.status ?? 0;
      if (status < 200 || status >= 300) {
        ctx.note(`${target.op.operationId}: the first request was not accepted (${describe(first)}); replay not tried`);
        continue;
      }
      const again = await sendWithKey(ctx, target, key);
      if (again.response?.status !== status || !deepEqual(again.response.body, first.response!.body))
        ctx.report({
          title: `A retry of ${target.op.operationId} with the same Idempotency-Key did not answer the original response`,
          expected: `${status} ${JSON.stringify(first.response!.body).slice(0, 200)}`,
          received: describe(again),
          sequence: [first],
          exchange: again,
        });
    }
    if (skipped.length > 0) ctx.note(`not tried: ${skipped.join(', ')}`);
  },
};

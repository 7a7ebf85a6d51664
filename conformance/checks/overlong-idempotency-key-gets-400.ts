/**
 * x-rules: idempotency-key-length — "An Idempotency-Key is a string of at most 255 characters.": a key of the
 * bound is accepted, anything longer gets 400 in the error shape. Proved by fixtures/broken/overlong-key-accepted.ts.
 */
import fc from 'fast-check';
import { CheckFailure, CheckSkipped } from '../lib/failure';
import { describe, errorShapeProblems } from '../lib/exchange';
import { IDEMPOTENCY_OPERATION, bodyFor, isSuccess, newReal, post } from '../lib/idempotency-model';
import { sendWithKey, writeTargets } from '../lib/writes';
import { declaresIdempotencyKey } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck } from './registry';

const keyChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'.split(''));

export const overlongIdempotencyKeyGets400 = defineCheck({
  id: 'overlong-idempotency-key-gets-400',
  ruleId: 'idempotency-key-length',
  title: 'An Idempotency-Key of the stated maximum length is accepted; a longer one gets 400.',
  fixture: 'overlong-key-accepted',
  covers: ['idempotency-key-length: *'],
  needs: [IDEMPOTENCY_OPERATION],
  inputs: {
    operations: declaresIdempotencyKey,
    reads: { parts: ['operation'], statuses: ['400'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    const real = newReal(ctx);
    // The stated bound, read from the contract's Idempotency-Key parameter.
    const max = ctx.contract.constants.idempotencyKeyMaxLength;
    if (max === undefined) throw new CheckSkipped('the contract states no upper bound for Idempotency-Key');
    const key255 = `${real.nonce}-`.padEnd(max, 'k');
    const accepted = await post(real, key255, bodyFor(real, 'key255', 'longest key'));
    if (!isSuccess(accepted))
      ctx.report({
        title: `A ${max}-character Idempotency-Key was refused`,
        expected: `2xx (${max} characters is the maximum)`,
        received: describe(accepted),
        exchange: accepted,
      });
    await ctx.property(
      'key-length',
      fc.record({ length: fc.integer({ min: max + 1, max: max * 8 }), fill: keyChar }),
      async ({ length, fill }) => {
        const key = `${newReal(ctx).nonce}-`.padEnd(length, fill);
        const exchange = await post(real, key, bodyFor(real, 'longkey', `key of ${length}`));
        if (exchange.response?.status !== 400)
          throw new CheckFailure({
            title: `An Idempotency-Key of ${length} characters was not refused with 400`,
            expected: '400',
            received: describe(exchange),
            exchange,
          });
        const problems = errorShapeProblems(exchange);
        if (problems.length > 0)
          throw new CheckFailure({
            ruleId: 'error-shape',
            title: '400 not in the error shape',
            expected: '{ errorMessage: string }',
            received: problems.join('; '),
            exchange,
          });
      },
      { examples: [{ length: max + 1, fill: 'k' }], numRuns: Math.max(3, Math.min(ctx.config.runs, 10)) },
    );
    // The bound holds on every write, not only the one the property explores.
    const { targets } = await writeTargets(ctx);
    for (const target of targets) {
      const exchange = await sendWithKey(ctx, target, `${real.nonce}-`.padEnd(max + 1, 'k'));
      if (exchange.response?.status !== 400)
        ctx.report({
          title: `An Idempotency-Key of ${max + 1} characters to ${target.op.operationId} was not refused with 400`,
          expected: '400',
          received: describe(exchange),
          exchange,
        });
    }
  },
});

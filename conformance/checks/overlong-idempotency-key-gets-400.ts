/**
 * x-rules: idempotency-key-length — An Idempotency-Key is at most 255 characters: 255 is accepted, anything
 * longer gets 400 in the error shape. Proved by fixtures/broken/overlong-key-accepted.ts.
 */
import fc from 'fast-check';
import { CheckFailure } from '../lib/failure';
import { describe, errorShapeProblems } from '../lib/exchange';
import { IDEMPOTENCY_OPERATION, bodyFor, isSuccess, newReal, post } from '../lib/idempotency-model';
import type { Check } from './registry';

const keyChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'.split(''));

export const overlongIdempotencyKeyGets400: Check = {
  id: 'overlong-idempotency-key-gets-400',
  ruleId: 'idempotency-key-length',
  title: 'An Idempotency-Key of 255 characters is accepted; a longer one gets 400.',
  fixture: 'overlong-key-accepted',
  covers: ['idempotency-key-length: *'],
  needs: [IDEMPOTENCY_OPERATION],
  async run(ctx) {
    const real = newReal(ctx);
    const key255 = `${real.nonce}-`.padEnd(255, 'k');
    const accepted = await post(real, key255, bodyFor(real, 'key255', 'longest key'));
    if (!isSuccess(accepted))
      ctx.report({
        title: 'A 255-character Idempotency-Key was refused',
        expected: '2xx (255 characters is the maximum)',
        received: describe(accepted),
        exchange: accepted,
      });
    await ctx.property(
      'key-length',
      fc.record({ length: fc.integer({ min: 256, max: 2048 }), fill: keyChar }),
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
      { examples: [{ length: 256, fill: 'k' }], numRuns: Math.max(3, Math.min(ctx.config.runs, 10)) },
    );
  },
};

/**
 * x-rules: idempotency-concurrent-409 — Concurrent requests with the same Idempotency-Key create at most one
 * record: each gets the original response or 409 (a retry while the first still runs).
 * Proved by fixtures/broken/concurrent-requests-create-records.ts.
 */
import fc from 'fast-check';
import { CheckFailure } from '../lib/failure';
import { deepEqual, describe, errorShapeProblems } from '../lib/exchange';
import {
  IDEMPOTENCY_OPERATION,
  bodyFor,
  createdUuid,
  isSuccess,
  keyFor,
  newReal,
  post,
} from '../lib/idempotency-model';
import { conformanceName, requestBodySchema } from '../lib/operations';
import { declaresIdempotencyKey } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck, type CheckContext } from './registry';

/**
 * Concurrency that truly overlaps: a run created with waitUntilFinished takes time on any server, so a retry with
 * the same key sent while it is still running must get 409, not wait for it and replay its answer.
 */
async function overlapWhileRunning(ctx: CheckContext): Promise<void> {
  const create = ctx.contract.findOperation('POST', ctx.config.createRunPath);
  if (!create || !requestBodySchema(create)?.properties?.waitUntilFinished) return;
  const key = conformanceName(40);
  const body = {
    ...(ctx.config.createRunBody as Record<string, unknown>),
    recordTitle: conformanceName(),
    waitUntilFinished: true,
  };
  const send = () =>
    ctx.send({
      method: 'POST',
      path: ctx.config.createRunPath,
      body,
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
      operationId: create.operationId,
    });
  const first = send();
  await new Promise((resolve) => setTimeout(resolve, 150));
  const second = await send();
  const original = await first;
  // Conclusive only if the retry was sent while the first was still running.
  if (second.sentAt >= original.receivedAt) {
    ctx.note('the waitUntilFinished create finished before its retry was sent; overlap not tried');
    return;
  }
  const status = second.response?.status;
  if (status === 409) return;
  const waited = second.receivedAt >= original.receivedAt;
  ctx.report({
    title: waited
      ? 'A concurrent same-key retry waited for the first request and replayed it instead of 409'
      : 'A concurrent same-key retry did not get 409',
    expected: '409 (the first request with this key was still running)',
    received: `${describe(second)} (sent ${second.sentAt - original.sentAt} ms after the first, which answered ${original.receivedAt - original.sentAt} ms after it was sent)`,
    exchange: second,
  });
}

export const concurrentSameKeyRequestsCreateOneRecord = defineCheck({
  id: 'concurrent-same-key-requests-create-one-record',
  ruleId: 'idempotency-concurrent-409',
  title:
    'Concurrent requests with one Idempotency-Key create at most one record; the others get 409 or the same response.',
  fixture: 'concurrent-requests-create-records',
  covers: [
    'idempotency-concurrent-409: createMcpServer',
    'idempotency-concurrent-409: createRun',
    'response-conformance: createRun 409',
  ],
  declines: {
    'idempotency-concurrent-409: *':
      'a concurrent retry needs the first request still running when it arrives: only the waitUntilFinished run is slow on every server (and createMcpServer is raced)',
  },
  needs: [IDEMPOTENCY_OPERATION],
  inputs: {
    operations: declaresIdempotencyKey,
    reads: { parts: ['operation', 'request-body'], responses: ['409', '2XX'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    await ctx.property(
      'concurrent',
      fc.record({ copies: fc.integer({ min: 2, max: 4 }), label: fc.stringMatching(/^[a-z0-9]{4,10}$/) }),
      async ({ copies, label }) => {
        const real = newReal(ctx);
        const key = keyFor(real, label);
        const body = bodyFor(real, label, 'concurrent');
        const exchanges = await Promise.all(Array.from({ length: copies }, () => post(real, key, body)));
        const successes = exchanges.filter(isSuccess);
        for (const exchange of exchanges) {
          const status = exchange.response?.status;
          if (!isSuccess(exchange) && status !== 409)
            throw new CheckFailure({
              title: 'A concurrent same-key request got neither the response nor 409',
              expected: '2xx (the original response) or 409',
              received: describe(exchange),
              exchange,
            });
          if (status === 409 && errorShapeProblems(exchange).length > 0)
            throw new CheckFailure({
              ruleId: 'error-shape',
              title: '409 not in the error shape',
              expected: '{ errorMessage: string }',
              received: errorShapeProblems(exchange).join('; '),
              exchange,
            });
        }
        if (successes.length === 0)
          throw new CheckFailure({
            title: 'Every concurrent same-key request got 409',
            expected: 'the first request to succeed',
            received: exchanges.map(describe).join(' | '),
            exchange: exchanges[0],
          });
        // Settle: once the first has finished, a replay must return what the successes returned.
        const replay = await post(real, key, body);
        const original = successes[0].response;
        for (const exchange of [...successes.slice(1), replay]) {
          if (exchange.response?.status !== original?.status || !deepEqual(exchange.response?.body, original?.body)) {
            const distinct = createdUuid(exchange) !== createdUuid(successes[0]);
            throw new CheckFailure({
              title: distinct
                ? 'Concurrent same-key requests created more than one record'
                : 'A same-key request got a different response',
              expected: `${original?.status} with the record ${String(createdUuid(successes[0]))}`,
              received: describe(exchange),
              exchange,
            });
          }
        }
      },
      { numRuns: Math.max(2, Math.min(ctx.config.runs, 5)) },
    );
    await overlapWhileRunning(ctx);
  },
});

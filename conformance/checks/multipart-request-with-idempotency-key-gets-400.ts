/**
 * x-rules: idempotency-no-multipart — A multipart request does not accept Idempotency-Key: on every write that
 * takes a body it is refused (400 in the error shape), never processed. Proved by
 * fixtures/broken/multipart-key-accepted.ts.
 */
import { describe, errorShapeProblems } from '../lib/exchange';
import { CheckSkipped } from '../lib/failure';
import { acceptsIdempotencyKey, changesExistingState, conformanceName, hasPathParameters } from '../lib/operations';
import { declaresIdempotencyKey, isMultipart } from './inputs';
import { IDEMPOTENCY_KEY_HEADER, type Operation } from '../../spec/lib';
import { defineCheck, type CheckContext } from './registry';

const BOUNDARY = 'conformance-boundary';

export const multipartRequestWithIdempotencyKeyGets400 = defineCheck({
  id: 'multipart-request-with-idempotency-key-gets-400',
  ruleId: 'idempotency-no-multipart',
  title: 'A multipart request carrying Idempotency-Key is refused with 400.',
  fixture: 'multipart-key-accepted',
  covers: ['idempotency-no-multipart: *'],
  declines: {
    'idempotency-no-multipart: cancelRun': 'a cancel takes no body to upload',
    'idempotency-no-multipart: updateCurrentWorkspace': 'needs writes (--allow-writes): it changes the workspace',
  },
  inputs: {
    operations: (op, all) => (all.some(isMultipart) ? isMultipart(op) : declaresIdempotencyKey(op)),
    reads: { parts: ['operation', 'request-body'], statuses: ['400'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    const targets = ctx.contract.operations.filter(
      (op) =>
        acceptsIdempotencyKey(op) && !hasPathParameters(op) && (!changesExistingState(op) || ctx.config.allowWrites),
    );
    if (targets.length === 0) throw new CheckSkipped('no selected write to upload to');
    for (const op of targets) await judgeUpload(ctx, op);
  },
});

/** One multipart upload with an Idempotency-Key to a write: 400 in the error shape. */
async function judgeUpload(ctx: CheckContext, op: Operation): Promise<void> {
  {
    const name = conformanceName();
    const body = [`--${BOUNDARY}`, 'Content-Disposition: form-data; name="name"', '', name, `--${BOUNDARY}--`, ''].join(
      '\r\n',
    );
    const exchange = await ctx.send({
      method: op.method,
      path: op.path,
      headers: {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        [IDEMPOTENCY_KEY_HEADER]: conformanceName(40),
      },
      body,
      operationId: op.operationId,
    });
    const status = exchange.response?.status ?? 0;
    if (status === 400) {
      const problems = errorShapeProblems(exchange);
      if (problems.length > 0)
        ctx.report({
          ruleId: 'error-shape',
          title: '400 not in the error shape',
          expected: '{ errorMessage: string }',
          received: problems.join('; '),
          exchange,
        });
      return;
    }
    if (status >= 400 && status < 500) {
      // Refused, which is what the rule asks; the status for it is not stated beyond "bad request".
      ctx.report({
        severity: 'warning',
        title: 'A multipart request with Idempotency-Key was refused, but not with 400',
        expected: '400',
        received: describe(exchange),
        exchange,
      });
      return;
    }
    ctx.report({
      title: `A multipart request with Idempotency-Key to ${op.operationId} was not refused`,
      expected: '400',
      received: describe(exchange),
      exchange,
    });
  }
}

/**
 * x-rules: request-validation — Requests generated from the spec's schemas that keep every stated rule are
 * accepted: 2xx, or 404 when they name ids that do not exist. Each min and max (and its neighbour inside) is
 * always tried; fast-check shrinks a failing request to a minimal one. Proved by fixtures/broken/valid-limit-refused.ts.
 */
import { assumptionOf } from '../../spec/lib';
import { CheckFailure } from '../lib/failure';
import { describe } from '../lib/exchange';
import { changesExistingState, hasPathParameters } from '../lib/operations';
import { mentionsUuid, openConstraintsTouched, shapeRequest, targetOf, validRequests } from '../lib/requests';
import { namedClientErrors, omittedFields, requiredNotShown } from '../lib/stated';
import { defineCheck } from './registry';

export const validRequestsAreAccepted = defineCheck({
  id: 'valid-requests-are-accepted',
  ruleId: 'request-validation',
  title: 'Requests that keep every stated rule are accepted (2xx, or 404 for ids that do not exist).',
  fixture: 'valid-limit-refused',
  covers: ['auth-required-401: Authorization: Bearer (the stated channel)'],
  inputs: { operations: 'all', reads: { parts: ['operation', 'parameter', 'request-body'], statuses: ['2XX'] } },
  splits: true,
  async run(ctx) {
    const skipped = ctx.contract.operations
      .filter((op) => changesExistingState(op) && !hasPathParameters(op) && !ctx.config.allowWrites)
      .map((op) => op.operationId);
    // One property per operation, independent of the others: they run on the run's workers.
    await ctx.each(
      ctx.contract.operations.filter((op) => !skipped.includes(op.operationId)),
      async (op) => {
        const { arbitrary, boundaries } = validRequests(op);
        await ctx.property(
          op.operationId,
          arbitrary,
          async (generated) => {
            const request = shapeRequest(op, generated, ctx.config.allowWrites, true);
            const exchange = await ctx.send({
              method: op.method,
              path: targetOf(op, request),
              headers: request.headers,
              body: request.body,
              operationId: op.operationId,
            });
            const status = exchange.response?.status ?? 0;
            if (status >= 200 && status < 300) return;
            if (status === 404 && mentionsUuid(request)) return;
            // Values whose bounds the contract does not show (x-constraints-not-shown) may be refused: a warning.
            const open = status === 400 ? openConstraintsTouched(op, request) : [];
            if (open.length > 0) {
              ctx.report({
                severity: 'warning',
                title: `${op.operationId} refused a value whose bounds the contract does not show (${open.join(', ')})`,
                expected: '2xx',
                received: describe(exchange),
                exchange,
              });
              return;
            }
            // The maximum request body size is not shown: a 413 for a large valid body is that reading.
            if (status === 413) {
              ctx.report({
                severity: 'warning',
                title: `${op.operationId} refused a large valid body with 413`,
                expected: '2xx',
                received: describe(exchange),
                assumption: assumptionOf(op.responses['413']?.node),
                exchange,
              });
              return;
            }
            // Which body fields are required is not shown (x-required-not-shown): refusing a body that leaves some out
            // with a 4xx the operation names is the other reading (PUT as a full replacement included).
            const requiredOpen = requiredNotShown(op);
            const omitted = requiredOpen ? omittedFields(op, request.body) : [];
            if (requiredOpen && omitted.length > 0 && namedClientErrors(op).includes(status)) {
              ctx.report({
                severity: 'warning',
                title: `${op.operationId} requires body fields the contract does not show as required`,
                expected: '2xx (no field is stated as required)',
                received: `${describe(exchange)} (left out: ${omitted.join(', ')})`,
                assumption: requiredOpen,
                exchange,
              });
              return;
            }
            throw new CheckFailure({
              title: `${op.operationId} refused a valid request`,
              expected: mentionsUuid(request) ? '2xx or 404' : '2xx',
              received: describe(exchange),
              exchange,
            });
          },
          { examples: boundaries },
        );
      },
    );
    if (skipped.length > 0) {
      ctx.note(`not generated without --allow-writes: ${skipped.join(', ')}`);
      ctx.unjudged?.(`valid requests to ${skipped.join(', ')}`, 'run with --allow-writes (they change what exists)');
    }
  },
});

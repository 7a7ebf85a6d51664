/**
 * x-rules: request-validation — A request breaking one stated rule (limit 0 or 1001, an over-long or
 * `<`-containing name, a bad uuid, a wrong type, a query over 10000 characters, ...) gets 400 in the error shape.
 * Cases come from generators/arbitraries (invalidRequests). Proved by fixtures/broken/limit-1001-accepted.ts.
 */
import { describe, errorShapeProblems } from '../lib/exchange';
import { changesExistingState, hasPathParameters, unknownUuid } from '../lib/operations';
import { invalidRequestsOf, shapeRequest, targetOf } from '../lib/requests';
import type { Check } from './registry';

export const invalidRequestsAreRejectedWith400: Check = {
  id: 'invalid-requests-are-rejected-with-400',
  ruleId: 'request-validation',
  title: 'A request breaking one stated rule gets 400 in the error shape.',
  fixture: 'limit-1001-accepted',
  async run(ctx) {
    const skipped: string[] = [];
    let cases = 0;
    for (const op of ctx.contract.operations) {
      if (changesExistingState(op) && !hasPathParameters(op) && !ctx.config.allowWrites) {
        skipped.push(op.operationId);
        continue;
      }
      for (const invalid of invalidRequestsOf(op)) {
        const request = shapeRequest(op, invalid.request, ctx.config.allowWrites, false);
        // Only the broken spot is broken: a valid path id elsewhere is one of nothing, so nothing existing is touched.
        if (changesExistingState(op) && invalid.location !== 'path') for (const name of Object.keys(request.pathParams)) request.pathParams[name] = unknownUuid();
        cases++;
        const exchange = await ctx.send({ method: op.method, path: targetOf(op, request), headers: request.headers, body: request.body, operationId: op.operationId });
        const status = exchange.response?.status;
        if (status !== 400) {
          ctx.report({ title: `${op.operationId} did not refuse ${invalid.description}`, expected: `400 (breaks ${invalid.breaks} at ${invalid.path || 'the body'})`, received: describe(exchange), exchange });
          continue;
        }
        const problems = errorShapeProblems(exchange);
        if (problems.length > 0) ctx.report({ ruleId: 'error-shape', title: `400 for ${op.operationId} not in the error shape`, expected: '{ errorMessage: string }', received: problems.join('; '), exchange });
      }
    }
    ctx.note(`${cases} invalid cases sent`);
    if (skipped.length > 0) ctx.note(`not sent without --allow-writes: ${skipped.join(', ')}`);
  },
};
